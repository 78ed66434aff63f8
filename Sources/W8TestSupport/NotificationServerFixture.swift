import Foundation
import W8Core

/// A private D-Bus session bus with no services: nothing is D-Bus-activated on it, so no notification server
/// appears unless a fixture starts one, or unless it is given `serviceFiles` to start.
public final class PrivateSessionBus {
    /// `DBUS_SESSION_BUS_ADDRESS` of this bus.
    public let address: String
    /// A private `XDG_RUNTIME_DIR` (0700); the bus socket lives in it as `bus`.
    public let runtimeDirectory: URL
    /// Who runs the bus; only this user can connect to it.
    public let user: SessionUser
    let directory: TemporaryDirectory
    private let daemon: ChildProcess

    /// A child environment for this bus: PATH, HOME, LANG, `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`, and
    /// empty private XDG data directories. No DISPLAY.
    public var environment: [String: String] {
        var environment = baseChildEnvironment()
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["XDG_DATA_HOME"] = directory.url.appendingPathComponent("share").path
        environment["XDG_DATA_DIRS"] = directory.url.appendingPathComponent("share-system").path
        environment["XDG_CONFIG_HOME"] = directory.url.appendingPathComponent("config").path
        if user.name != nil { environment["HOME"] = directory.url.appendingPathComponent("home").path }
        return environment
    }

    /// Starts a `dbus-daemon --session`-like bus as `user`, with a config that lists no service directory, or,
    /// with `serviceFiles`, one: `$XDG_RUNTIME_DIR/dbus-1/services` of `environment`, holding copies of them, the
    /// first place `w8` looks for the servers the bus may start.
    public init(user: SessionUser = .current, serviceFiles: [URL] = []) throws {
        let executable = try requireExecutable("dbus-daemon", debianPackage: "dbus")
        self.user = user
        directory = try TemporaryDirectory(prefix: "w8-bus", owner: user)
        do {
            runtimeDirectory = try directory.subdirectory("run")
            for name in ["share", "share-system", "config", "home"] { _ = try directory.subdirectory(name) }
            var serviceDirectory: String?
            if !serviceFiles.isEmpty {
                let services = try directory.subdirectory("run/dbus-1/services")
                for file in serviceFiles {
                    try FileManager.default.copyItem(
                        at: file, to: services.appendingPathComponent(file.lastPathComponent))
                }
                try user.ownRecursively(runtimeDirectory)
                serviceDirectory = services.path
            }
            let config = directory.url.appendingPathComponent("session.conf")
            try Self.configuration(
                socket: runtimeDirectory.appendingPathComponent("bus").path, serviceDirectory: serviceDirectory
            ).write(to: config, atomically: true, encoding: .utf8)
            var daemonEnvironment = baseChildEnvironment()
            daemonEnvironment["HOME"] = directory.url.appendingPathComponent("home").path
            daemon = try ChildProcess(
                name: "dbus-daemon", executable: executable,
                arguments: ["--config-file=\(config.path)", "--nofork", "--print-address=1"],
                environment: daemonEnvironment, logDirectory: directory.url, user: user)
            address = try daemon.readLine(timeout: 5)
        } catch {
            directory.remove()
            throw error
        }
    }

    /// A session bus configuration without `<standard_session_servicedirs/>`, and at most one `<servicedir>`.
    static func configuration(socket: String, serviceDirectory: String? = nil) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
        \(serviceDirectory.map { "  <servicedir>\($0)</servicedir>\n" } ?? "")\
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// Runs `executable` on this bus as its user, with `environment` (default: the bus's own).
    func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 10
    ) throws -> CommandOutput {
        try runCommand(
            executable, arguments, environment: environment ?? self.environment, timeout: timeout, user: user)
    }

    /// Whether `name` has an owner on this bus (`org.freedesktop.DBus.NameHasOwner` through `gdbus`).
    public func hasOwner(_ name: String) throws -> Bool {
        let gdbus = try requireExecutable("gdbus", debianPackage: "libglib2.0-bin")
        let output = try run(
            gdbus,
            [
                "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", name,
            ], timeout: 5)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "gdbus NameHasOwner", status: output.status, stderr: output.stderr)
        }
        return output.stdout.contains("true")
    }

    /// Waits until `name` has an owner, at most `timeout` seconds; fails early if `child` exits.
    func waitForOwner(_ name: String, timeout: TimeInterval, child: ChildProcess) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !hasOwner(name) {
            guard child.process.isRunning else {
                throw NotificationServerFixtureError.didNotStart(child.name, log: child.log)
            }
            guard Date() < deadline else {
                throw NotificationServerFixtureError.didNotStart("\(child.name) (no owner for \(name))", log: child.log)
            }
            usleep(20_000)
        }
    }

    /// The bus's own log: what it activated, and how that ended.
    public var log: String { daemon.log }

    /// Stops the bus and removes its directory. Idempotent.
    public func stop() {
        daemon.stop()
        directory.remove()
    }

    deinit { stop() }
}

