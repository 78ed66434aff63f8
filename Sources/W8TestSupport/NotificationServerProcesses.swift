import Foundation
import Synchronization

/// Why a notification-server fixture could not be set up. Tests that hit this fail; they never skip.
public enum NotificationServerFixtureError: Error, CustomStringConvertible {
    case missingExecutable(String, debianPackage: String)
    case missingUser(String)
    case didNotStart(String, log: String)
    case commandFailed(String, status: Int32, stderr: String)
    case timedOut(String)
    case unreadableOutput(String, output: String)

    public var description: String {
        switch self {
        case .missingExecutable(let name, let package):
            "\(name) is not installed; install it with: apt-get install \(package)"
        case .missingUser(let name):
            "the tests run as root, and sway, mako and waybar need an unprivileged user '\(name)', which does not "
                + "exist; run scripts/install-deps as root (it creates it) or: useradd -m \(name)"
        case .didNotStart(let what, let log):
            "\(what) did not start. Its log:\n\(log)"
        case .commandFailed(let command, let status, let stderr):
            "\(command) exited with status \(status): \(stderr)"
        case .timedOut(let what):
            "timed out waiting for \(what)"
        case .unreadableOutput(let command, let output):
            "could not read the output of \(command): \(output.prefix(500))"
        }
    }
}

/// The absolute path of `name` on `PATH` (or /usr/bin, /bin), or a `missingExecutable` error naming its package.
func requireExecutable(_ name: String, debianPackage: String) throws -> String {
    if name.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: name) { return name }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"] {
        let candidate = directory + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw NotificationServerFixtureError.missingExecutable(name, debianPackage: debianPackage)
}

/// A private temporary directory (0700) under /tmp with a short name, as D-Bus socket paths must stay under 108
/// bytes: the one temporary-directory helper of the tests. `remove()` deletes it; one that is left is deleted when
/// the test process exits.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    /// Who owns it and the subdirectories made through it.
    let owner: SessionUser
    public var path: String { url.path }

    public init(prefix: String = "w8-test", owner: SessionUser = .current) throws {
        url = try Self.create(prefix: prefix)
        self.owner = owner
        LeftBehind.shared.add(url)
        try owner.own(url)
    }

    /// Makes `/tmp/prefix-` and 8 random hex digits, drawing again while the name is taken: test runs that were
    /// killed leave theirs behind (4,000 `w8-bg-` ones on this machine), and a soak run met one of them.
    static func create(prefix: String) throws -> URL {
        while true {
            let url = URL(fileURLWithPath: "/tmp").appendingPathComponent(
                "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                return url
            } catch CocoaError.fileWriteFileExists {
                continue
            }
        }
    }

    /// The path of `component` inside it.
    public func appending(_ component: String) -> String { url.appendingPathComponent(component).path }

    /// The names inside it, sorted.
    public var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    public func subdirectory(_ name: String) throws -> URL {
        let sub = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try owner.own(sub)
        return sub
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The temporary directories of this process, deleted when it exits: a test that forgets `remove()`, or whose
/// database outlives its scope, leaves nothing in /tmp.
final class LeftBehind: @unchecked Sendable {
    static let shared: LeftBehind = {
        atexit { LeftBehind.shared.removeAll() }
        return LeftBehind()
    }()

    private let lock = NSLock()
    private var urls: [URL] = []

    func add(_ url: URL) { lock.withLock { urls.append(url) } }

    func removeAll() {
        for url in lock.withLock({ urls }) { try? FileManager.default.removeItem(at: url) }
    }
}

/// Who runs a session's processes: the user running the tests, or, when that is root, the unprivileged account
/// `w8test` through `runuser`. sway refuses to run as root, a session bus admits only its own user, and `w8` signals
/// only its own user's waybar, so a sway session and every client of it run as one unprivileged user.
public struct SessionUser: Sendable, Equatable, CustomStringConvertible {
    /// The account's name; nil for the user running the tests.
    public let name: String?
    public let uid: uid_t
    public let gid: gid_t

    /// The account `scripts/install-deps` creates for the tests when it runs as root.
    public static let unprivilegedName = "w8test"

    /// The user running the tests.
    public static var current: SessionUser { SessionUser(name: nil, uid: getuid(), gid: getgid()) }

    /// The user running the tests unless that is root; then `w8test`, or a `missingUser` error naming the fix.
    public static func unprivileged() throws -> SessionUser {
        guard getuid() == 0 else { return .current }
        _ = try requireExecutable("runuser", debianPackage: "util-linux")
        guard let entry = getpwnam(unprivilegedName) else {
            throw NotificationServerFixtureError.missingUser(unprivilegedName)
        }
        return SessionUser(name: unprivilegedName, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    public var description: String { name ?? "uid \(uid)" }

    /// The command that runs `executable` as this user with exactly `environment`: the command itself, or
    /// `runuser -u NAME -- env -i K=V… executable arguments…` (runuser alone would reset HOME and keep the rest).
    func command(_ executable: String, _ arguments: [String], environment: [String: String])
        -> (executable: String, arguments: [String], environment: [String: String])
    {
        guard let name else { return (executable, arguments, environment) }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (
            "/usr/sbin/runuser", ["-u", name, "--", "/usr/bin/env", "-i"] + assignments + [executable] + arguments,
            ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        )
    }

    /// Makes this user the owner of `url` (not recursive); nothing for the current user.
    func own(_ url: URL) throws {
        guard name != nil else { return }
        guard chown(url.path, uid, gid) == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "chown \(description) \(url.path)", status: errno, stderr: String(cString: strerror(errno)))
        }
    }

    /// A path from which this user can run the program at `path`: `path` itself for the user running the tests,
    /// else a copy inside `directory` (which this user owns). A clone under a 0700 directory, as `mktemp -d`
    /// makes, cannot be reached by another user.
    func runnable(_ path: String, in directory: URL) throws -> String {
        guard name != nil else { return path }
        let copy = directory.appendingPathComponent((path as NSString).lastPathComponent)
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            try own(copy)
        }
        return copy.path
    }

    /// Makes this user the owner of `url` and everything under it.
    public func ownRecursively(_ url: URL) throws {
        guard name != nil else { return }
        try own(url)
        guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return }
        for case let relative as String in enumerator { try own(url.appendingPathComponent(relative)) }
    }
}

/// How much longer than usual a timed expectation may take: `W8_TEST_TIME_SCALE`, set by the sanitizer runs whose
/// instrumented binaries start and run several times slower; 1 otherwise.
public let testTimeScale = ProcessInfo.processInfo.environment["W8_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1

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
