import Foundation
import Synchronization

/// Why a notification-server fixture could not be set up. Tests that hit this fail; they never skip.
public enum NotificationServerFixtureError: Error, CustomStringConvertible {
    case missingExecutable(String, debianPackage: String)
    case didNotStart(String, log: String)
    case commandFailed(String, status: Int32, stderr: String)
    case timedOut(String)
    case unreadableOutput(String, output: String)

    public var description: String {
        switch self {
        case .missingExecutable(let name, let package):
            "\(name) is not installed; install it with: apt-get install \(package)"
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
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"] {
        let candidate = directory + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw NotificationServerFixtureError.missingExecutable(name, debianPackage: debianPackage)
}

/// A private temporary directory (0700) with a short path, as D-Bus socket paths must stay under 108 bytes.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init(prefix: String) throws {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    func subdirectory(_ name: String) throws -> URL {
        let sub = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return sub
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The environment every child starts from: PATH, HOME and a UTF-8 locale, nothing from the session.
func baseChildEnvironment() -> [String: String] {
    let parent = ProcessInfo.processInfo.environment
    var environment = ["PATH": parent["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
    environment["HOME"] = parent["HOME"]
    return environment
}

/// A long-running child (Xvfb, dbus-daemon, dunst) whose stderr goes to a log file and stdout to a pipe.
final class ChildProcess {
    let name: String
    let process = Process()
    let logURL: URL
    private let stdout = Pipe()
    private var pending = Data()

    init(name: String, executable: String, arguments: [String], environment: [String: String], logDirectory: URL)
        throws
    {
        self.name = name
        logURL = logDirectory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
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

    /// SIGTERM, then SIGKILL if it has not exited within `grace` seconds.
    func stop(grace: TimeInterval = 2) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The result of a short command run to completion.
struct CommandOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` to completion with output in files (no pipe can fill up), killing it after `timeout` seconds.
func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval = 10
) throws -> CommandOutput {
    let directory = try TemporaryDirectory(prefix: "w8-cmd")
    defer { directory.remove() }
    let outURL = directory.url.appendingPathComponent("out")
    let errURL = directory.url.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try launchWithEmptySignalMask(process)
    if exited.wait(timeout: .now() + timeout) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw NotificationServerFixtureError.timedOut("\(executable) \(arguments.joined(separator: " "))")
    }
    return CommandOutput(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

/// Starts `process` from a fresh thread whose signal mask is empty.
///
/// Foundation's `Process` on Linux spawns children with the calling thread's signal mask, and the threads tests run
/// on (libdispatch workers) block nearly every signal, SIGTERM included: children started from them ignore
/// `terminate()`. Starting them from a thread with nothing blocked gives them the default mask.
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
        do { try process.run() } catch { outcome.error.withLock { $0 = error } }
        outcome.done.signal()
    }
    thread.start()
    outcome.done.wait()
    if let error = outcome.error.withLock({ $0 }) { throw error }
}