/// An environment with no session bus at all: no `DBUS_SESSION_BUS_ADDRESS`, no DISPLAY, and an empty private
/// `XDG_RUNTIME_DIR`, so GLib finds neither a bus socket nor a way to autolaunch one.
public final class NoSessionBus {
    private let directory: TemporaryDirectory

    public init() throws {
        directory = try TemporaryDirectory(prefix: "w8-nobus")
    }

    public var environment: [String: String] {
        var environment = baseChildEnvironment()
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment["XDG_DATA_HOME"] = directory.url.appendingPathComponent("share").path
        environment["XDG_DATA_DIRS"] = directory.url.appendingPathComponent("share-system").path
        return environment
    }

    deinit { directory.remove() }
}

/// A notification server that owns `org.freedesktop.Notifications` on a private bus and never answers a call
/// (`Tests/Support/hung_notification_server.py`, run by Debian's python3 with python3-dbus and python3-gi).
public final class HungNotificationServer {
    public let bus: PrivateSessionBus
    private let server: ChildProcess

    /// The private bus's environment; calls to the notification server on it block until the caller gives up.
    public var environment: [String: String] { bus.environment }

    public init() throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Support/hung_notification_server.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw NotificationServerFixtureError.didNotStart("hung notification server", log: "missing \(script.path)")
        }
        bus = try PrivateSessionBus()
        server = try startPythonServer("hung-notification-server", arguments: [script.path], on: bus)
    }

    public func stop() {
        server.stop()
        bus.stop()
    }

    /// Waits until a client's call has reached the server, which holds it unanswered; returns the method.
    public func waitForCall(timeout: TimeInterval = 10) throws -> String {
        let line = try server.readLine(timeout: timeout)
        return String(line.dropFirst("call ".count))
    }

    /// Kills the server while calls wait on it; the bus stays.
    public func killServer() {
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }

    deinit { stop() }
}

/// A notification server on a private bus that advertises chosen capabilities, records every `Notify` and
/// `CloseNotification`, and presses a button on the notification that offers it
/// (`Tests/Support/button_notification_server.py`).
public final class ButtonNotificationServer {
    public let bus: PrivateSessionBus
    private let server: ChildProcess
    private let events: URL

    /// One call the server received, or one press it made.
    public struct Event: Sendable, Equatable {
        public var method: String
        public var id: UInt32
        public var summary: String?
        /// `Notify`'s actions as pairs of id and label.
        public var actions: [NotificationAction]
        public var action: String?
    }

    public var environment: [String: String] { bus.environment }

    /// - Parameters:
    ///   - capabilities: what `GetCapabilities` answers, such as `["actions", "body"]`.
    ///   - press: the action id to invoke half a second after a notification offering it is shown.
    public init(capabilities: [String], press: String? = nil) throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Support/button_notification_server.py")
        bus = try PrivateSessionBus()
        events = bus.directory.url.appendingPathComponent("server-events.jsonl")
        server = try startPythonServer(
            "button-notification-server",
            arguments: [script.path, events.path, capabilities.joined(separator: ",")] + (press.map { [$0] } ?? []),
            on: bus)
    }

    /// What the server received so far, in order.
    public func received() -> [Event] {
        let text = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let method = object["method"] as? String, let id = object["id"] as? Int
            else { return nil }
            let flat = object["actions"] as? [String] ?? []
            let actions = stride(from: 0, to: flat.count - 1, by: 2).map {
                NotificationAction(id: flat[$0], label: flat[$0 + 1])
            }
            return Event(
                method: method, id: UInt32(id), summary: object["summary"] as? String, actions: actions,
                action: object["action"] as? String)
        }
    }

    /// The server's own output, for failure messages.
    public var log: String { server.log }

    public func stop() {
        server.stop()
        bus.stop()
    }

    deinit { stop() }
}

