import Foundation
import Synchronization
import W8TestSupport

/// A long-running child (Xvfb, dbus-daemon, dunst) whose stderr goes to a log file and stdout to a pipe.
final class ChildProcess {
    let name: String
    let process = Process()
    let logURL: URL
    /// Who it runs as; for another user `process` is `runuser`, and the program is its child.
    let user: SessionUser
    private let stdout = Pipe()
    private var pending = Data()

    /// - Parameter outputFile: where stdout goes instead of the pipe `readLine` reads.
    init(
        name: String, executable: String, arguments: [String], environment: [String: String], logDirectory: URL,
        user: SessionUser = .current, outputFile: URL? = nil
    ) throws {
        self.name = name
        self.user = user
        logURL = logDirectory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let command = user.command(executable, arguments, environment: environment)
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.environment = command.environment
        process.standardInput = FileHandle.nullDevice
        if let outputFile {
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outputFile)
        } else {
            process.standardOutput = stdout
        }
        process.standardError = try FileHandle(forWritingTo: logURL)
        do {
            try launchWithEmptySignalMask(process)
        } catch {
            throw NotificationServerFixtureError.didNotStart("\(name) (\(executable))", log: "\(error)")
        }
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// The first line the child writes to stdout, waiting at most `timeout` seconds.
    func readLine(timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = stdout.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw NotificationServerFixtureError.didNotStart(name, log: "no output; " + log)
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(remaining, 1) * 1000) + 1)
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw NotificationServerFixtureError.didNotStart(name, log: "exited; " + log) }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    /// The pid of the program itself: `runuser`'s child when it runs as another user.
    var programPID: pid_t? {
        guard process.isRunning else { return nil }
        guard user.name != nil else { return process.processIdentifier }
        return childPIDs(of: process.processIdentifier).first
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace` seconds.
    ///
    /// As another user the program is signalled, not `runuser`: runuser answers SIGTERM by waiting 2 s before
    /// it kills its child, and leaves the child running if it is killed itself.
    func stop(grace: TimeInterval = 2) {
        guard process.isRunning else { return }
        let runuser = user.name != nil
        let children = runuser ? childPIDs(of: process.processIdentifier) : []
        if runuser {
            for child in children { kill(child, SIGTERM) }
        } else {
            process.terminate()
        }
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            for child in children { kill(child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The children of `pid`, from `/proc/PID/task/*/children`.
func childPIDs(of pid: pid_t) -> [pid_t] {
    let tasks = "/proc/\(pid)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.flatMap { thread -> [pid_t] in
        let text = (try? String(contentsOfFile: "\(tasks)/\(thread)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// The result of a short command run to completion.
struct CommandOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` as `user` to completion with output in files (no pipe can fill up), killing it after `timeout`
/// seconds.
func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval = 10,
    user: SessionUser = .current
) throws -> CommandOutput {
    let directory = try TemporaryDirectory(prefix: "w8-cmd")
    defer { directory.remove() }
    let process = Process()
    let (outURL, errURL) = try prepare(
        process, executable, arguments, environment: environment, user: user, outputIn: directory)
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try launchWithEmptySignalMask(process)
    if exited.wait(timeout: .now() + timeout) == .timedOut {
        for child in user.name == nil ? [] : childPIDs(of: process.processIdentifier) { kill(child, SIGKILL) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw NotificationServerFixtureError.timedOut("\(executable) \(arguments.joined(separator: " "))")
    }
    return CommandOutput(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

/// Sets `process` up to run `executable` as `user`, its stdout and stderr going to files `out` and `err` in
/// `directory` (no pipe can fill up); returns them.
func prepare(
    _ process: Process, _ executable: String, _ arguments: [String], environment: [String: String],
    user: SessionUser, outputIn directory: TemporaryDirectory
) throws -> (out: URL, err: URL) {
    let out = directory.url.appendingPathComponent("out")
    let err = directory.url.appendingPathComponent("err")
    for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let command = user.command(executable, arguments, environment: environment)
    process.executableURL = URL(fileURLWithPath: command.executable)
    process.arguments = command.arguments
    process.environment = command.environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    return (out, err)
}

/// Starts `process` from a fresh thread whose signal mask is empty.
///
/// Foundation's `Process` on Linux spawns children with the calling thread's signal mask, and the threads tests run
/// on (libdispatch workers) block nearly every signal, SIGTERM included: children started from them ignore
/// `terminate()`. Starting them from a thread with nothing blocked gives them the default mask.
/// Held while a child is launched: Foundation's `Process.run()` was seen crashing (in `memmove`, under
/// `posix_spawn`) when test threads launched children at the same moment.
let processLaunch = Mutex<Void>(())

/// Launches `process`, one launch at a time across the test process.
public func launch(_ process: Process) throws {
    try processLaunch.withLock { _ in try process.run() }
}

func launchWithEmptySignalMask(_ process: Process) throws {
    final class Outcome: Sendable {
        let error = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    let thread = Thread {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
        do { try launch(process) } catch { outcome.error.withLock { $0 = error } }
        outcome.done.signal()
    }
    thread.start()
    outcome.done.wait()
    if let error = outcome.error.withLock({ $0 }) { throw error }
    closeParentCopies(of: process)
}

/// Closes the test process's copies of the files a child writes its output to, once the child runs with its own.
/// Foundation keeps them open as long as the `Process` object lives, and those outlived their runs: descriptors
/// grew by about 15 a second, and a soak run crashed in `Process.run()` with more than 1,300 open.
func closeParentCopies(of process: Process) {
    let shared = [FileHandle.nullDevice, FileHandle.standardOutput, FileHandle.standardError]
    for case let handle as FileHandle in [process.standardOutput, process.standardError]
    where !shared.contains(where: { $0 === handle }) {
        try? handle.close()
    }
}
