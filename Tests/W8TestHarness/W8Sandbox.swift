import Foundation
import W8TestSupport

/// What one run of the built `w8` printed and returned.
public struct W8Run: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var seconds: Double

    /// stdout parsed as JSON.
    public func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    public var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// A private home for the built `w8`: `childEnvironment` in `root` (its own XDG directories, systemd unit path,
/// locale and a pinned time zone) with `HOME` at `root`, the test's clock (`TestClock`), and by default no session bus (so no notification server);
/// `environment` can add a bus and a display.
public final class W8Sandbox: @unchecked Sendable {
    public let root: URL
    public let executable: String
    public var environment: [String: String]
    /// Who runs `w8` here; it owns `root`.
    public let user: SessionUser

    /// The `w8` built next to the running test binary, or `$W8_BIN`.
    public static func locateW8() throws -> String {
        if let path = ProcessInfo.processInfo.environment["W8_BIN"] { return path }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = me.deletingLastPathComponent().appendingPathComponent("w8").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw NotificationServerFixtureError.didNotStart("w8", log: "not found at \(path); run 'swift build' first")
        }
        return path
    }

    public init(
        timeZone: String = pinnedTimeZone, extra: [String: String] = [:], user: SessionUser = .current
    ) throws {
        self.user = user
        root = try TemporaryDirectory(prefix: "w8-cli", owner: user).url
        executable = try user.runnable(try W8Sandbox.locateW8(), in: root)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        try makeSystemDataDirectory(in: root)
        try user.ownRecursively(root)
        var env = childEnvironment(in: root, timeZone: timeZone)
        env["HOME"] = root.path
        env["XDG_RUNTIME_DIR"] = root.appendingPathComponent("run").path
        // No system bus but a test's own (`LogindStandIn`): the daemon never reads the machine's logind.
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + root.appendingPathComponent("no-system-bus").path
        // The test's clock, never the day the suite runs (TestClock); `run(clock:)` and `DaemonProcess` name
        // another.
        env.merge(try TestClock.environment()) { $1 }
        environment = env.merging(extra) { $1 }
    }

    /// A sandbox that reaches `bus` and nothing else: no DISPLAY, because `w8` must not need one. `w8` runs as the
    /// bus's user, the only one the bus admits.
    public convenience init(bus: PrivateSessionBus, timeZone: String = pinnedTimeZone, extra: [String: String] = [:])
        throws
    {
        try self.init(
            timeZone: timeZone,
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": bus.runtimeDirectory.path].merging(
                extra
            ) { $1 }, user: bus.user)
    }

    /// A sandbox whose `w8` runs as `session`'s user and reaches its bus, and finds the icons installed in its
    /// `systemDataDirectory` (like `/usr/local/share`). No DISPLAY or WAYLAND_DISPLAY: `w8` needs neither.
    public convenience init(session: NotificationServerSession, timeZone: String = pinnedTimeZone) throws {
        try self.init(
            bus: session.bus, timeZone: timeZone, extra: ["XDG_DATA_DIRS": session.systemDataDirectory.path])
    }

    /// A sandbox on a new dunst's bus, and that dunst, for the test to stop when it is done.
    public static func onNewDunst() throws -> (DunstSession, W8Sandbox) {
        let dunst = try DunstSession()
        do {
            return (dunst, try W8Sandbox(bus: dunst.bus))
        } catch {
            dunst.stop()
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Runs `w8 config KEY VALUE` for each pair, in order; throws at the first that fails, with its message.
    public func configure(_ settings: KeyValuePairs<String, String>) throws {
        for (key, value) in settings {
            let run = try run("config", key, value)
            guard run.status == 0 else {
                throw NotificationServerFixtureError.commandFailed(
                    "w8 config \(key) \(value)", status: run.status, stderr: run.stderr)
            }
        }
    }

    /// The settings of the tests of the hydration reminder's buttons: the hourly reminder on, the summary off, a
    /// 300 ml cup and a 750 ml bottle.
    public static let hydrationButtons: KeyValuePairs<String, String> = [
        "reminders.hydration": "true", "reminders.hydration_interval": "60", "summary.enabled": "false",
        "intake.cup_ml": "300", "intake.bottle_ml": "750",
    ]

    public var databasePath: String { root.appendingPathComponent("data/w8trackr/w8trackr.sqlite").path }
    public var configPath: String { root.appendingPathComponent("config/w8trackr/config.toml").path }

    @discardableResult
    public func run(_ arguments: String..., timeout: TimeInterval = 30) throws -> W8Run {
        try run(arguments, timeout: timeout)
    }

    @discardableResult
    public func run(_ arguments: [String], timeout: TimeInterval = 30) throws -> W8Run {
        let start = Date()
        let out = try runCommand(executable, arguments, environment: environment, timeout: timeout, user: user)
        return W8Run(
            status: out.status, stdout: out.stdout, stderr: out.stderr, seconds: Date().timeIntervalSince(start))
    }

    /// Runs `w8 arguments` on a fake wall clock: `clock` as `faketime -f` reads it ("@YYYY-MM-DD HH:MM:SS" starts
    /// the clock there, a bare time stands still). libfaketime is preloaded through `env`, not the `faketime`
    /// wrapper: the wrapper's semaphore in /dev/shm, left behind by a run that was killed, makes a later run that
    /// gets the same pid fail with "sem_open: File exists".
    @discardableResult
    public func run(clock: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> W8Run {
        try W8Sandbox.running(
            self, through: ["env", executable] + arguments, environment: try W8Sandbox.fakeClock(clock),
            timeout: timeout)
    }

    /// The environment that preloads libfaketime with `FAKETIME=clock`.
    public static func fakeClock(_ clock: String) throws -> [String: String] {
        let candidates = ["x86_64", "aarch64"].map { "/usr/lib/\($0)-linux-gnu/faketime/libfaketimeMT.so.1" }
        guard let library = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw NotificationServerFixtureError.missingExecutable("libfaketimeMT.so.1", debianPackage: "faketime")
        }
        return ["LD_PRELOAD": library, "FAKETIME": clock]
    }

    /// Puts a file that is no library first on the library path as `soname` (`libcairo.so.2`), so that loading
    /// that library with dlopen fails as a broken or missing install would.
    public func breakLibrary(_ soname: String) throws {
        let libraries = root.appendingPathComponent("broken-libraries")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: libraries.appendingPathComponent(soname))
        environment["LD_LIBRARY_PATH"] = libraries.path
    }

    /// Runs and parses stdout as JSON, failing on a non-zero exit.
    public func json(_ arguments: String...) throws -> Any {
        let result = try run(arguments + ["--json"])
        guard result.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "w8 \(arguments.joined(separator: " "))", status: result.status, stderr: result.stderr)
        }
        return try result.json()
    }

    /// Starts `w8` without waiting, for concurrency tests.
    public func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)
        return process
    }
}