/// dunst on its own Xvfb display and private session bus, configured so tests can read back what it showed.
///
/// The test configuration keeps every notification (no stacking of duplicates, history of 100), shows each for
/// 600 s unless the client asks otherwise, reads markup, resolves icon names only in `themeDirectory` (which holds
/// a `w8trackr.svg` of its own, as a server's icon theme might), and writes the urgency as the first line of each
/// message so that `history()` can report it (dunst's history has no urgency field). `NotificationServerSession`
/// runs dunst with its default configuration instead.
public final class DunstSession {
    public let bus: PrivateSessionBus
    /// The X display, such as ":3".
    public let display: String
    /// `XDG_DATA_HOME` of `environment`; copy an icon to `icons/hicolor/scalable/apps/` under it to install it.
    public let dataHome: URL
    /// Where a test installs the `w8trackr` icon: `dataHome/icons/hicolor/scalable/apps`. dunst does not look here.
    public let iconDirectory: URL
    /// The only place dunst looks up icon names; it has a `w8trackr.svg` that is not the app's.
    public let themeDirectory: URL
    /// The seconds dunst shows a notification whose client asked for the server default.
    public static let defaultTimeoutSeconds: Int64 = 600

    private let xvfb: ChildProcess
    private var dunst: ChildProcess
    private let dunstctl: String
    /// Starts dunst on the bus and display, for `init` and `restartServer()`.
    private let startDunst: () throws -> ChildProcess

    /// PATH, HOME, LANG, DISPLAY, `DBUS_SESSION_BUS_ADDRESS`, a private `XDG_RUNTIME_DIR` and private XDG data
    /// directories: run a client with exactly this environment.
    public var environment: [String: String] {
        var environment = bus.environment
        environment["DISPLAY"] = display
        return environment
    }

    /// Starts Xvfb (`-displayfd` picks a free display), a private bus, and dunst, and waits (at most 5 s) until
    /// dunst owns `org.freedesktop.Notifications`.
    public init() throws {
        let xvfbPath = try requireExecutable("Xvfb", debianPackage: "xvfb")
        let dunstPath = try requireExecutable("dunst", debianPackage: "dunst")
        dunstctl = try requireExecutable("dunstctl", debianPackage: "dunst")
        _ = try requireExecutable("dbus-send", debianPackage: "dbus")  // dunstctl's own dependencies
        _ = try requireExecutable("busctl", debianPackage: "systemd")

        bus = try PrivateSessionBus()
        var started: [ChildProcess] = []
        do {
            let share = bus.environment["XDG_DATA_HOME"]!
            dataHome = URL(fileURLWithPath: share)
            iconDirectory = dataHome.appendingPathComponent("icons/hicolor/scalable/apps")
            try FileManager.default.createDirectory(at: iconDirectory, withIntermediateDirectories: true)
            themeDirectory = try bus.directory.subdirectory("server-theme")
            try Self.themeIcon.write(
                to: themeDirectory.appendingPathComponent("w8trackr.svg"), atomically: true, encoding: .utf8)

            xvfb = try ChildProcess(
                name: "Xvfb", executable: xvfbPath,
                arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                environment: baseChildEnvironment(), logDirectory: bus.directory.url)
            started.append(xvfb)
            let number = try xvfb.readLine(timeout: 5).trimmingCharacters(in: .whitespaces)
            guard Int(number) != nil else {
                throw NotificationServerFixtureError.didNotStart("Xvfb", log: "display \(number)\n" + xvfb.log)
            }
            display = ":" + number

            let config = bus.directory.url.appendingPathComponent("dunstrc")
            try Self.configuration(iconPaths: [themeDirectory.path])
                .write(to: config, atomically: true, encoding: .utf8)
            var dunstEnvironment = bus.environment
            dunstEnvironment["DISPLAY"] = display
            // gdk-pixbuf tells image formats apart with shared-mime-info's database (/usr/share/mime), as on any
            // desktop; without it dunst shows no image. dunst finds icons only through icon_path, set above.
            dunstEnvironment["XDG_DATA_DIRS", default: ""] += ":/usr/share"
            let logDirectory = bus.directory.url
            startDunst = {
                try ChildProcess(
                    name: "dunst-\(UUID().uuidString)", executable: dunstPath, arguments: ["-config", config.path],
                    environment: dunstEnvironment, logDirectory: logDirectory)
            }
            dunst = try startDunst()
            started.append(dunst)
            try bus.waitForOwner("org.freedesktop.Notifications", timeout: 5, child: dunst)
        } catch {
            for child in started.reversed() { child.stop() }
            bus.stop()
            throw error
        }
    }

