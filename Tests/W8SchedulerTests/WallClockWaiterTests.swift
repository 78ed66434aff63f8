import Foundation
import Glibc
import Testing
import W8System
import W8TestSupport

@testable import W8Scheduler

/// Real descriptors, real files, real signals; every wait that could hang has a deadline.
@Suite struct WallClockWaiterTests {
    @Test func waitsUntilADateAhead() async throws {
        let waiter = try WallClockWaiter(watching: [], signals: [])
        let date = Date() + 0.3
        let start = ContinuousClock.now

        let (wake, woke) = await onOwnThread { (waiter.wait(until: date), Date()) }

        let elapsed = ContinuousClock.now - start
        #expect(wake == .deadline)
        #expect(woke >= date, "woke before the wall-clock date")
        #expect(elapsed >= .milliseconds(290))
        #expect(elapsed < .seconds(2 * testTimeScale))
    }

    @Test(arguments: [Date() - 10, Date.distantPast])
    func returnsAtOnceForAPastDate(date: Date) throws {
        let waiter = try WallClockWaiter(watching: [], signals: [])
        let start = ContinuousClock.now

        let wake = waiter.wait(until: date)

        #expect(wake == .deadline)
        #expect(ContinuousClock.now - start < .milliseconds(50 * testTimeScale))
    }

    @Test func stopWakesAWaitWithoutDeadlineAndStaysStopped() async throws {
        let waiter = try WallClockWaiter(watching: [], signals: [])

        let (wake, elapsed) = await waking(waiter, until: nil) { waiter.stop() }

        #expect(wake == .stopped)
        #expect(elapsed >= .milliseconds(100))
        #expect(elapsed < .seconds(2 * testTimeScale))
        // Then: later waits end at once too, even with a deadline far ahead.
        #expect(waiter.wait(until: Date() + 60) == .stopped)
    }

    @Test func wakeEndsOneWaitOnly() async throws {
        let waiter = try WallClockWaiter(watching: [], signals: [])

        let (wake, elapsed) = await waking(waiter, until: nil) { waiter.wake() }

        #expect(wake == .woken)
        #expect(elapsed < .seconds(2 * testTimeScale))
        // Then: the wake was used up; the next wait runs to its deadline.
        #expect(waiter.wait(until: Date() + 0.05) == .deadline)
        // A wake before the wait ends it at once.
        waiter.wake()
        #expect(waiter.wait(until: Date() + 60) == .woken)
    }

    @Test func stopBeforeTheWaitWinsOverAPastDate() throws {
        let waiter = try WallClockWaiter(watching: [], signals: [])
        waiter.stop()
        #expect(waiter.wait(until: .distantPast) == .stopped)
    }

    @Test(arguments: FileChange.allCases)
    func aChangeToTheWatchedFileWakes(change: FileChange) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.appending("config.toml")
        if change != .create { try write("a = 1\n", to: config) }
        let waiter = try WallClockWaiter(watching: [config], signals: [])

        let (wake, elapsed) = try await waking(waiter, until: Date() + 5) { try change.apply(to: config) }