extension W8Sandbox {
    /// Runs another program (such as `sqlite3`) with the sandbox's environment.
    /// `environment` is added to the sandbox's.
    public static func running(
        _ sandbox: W8Sandbox, through command: [String], environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> W8Run {
        let executable = try requireExecutable(command[0], debianPackage: command[0])
        let start = Date()
        let out = try runCommand(
            executable, Array(command.dropFirst()), environment: sandbox.environment.merging(environment) { $1 },
            timeout: timeout, user: sandbox.user)
        return W8Run(
            status: out.status, stdout: out.stdout, stderr: out.stderr, seconds: Date().timeIntervalSince(start))
    }
}

/// `w8 daemon` with a fake wall clock, its stderr (the event log) kept in a file.
///
/// libfaketime is preloaded and the daemon runs under `timeout --preserve-status`, which forwards SIGTERM to it
/// and exits with its status (`faketime` itself does not forward signals). A Swift binary exec'd straight with the
/// preload used to lose its arguments: see `Runtime.commandLine`.
public final class DaemonProcess: @unchecked Sendable {
    let child: ChildProcess

    /// Starts the daemon with the fake wall clock starting at `fakeStart` (`YYYY-MM-DD HH:MM:SS`, local time;
    /// libfaketime's ` xN` after it runs the clock N times faster, timers included). `wrapper` runs first and execs
    /// the rest, such as `unshare -m` for a private mount namespace.
    public init(_ sandbox: W8Sandbox, fakeStart: String, wrapper: [String] = []) throws {
        var environment = sandbox.environment.merging(try W8Sandbox.fakeClock("@\(fakeStart)")) { $1 }
        // Monotonic clocks stay real: libnotify's deadline is in real seconds even when the wall clock runs faster.
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        let timeout = try requireExecutable("timeout", debianPackage: "coreutils")
        let command = wrapper + [timeout, "--preserve-status", "300", sandbox.executable, "daemon"]
        child = try ChildProcess(
            name: "daemon-\(UUID().uuidString)", executable: command[0], arguments: Array(command.dropFirst()),
            environment: environment, logDirectory: sandbox.root, user: sandbox.user)
    }

    public var log: String { child.log }

    /// The process id of the wrapper or of `timeout`, which share the daemon's namespaces (for `nsenter -t`).
    public var processIdentifier: Int32 { child.process.processIdentifier }

    /// Waits until the log contains `text`, at most `timeout` seconds (times `testTimeScale`).
    public func waitForLog(_ text: String, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout * testTimeScale)
        while !log.contains(text) {
            guard Date() < deadline, child.process.isRunning else {
                let state = child.process.isRunning ? "running" : "exited with \(child.process.terminationStatus)"
                throw NotificationServerFixtureError.timedOut(
                    "daemon (\(state)) log never said '\(text)'; log:\n\(log)")
            }
            usleep(20_000)
        }
    }

    /// SIGTERM, then the exit status (SIGKILL after 5 s).
    @discardableResult
    public func stop() -> Int32 {
        child.stop(grace: 5)
        return child.process.terminationStatus
    }

    deinit { child.stop(grace: 1) }
}