    static func configuration(iconPaths: [String]) -> String {
        var text = """
            [global]
                stack_duplicates = false
                history_length = 100
                markup = full
                icon_path = \(iconPaths.joined(separator: ":"))
                max_icon_size = 32
                show_age_threshold = -1

            """
        for urgency in ["low", "normal", "critical"] {
            text += """

                [urgency_\(urgency)]
                    timeout = \(defaultTimeoutSeconds)
                    format = "\(urgency)\\n<b>%s</b>\\n%b"

                """
        }
        return text
    }

    /// A plain circle, so that dunst can resolve the name `w8trackr` from its own theme.
    static let themeIcon = """
        <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">\
        <circle cx="8" cy="8" r="7" fill="#3465a4"/></svg>
        """

    /// Every notification dunst showed, oldest first: closes all (`dunstctl close-all`), then reads
    /// `dunstctl history`. dunst lists only closed notifications in its history.
    public func history() throws -> [ShownNotification] {
        try dunstHistory(dunstctl: dunstctl, bus: bus, environment: environment)
    }

    /// The number of notifications on screen now (`dunstctl count displayed`).
    public func displayedCount() throws -> Int { try count("displayed") }

    /// The notifications on screen or waiting for room there (`dunstctl count displayed` and `count waiting`),
    /// read without closing any, unlike `history()`.
    public func onScreenCount() throws -> Int { try count("displayed") + count("waiting") }

    /// `dunstctl count queue`: displayed, waiting or history.
    func count(_ queue: String) throws -> Int {
        let output = try runCommand(dunstctl, ["count", queue], environment: environment)
        guard output.status == 0, let count = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "dunstctl count \(queue)", output: output.stdout + output.stderr)
        }
        return count
    }

    /// Saves what the screen shows now as a PNG, with imagemagick's `import -window root`.
    public func screenshot(to path: URL) throws {
        let importPath = try requireExecutable("import", debianPackage: "imagemagick")
        let output = try runCommand(importPath, ["-window", "root", path.path], environment: environment)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "import -window root", status: output.status, stderr: output.stderr)
        }
    }

    /// Kills dunst (SIGKILL: it dies, it does not quit) and starts a new one on the same bus and display, as a
    /// crashed notification server is restarted; returns once the new one owns the name.
    public func restartServer() throws {
        kill(dunst.process.processIdentifier, SIGKILL)
        dunst.process.waitUntilExit()
        dunst = try startDunst()
        try bus.waitForOwner("org.freedesktop.Notifications", timeout: 5, child: dunst)
    }

    /// dunst's log so far, for failure messages.
    public var log: String { dunst.log }

    /// Stops dunst, the bus and Xvfb. Idempotent; also runs on deinit.
    public func stop() {
        dunst.stop()
        bus.stop()
        xvfb.stop()
    }

    deinit { stop() }
}

/// What dunst showed, oldest first: `dunstctl close-all`, then `dunstctl history` (which lists closed ones only).
func dunstHistory(dunstctl: String, bus: PrivateSessionBus, environment: [String: String]) throws
    -> [ShownNotification]
{
    let closed = try bus.run(dunstctl, ["close-all"], environment: environment)
    guard closed.status == 0 else {
        throw NotificationServerFixtureError.commandFailed(
            "dunstctl close-all", status: closed.status, stderr: closed.stderr)
    }
    let output = try bus.run(dunstctl, ["history"], environment: environment)
    guard output.status == 0 else {
        throw NotificationServerFixtureError.commandFailed(
            "dunstctl history", status: output.status, stderr: output.stderr + output.stdout)
    }
    return try ShownNotification.decodeHistory(Data(output.stdout.utf8))
}

/// The checkout this file was compiled from, to find `Tests/Support`.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Starts a python3 D-Bus server script on `bus` and waits for its `ready` line; on failure the bus is stopped.
/// It runs under Debian's interpreter, which has python3-dbus; a pyenv python3 earlier on PATH may not.
func startPythonServer(_ name: String, arguments: [String], on bus: PrivateSessionBus) throws -> ChildProcess {
    do {
        let python =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? "/usr/bin/python3" : try requireExecutable("python3", debianPackage: "python3-dbus python3-gi")
        let server = try ChildProcess(
            name: name, executable: python, arguments: arguments, environment: bus.environment,
            logDirectory: bus.directory.url)
        let line = try server.readLine(timeout: 5)
        guard line == "ready" else {
            throw NotificationServerFixtureError.didNotStart(server.name, log: line + "\n" + server.log)
        }
        return server
    } catch {
        bus.stop()
        throw error
    }
}
