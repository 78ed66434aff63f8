import CLibnotify
import Dispatch
import Foundation
import Synchronization

/// The one thread of this process that calls libnotify, with a deadline on every call.
///
/// libnotify keeps unlocked global state, so every sink and `serverInfo` in the process share this thread; one
/// thread per sink would race on that state. `notify_notification_show` blocks for 25 s against a hung server, so
/// callers wait with their own deadline. While a call is overdue, new calls fail at once instead of queueing.
///
/// Between jobs the thread runs GLib's default main context, where libnotify's action signals arrive; it blocks
/// in `poll()` with no timer, and a new job wakes it with `g_main_context_wakeup`.
final class LibnotifyThread: Sendable {
    /// libnotify's state is per process, so is this thread.
    static let process = LibnotifyThread()

    private typealias Job = @Sendable (inout LibnotifyContext) -> Void

    private struct State {
        var jobs: [Job] = []
        var started = false
        /// Set when a caller gave up waiting; cleared when the thread finishes the job it was stuck in.
        var overdue = false
    }

    /// Behind a pthread mutex (NSLock) rather than Synchronization's `Mutex`: ThreadSanitizer follows the first
    /// and not the second, whose atomics live in the uninstrumented standard library, and reported this thread's
    /// and its callers' accesses as races.
    private let state = Locked(State())

    private init() {}

    /// Runs `body` on the libnotify thread and waits for it at most `deadline` seconds.
    func run<T: Sendable>(
        deadline: TimeInterval, _ body: @escaping @Sendable (inout LibnotifyContext) throws(LibnotifyError) -> T
    ) throws(LibnotifyError) -> T {
        // libnotify is loaded at the first call: the commands that post nothing never load it.
        guard clibnotify_load() == 0 else { throw .libraryUnavailable(String(cString: clibnotify_error())) }
        let completion = Completion<T>()
        let job: Job = { context in
            guard completion.start() else { return }
            let result: Result<T, LibnotifyError>
            do throws(LibnotifyError) { result = .success(try body(&context)) } catch { result = .failure(error) }
            completion.finish(result)
        }
        let mustStart = try state.withLock { state throws(LibnotifyError) -> Bool in
            if state.overdue { throw .timedOut(seconds: deadline) }
            state.jobs.append(job)
            defer { state.started = true }
            return !state.started
        }
        if mustStart { startThread() }
        g_main_context_wakeup(g_main_context_default())

        if completion.done.wait(timeout: .now() + deadline) == .timedOut, let overdue = completion.abandon() {
            if overdue { state.withLock { $0.overdue = true } }
            throw .timedOut(seconds: deadline)
        }
        return try completion.result().get()
    }

    /// Starts the thread, if no call has, with a first job that connects to the session bus (what every post does
    /// first), and returns at once. The thread loads libnotify itself. What fails here is not reported: the calls
    /// that follow meet the same failure and report it.
    func connectInBackground() {
        let mustStart = state.withLock { state -> Bool in
            guard !state.started else { return false }
            state.jobs.append { context in _ = try? context.connect() }
            state.started = true
            return true
        }
        if mustStart { startThread() }
    }

    /// Runs the thread's loop on a new thread.
    private func startThread() {
        let thread = Thread { [self] in runLoop() }
        thread.name = "w8.libnotify"
        thread.start()
    }

    private func runLoop() {
        // `run` loaded libnotify before it started the thread; after `connectInBackground`, loading is the
        // thread's work. When it fails, `run` fails the same way before it queues a job, so none is left waiting.
        guard clibnotify_load() == 0 else { return }
        var context = LibnotifyContext()
        let mainContext = g_main_context_default()
        while true {
            let job = state.withLock { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }
            guard let job else {
                // Dispatches D-Bus signals (ActionInvoked); returns early when a job is queued.
                _ = g_main_context_iteration(mainContext, 1)
                continue
            }
            job(&context)
            state.withLock { $0.overdue = false }
        }
    }
}

/// The outcome of one job, handed from the libnotify thread to the caller waiting for it.
private final class Completion<T: Sendable>: Sendable {
    private enum Phase {
        case waiting, running, abandoned
        case finished(Result<T, LibnotifyError>)
    }

    let done = DispatchSemaphore(value: 0)
    private let phase = Mutex(Phase.waiting)

    /// Marks the job as running; false if its caller already gave up, so it must not run.
    func start() -> Bool {
        phase.withLock { phase in
            if case .abandoned = phase { return false }
            phase = .running
            return true
        }
    }

    func finish(_ result: Result<T, LibnotifyError>) {
        phase.withLock { phase in
            if case .abandoned = phase { return }
            phase = .finished(result)
        }
        done.signal()
    }

    /// Gives up on the job. Returns nil if it finished meanwhile, else whether it was already running.
    func abandon() -> Bool? {
        phase.withLock { phase -> Bool? in
            switch phase {
            case .finished: return nil
            case .waiting:
                phase = .abandoned
                return false
            case .running, .abandoned:
                phase = .abandoned
                return true
            }
        }
    }

    func result() -> Result<T, LibnotifyError> {
        phase.withLock { phase in
            if case .finished(let result) = phase { return result }
            return .failure(.serverError("internal error: no result"))
        }
    }
}

/// A value behind an `NSLock`.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
