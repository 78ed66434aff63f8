import Foundation
import W8Core

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

    /// Do Not Disturb on or off, as a person sets it: `dunstctl set-paused true|false`.
    public func setPaused(_ paused: Bool) throws {
        let output = try runCommand(dunstctl, ["set-paused", paused ? "true" : "false"], environment: environment)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "dunstctl set-paused \(paused)", status: output.status, stderr: output.stderr)
        }
    }

    /// `dunstctl count queue`: displayed, waiting or history.
    public func count(_ queue: String) throws -> Int {
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

    /// Saves the screen as a PNG once dunst has drawn on it (it draws a moment after it answers): screenshots
    /// every 150 ms, at most 20, until the mean brightness (ImageMagick's `identify`) is above black. False when the
    /// screen stayed black.
    public func screenshotOnceDrawn(to path: URL) throws -> Bool {
        let identify = try requireExecutable("identify", debianPackage: "imagemagick")
        for _ in 0..<20 {
            try screenshot(to: path)
            let mean = try runCommand(identify, ["-format", "%[fx:mean]", path.path], environment: environment)
            if (Double(mean.stdout) ?? 0) > 0.001 { return true }
            usleep(150_000)
        }
        return false
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