        #expect(wake == .fileChanged)
        #expect(elapsed < .seconds(2 * testTimeScale))
    }

    @Test func aChangeToAnotherFileInTheDirectoryDoesNotWake() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.appending("config.toml")
        try write("a = 1\n", to: config)
        let waiter = try WallClockWaiter(watching: [config], signals: [])

        let (wake, _) = try await waking(waiter, until: Date() + 0.3) {
            try write("other\n", to: directory.appending("other.toml"))
            try write("tmp\n", to: config + ".tmp")
            try FileManager.default.removeItem(atPath: config + ".tmp")
        }

        #expect(wake == .deadline)
    }

    @Test func aFileWhoseDirectoryIsCreatedLaterIsFound() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Given: the directories appear, but no file in them yet.
        let (config, waiter) = try waiterBeforeConfigDirectory(in: directory)
        #expect(waiter.wait(until: Date() + 0.3) == .deadline)

        // When: the file is written into the new directory.
        let (wake, elapsed) = try await waking(waiter, until: Date() + 5) { try write("a = 1\n", to: config) }

        #expect(wake == .fileChanged)
        #expect(elapsed < .seconds(2 * testTimeScale))
    }

    @Test func aFileCreatedWithItsDirectoryBeforeTheWaitIsFound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The file may be written before the waiter has seen its directory and watched it.
        let (config, waiter) = try waiterBeforeConfigDirectory(in: directory)
        try write("a = 1\n", to: config)

        #expect(waiter.wait(until: Date() + 5) == .fileChanged)
    }

    @Test func movingTheDirectoryAwayWakesAndItsReturnIsFollowed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.appending("w8trackr/config.toml")
        try FileManager.default.createDirectory(
            atPath: directory.appending("w8trackr"), withIntermediateDirectories: true)
        try write("a = 1\n", to: config)
        let waiter = try WallClockWaiter(watching: [config], signals: [])

        try FileManager.default.moveItem(atPath: directory.appending("w8trackr"), toPath: directory.appending("old"))
        #expect(waiter.wait(until: Date() + 5) == .fileChanged)
        // The watch does not follow the moved directory: writing there is not a change to the watched path.
        try write("b = 2\n", to: directory.appending("old/config.toml"))
        #expect(waiter.wait(until: Date() + 0.3) == .deadline)

        try FileManager.default.createDirectory(
            atPath: directory.appending("w8trackr"), withIntermediateDirectories: true)
        try write("c = 3\n", to: config)
        #expect(waiter.wait(until: Date() + 5) == .fileChanged)
    }

    @Test func watchesSeveralFilesInDifferentDirectories() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.appending("etc"), withIntermediateDirectories: true)
        let config = directory.appending("config.toml")
        let localtime = directory.appending("etc/localtime")
        try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: "/usr/share/zoneinfo/UTC")
        let waiter = try WallClockWaiter(watching: [config, localtime], signals: [])

        // Like timedatectl: a new symbolic link renamed over the old one.
        let (wake, _) = try await waking(waiter, until: Date() + 5) {
            try FileChange.symlinkReplace.apply(to: localtime)
        }

        #expect(wake == .fileChanged)
    }

    @Test func aDeadlineIsReportedBeforeAFileChangeThatIsAlsoPending() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.appending("config.toml")
        let waiter = try WallClockWaiter(watching: [config], signals: [])
        try write("a = 1\n", to: config)

        #expect(waiter.wait(until: Date() - 1) == .deadline)
        #expect(waiter.wait(until: Date() + 5) == .fileChanged)
    }

    /// Signals go to the waiting thread only (`pthread_kill`): a process-directed `kill(getpid(), SIGUSR1)`
    /// could land on another test thread that does not block SIGUSR1, and end the test process.
    @Test func aSignalToTheWaitingThreadWakes() async throws {
        let (threads, published) = AsyncStream.makeStream(of: pthread_t.self)
        let start = ContinuousClock.now
        async let wake = onOwnThread { () -> WallClockWaiter.Wake? in
            defer { published.finish() }
            guard (try? WallClockWaiter.blockSignals([SIGUSR1])) != nil,
                let waiter = try? WallClockWaiter(watching: [], signals: [SIGUSR1])
            else { return nil }
            // Only now, with SIGUSR1 blocked in this thread, may it be sent.
            published.yield(pthread_self())
            return waiter.wait(until: Date() + 5)
        }
        var iterator = threads.makeAsyncIterator()
        guard let thread = await iterator.next() else {
            Issue.record("could not block SIGUSR1 or make the waiter")
            return
        }
        try await Task.sleep(for: .milliseconds(100))

        #expect(pthread_kill(thread, SIGUSR1) == 0)

        #expect(await wake == .signal(SIGUSR1))
        #expect(ContinuousClock.now - start < .seconds(2 * testTimeScale))
    }

    @Test func blockingANumberThatIsNotASignalFails() {
        #expect(throws: SystemCallError("pthread_sigmask", errno: Errno(rawValue: EINVAL))) {
            try WallClockWaiter.blockSignals([9999])
        }
    }

    @Test func errorMessagesNameTheCallAndTheErrno() {
        let error = SystemCallError("inotify_init1", errno: Errno(rawValue: EMFILE))
        #expect(error.localizedDescription == "inotify_init1 failed: Too many open files (errno 24)")
    }

    @Test func aWaitWithoutDeadlineDoesNotWakeTheThread() async throws {
        let waiter = try WallClockWaiter(watching: ["/etc/localtime"], signals: [])
        let (threads, published) = AsyncStream.makeStream(of: String.self)
        async let wake = onOwnThread { () -> WallClockWaiter.Wake in
            published.yield(currentThreadStatusPath())
            published.finish()
            return waiter.wait(until: nil)
        }
        var iterator = threads.makeAsyncIterator()
        let status = try #require(await iterator.next())
        // Measured only once the thread is asleep in the wait's poll(): a thread that never got there would be
        // quiet too. /proc's syscall file names the call a blocked thread is in (7 poll, 271 ppoll).
        let syscall = URL(fileURLWithPath: status).deletingLastPathComponent().appendingPathComponent("syscall").path
        let deadline = ContinuousClock.now + .seconds(5 * testTimeScale)
        func inPoll() -> Bool {
            let call = (try? String(contentsOfFile: syscall, encoding: .utf8))?.split(separator: " ").first
            return call == "7" || call == "271"
        }
        while !inPoll(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(inPoll(), "the waiting thread never blocked in poll()")

        let before = contextSwitches(status)
        try await Task.sleep(for: .seconds(1))
        let after = contextSwitches(status)
        waiter.stop()

        #expect(await wake == .stopped)
        let switches = try #require(before.flatMap { b in after.map { $0 - b } })
        #expect(switches <= 2, "the waiting thread was switched \(switches) times in 1 s")
    }

    @Test(
        arguments: [
            (1.5, RealtimeInstant(seconds: 1, nanoseconds: 500_000_000)),
            (1_700_000_000.25, RealtimeInstant(seconds: 1_700_000_000, nanoseconds: 250_000_000)),
            (2.999_999_999_9, RealtimeInstant(seconds: 3, nanoseconds: 0)),
            (-5.0, RealtimeInstant(seconds: 0, nanoseconds: 0)),
        ] as [(Double, RealtimeInstant)])
    // Near today a Date holds about 0.1 µs, so the cases use fractions that it holds exactly.
    func datesBecomeTimespecsRoundedUp(seconds: Double, instant: RealtimeInstant) {
        #expect(RealtimeInstant(Date(timeIntervalSince1970: seconds)) == instant)
    }

    @Test func farFutureDatesAreClampedToWhatTheKernelAccepts() {
        #expect(RealtimeInstant(.distantFuture).seconds == 9_000_000_000)
    }
}

