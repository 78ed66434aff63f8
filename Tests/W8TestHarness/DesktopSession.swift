import Foundation
import Synchronization
import W8TestSupport

/// A whole desktop's notification server, run headless by a script of `Tests/Support` (`desktop_KIND.py`,
/// `desktop_gtk.py`) on its own private bus and display: GNOME Shell 43, KDE Plasma 5.27, lxqt-notificationd,
/// swaync, xfce4-notifyd, notification-daemon, mako or dunst. The script answers questions about what the server
/// shows, read from the server itself (GNOME's `org.gnome.Shell.Eval`, the windows on the display, swaync's own
/// interface, `makoctl list`, a screenshot), and presses its buttons (or picks from the server's menu) as a person
/// would.
///
/// Nothing is skipped: a server that does not start fails the test with the script's log.
public final class DesktopSession: @unchecked Sendable {
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case gnome, plasma, lxqt, swaync
        case xfce4Notifyd = "xfce4-notifyd"
        case notificationDaemon = "notification-daemon"
        case mako, dunst
        public var description: String { rawValue }

        /// The script in `Tests/Support` that runs this desktop, and its arguments besides `--dir`.
        var script: (file: String, arguments: [String]) {
            switch self {
            case .xfce4Notifyd, .notificationDaemon: return ("desktop_gtk.py", ["--server", rawValue])
            default: return ("desktop_\(rawValue).py", [])
            }
        }

        /// How long the server may take to be ready: Plasma owns the name after 15–20 s.
        var startDeadline: TimeInterval { self == .plasma ? 120 : 90 }
    }

    public let kind: Kind
    /// What a client of this desktop needs: its bus and display.
    public let environment: [String: String]
    /// `GetServerInformation` and `GetCapabilities`, as the script asked them.
    public let serverName: String
    public let serverVersion: String
    public let capabilities: [String]
    /// Who a client must run as (swaync's sway refuses root).
    public let user: SessionUser
    public let secondsToStart: Double
    public var directory: TemporaryDirectory { script.directory }
    /// Extra fields of the ready line (GNOME: `applications_dir`).
    public var ready: [String: Any] { script.ready }
    private let script: HarnessScript

    public init(_ kind: Kind) throws {
        self.kind = kind
        // A second try when the first start fails: on this 2-core machine, under the load of the other tests, GNOME
        // Shell once missed its 60 s to get ready (1.5 s alone). A second failure fails the test with its log.
        let start = {
            try HarnessScript(
                kind.script.file, name: "\(kind)", prefix: "w8-\(kind.rawValue.prefix(2))",
                arguments: kind.script.arguments, deadline: kind.startDeadline)
        }
        do {
            script = try start()
        } catch NotificationServerFixtureError.didNotStart(let what, let log) {
            print("\(kind) did not start (\(what)), trying once more; its log:\n\(log)")
            script = try start()
        }
        environment = script.ready["env"] as? [String: String] ?? [:]
        let server = script.ready["server"] as? [String: Any] ?? [:]
        serverName = server["name"] as? String ?? ""
        serverVersion = server["version"] as? String ?? ""
        capabilities = server["capabilities"] as? [String] ?? []
        secondsToStart = script.ready["seconds_to_start"] as? Double ?? 0
        user = (script.ready["user"] as? String).map { $0 == "root" } == false ? try .unprivileged() : .current
    }

    /// Sends one command and returns its answer; throws when the script says it failed.
    @discardableResult
    public func command(_ command: [String: Any], timeout: TimeInterval = 60) throws -> [String: Any] {
        try script.command(command, timeout: timeout)
    }

    /// What the server holds now, from its own state: one dictionary per notification ("id", "summary", "body",
    /// "actions", and "banner" (GNOME) or "popup").
    public func notifications() throws -> [[String: Any]] {
        try command(["cmd": "notifications"])["notifications"] as? [[String: Any]] ?? []
    }

    /// The notifications whose summary is `summary`, polled until one is there (at most `timeout` seconds).
    public func waitForNotification(
        _ summary: String, timeout: TimeInterval = 15, where extra: ([String: Any]) -> Bool = { _ in true }
    )
        throws -> [String: Any]
    {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [[String: Any]] = []
        repeat {
            last = try notifications()
            if let found = last.first(where: { $0["summary"] as? String == summary && extra($0) }) { return found }
            usleep(200_000)
        } while Date() < deadline
        throw NotificationServerFixtureError.timedOut("'\(summary)' on \(kind); it holds \(last)")
    }

    /// `NotificationClosed` and `ActionInvoked` as the server emitted them since it started.
    public func signals() throws -> [[String: Any]] {
        try command(["cmd": "signals"])["signals"] as? [[String: Any]] ?? []
    }

    /// Ends what is on screen as the server's own timeout does.
    public func expire() throws { try command(["cmd": "expire"], timeout: 30) }

    /// Presses the button of `action` on notification `id` as a person would.
    public func press(id: UInt32, action: String) throws { try command(["cmd": "press", "id": id, "action": action]) }

    /// Clicks the body of notification `id`.
    public func click(id: UInt32) throws { try command(["cmd": "click", "id": id]) }

    /// A screenshot of the whole screen, as a person sees it.
    public func screenshot(to url: URL) throws {
        try command(["cmd": "screenshot", "path": url.path])
    }

    /// Stops every process of the desktop and removes its directory.
    public func stop() { script.stop() }
}

/// A harness script of `Tests/Support` (`desktop_*.py`, `user_manager.py`): started with `--dir DIR` in a private
/// directory, it prints one JSON line when it is ready (`"ready": true`), then answers one JSON command per line of
/// its standard input with one JSON line (`"ok": true`, or false with `"error"`), and stops everything it started
/// at `quit` or at the end of its input.
public final class HarnessScript: @unchecked Sendable {
    public let name: String
    public let directory: TemporaryDirectory
    /// The ready line.
    public let ready: [String: Any]
    private let stderrDirectory: TemporaryDirectory
    private let process: Process
    private let input: FileHandle
    private let lines = LineReader()

    public init(
        _ file: String, name: String, prefix: String, arguments: [String] = [], deadline: TimeInterval = 60
    ) throws {
        self.name = name
        // Short: the sockets inside must fit in 108 bytes.
        directory = try TemporaryDirectory(prefix: prefix)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [repositoryRoot.appendingPathComponent("Tests/Support/\(file)").path, "--dir", directory.path] + arguments
        var environment = baseChildEnvironment()
        environment["HOME"] = directory.path
        // The harness reads its screenshots with GdkPixbuf, which tells image types apart through the MIME
        // database in /usr/share; the desktops it starts get environments of its own (desktop_common.py).
        environment["XDG_DATA_DIRS"] = "/usr/share"
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        // Its own stderr (a Python traceback) is one of the logs a failure to start shows; kept apart, since some
        // scripts want their directory empty.
        stderrDirectory = try TemporaryDirectory(prefix: prefix + "-err")
        let stderrPath = stderrDirectory.appending("stderr.log")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        input = stdin.fileHandleForWriting
        try process.run()
        lines.start(stdout.fileHandleForReading)
        guard let line = lines.next(timeout: deadline),
            let ready = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            process.terminate()
            throw NotificationServerFixtureError.didNotStart(
                "\(name) (\(file))", log: Self.logs(directory, stderrDirectory))
        }
        guard ready["ready"] as? Bool == true else {
            process.waitUntilExit()
            throw NotificationServerFixtureError.didNotStart(
                "\(name): \(ready["error"] as? String ?? "")",
                log: ready["log"] as? String ?? Self.logs(directory, stderrDirectory))
        }
        self.ready = ready
    }

    /// Sends one command and returns its answer; throws when the script says it failed.
    @discardableResult
    public func command(_ command: [String: Any], timeout: TimeInterval = 60) throws -> [String: Any] {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(0x0A)
        try input.write(contentsOf: line)
        guard let answer = lines.next(timeout: timeout),
            let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        else {
            throw NotificationServerFixtureError.timedOut("\(name) to answer \(command)")
        }
        guard object["ok"] as? Bool == true else {
            throw NotificationServerFixtureError.commandFailed(
                "\(name) \(command)", status: 1, stderr: object["error"] as? String ?? "\(object)")
        }
        return object
    }

    /// Stops every process the script started and removes its directory.
    public func stop() {
        if process.isRunning {
            _ = try? command(["cmd": "quit"], timeout: 20)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { process.terminate() }
        }
        directory.remove()
        stderrDirectory.remove()
    }

    deinit { stop() }

    /// The tail of every log file in the script's directories.
    static func logs(_ directories: TemporaryDirectory...) -> String {
        directories.flatMap { directory in
            let files = (FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".log") }.sorted()
            return files.map { name in
                let text = (try? String(contentsOfFile: directory.appending(name), encoding: .utf8)) ?? ""
                return "== \(name)\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
            }
        }.joined(separator: "\n")
    }
}

/// Reads lines from a pipe on a thread of its own, so that a test can wait for one with a deadline.
private final class LineReader: Sendable {
    private let state = Mutex<(lines: [String], buffer: Data, closed: Bool)>(([], Data(), false))
    private let available = DispatchSemaphore(value: 0)

    func start(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                let complete = state.withLock { state -> Int in
                    guard !data.isEmpty else {
                        state.closed = true
                        return 1
                    }
                    state.buffer.append(data)
                    var count = 0
                    while let newline = state.buffer.firstIndex(of: 0x0A) {
                        state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
                        state.buffer.removeSubrange(...newline)
                        count += 1
                    }
                    return count
                }
                for _ in 0..<complete { available.signal() }
                if data.isEmpty { return }
            }
        }
        thread.start()
    }

    /// The next line, or nil when none came within `timeout` seconds or the pipe closed.
    func next(timeout: TimeInterval) -> String? {
        guard available.wait(timeout: .now() + timeout) == .success else { return nil }
        return state.withLock { state in state.lines.isEmpty ? nil : state.lines.removeFirst() }
    }
}