/// The ways a file gets changed, by people, editors and tools.
enum FileChange: String, CaseIterable, Sendable {
    case write, replaceByRename, delete, chmod, create, symlinkReplace

    func apply(to path: String) throws {
        switch self {
        case .write, .create:
            try W8SchedulerTests.write("changed = true\n", to: path)
        case .replaceByRename:
            try W8SchedulerTests.write("changed = true\n", to: path + ".tmp")
            try check(rename(path + ".tmp", path))
        case .delete:
            try FileManager.default.removeItem(atPath: path)
        case .chmod:
            try check(Glibc.chmod(path, 0o600))
        case .symlinkReplace:
            try FileManager.default.createSymbolicLink(
                atPath: path + ".tmp", withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
            try check(rename(path + ".tmp", path))
        }
    }

    private func check(_ result: Int32) throws {
        if result != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}

/// Writes in place with open(2), write(2) and close(2), as an editor that does not rename would.
func write(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard Glibc.write(fd, bytes, bytes.count) == bytes.count else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

/// Runs `body` on its own thread, so that a blocking wait never holds one of the test runner's threads.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Starts `waiter.wait(until:)` on its own thread, makes `change` 100 ms later, and returns how the wait ended
/// and how long after the start.
func waking(
    _ waiter: WallClockWaiter, until date: Date?, after change: @Sendable () throws -> Void
) async rethrows -> (WallClockWaiter.Wake, Duration) {
    let start = ContinuousClock.now
    async let wake = onOwnThread { waiter.wait(until: date) }
    try? await Task.sleep(for: .milliseconds(100))
    try change()
    return (await wake, ContinuousClock.now - start)
}

/// `/proc/self/task/<tid>/status` of the calling thread, found through the `/proc/thread-self` link.
func currentThreadStatusPath() -> String {
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return "/proc/\(target)/status"
}

/// `voluntary_ctxt_switches + nonvoluntary_ctxt_switches` from a thread's status file.
func contextSwitches(_ statusPath: String) -> Int? {
    guard let status = try? String(contentsOfFile: statusPath, encoding: .utf8) else { return nil }
    let counts = status.split(separator: "\n").compactMap { line -> Int? in
        guard line.contains("ctxt_switches:") else { return nil }
        return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
    }
    return counts.count == 2 ? counts.reduce(0, +) : nil
}

/// A waiter on `config/w8trackr/config.toml` below `directory`, made before that directory existed; the directory
/// is created after it, and the file is not.
private func waiterBeforeConfigDirectory(in directory: TemporaryDirectory) throws -> (String, WallClockWaiter) {
    let config = directory.appending("config/w8trackr/config.toml")
    let waiter = try WallClockWaiter(watching: [config], signals: [])
    try FileManager.default.createDirectory(
        atPath: directory.appending("config/w8trackr"), withIntermediateDirectories: true)
    return (config, waiter)
}
