import Foundation
import W8Core
import W8Libnotify

/// The notification servers the tests run for real, each with the configuration its Debian package ships.
public enum NotificationServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// dunst under Xvfb, with no `-config`: it reads Debian's dunstrc (committed, `Tests/Fixtures/dunst`) from the
    /// sandbox's `XDG_CONFIG_DIRS`, as it reads `/etc/xdg/dunst/dunstrc` on a desktop.
    case dunst
    /// Xfce's server under Xvfb, without xfconfd (it falls back to its defaults).
    case xfce4Notifyd = "xfce4-notifyd"
    /// GNOME's stand-alone server under Xvfb. It shows one notification at a time, about 4–5 s each.
    case notificationDaemon = "notification-daemon"
    /// mako in a headless sway, as an unprivileged user when the tests run as root (see `SessionUser`).
    case mako

    public var description: String { rawValue }

    /// The program, or a `missingExecutable` error naming its Debian package.
    func executable() throws -> String {
        switch self {
        case .dunst: return try requireExecutable("dunst", debianPackage: "dunst")
        case .mako: return try requireExecutable("mako", debianPackage: "mako-notifier")
        case .xfce4Notifyd:
            // The multiarch directory differs by architecture: /usr/lib/x86_64-linux-gnu/xfce4/notifyd/…
            let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted().map {
                "/usr/lib/\($0)/xfce4/notifyd/xfce4-notifyd"
            }
            guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
                throw NotificationServerFixtureError.missingExecutable("xfce4-notifyd", debianPackage: "xfce4-notifyd")
            }
            return path
        case .notificationDaemon:
            let path = "/usr/lib/notification-daemon/notification-daemon"
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw NotificationServerFixtureError.missingExecutable(
                    "notification-daemon", debianPackage: "notification-daemon")
            }
            return path
        }
    }
}

/// A real notification server on its own display (Xvfb, or a headless sway for mako) and private session bus,
/// with a D-Bus monitor that records every `Notify` call and its answer.
///
/// The server and its clients see `systemDataDirectory` first in `XDG_DATA_DIRS`, as a desktop sees
/// `/usr/local/share`: `installIcons()` puts the app's icons there the way `make install` does, with no
/// `index.theme`. The server's configuration is its package's default. Nothing is skipped: a missing program
/// or user fails with the package or command that provides it.
public final class NotificationServerSession {
    public let kind: NotificationServerKind
    public let bus: PrivateSessionBus
    /// Records the `Notify` calls on `bus`.
    public let monitor: NotifyCallMonitor
    /// The first of `XDG_DATA_DIRS`, standing in for `/usr/local/share`.
    public let systemDataDirectory: URL
    /// The compositor mako runs in; nil for the X11 servers.
    public let sway: SwayCompositor?
    private let xvfb: XvfbDisplay?
    private let server: ChildProcess

    /// The name a notification server owns on the bus.
    public static let busName = "org.freedesktop.Notifications"

    /// The colour of the icon's frame (`data/icons/…/w8trackr.svg`), looked for in screenshots.
    public static let iconColour = "#2e7d6b"

    /// Who runs the bus, the server and its clients.
    public var user: SessionUser { bus.user }

    /// The environment of a client on this desktop: the bus, the display, and the private XDG directories.
    public var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_DATA_DIRS"] = systemDataDirectory.path
        if let xvfb { environment["DISPLAY"] = xvfb.display }
        if let sway { environment["WAYLAND_DISPLAY"] = sway.waylandDisplay }
        return environment
    }

    /// Starts the display, the bus, the monitor and the server, and waits (at most 5 s) until the server owns
    /// `org.freedesktop.Notifications`.
    public init(_ kind: NotificationServerKind) throws {
        self.kind = kind
        let executable = try kind.executable()
        _ = try requireExecutable("gdbus", debianPackage: "libglib2.0-bin")
        let user: SessionUser = kind == .mako ? try .unprivileged() : .current
        let bus = try PrivateSessionBus(user: user)
        self.bus = bus
        var started: [() -> Void] = []
        do {
            systemDataDirectory = bus.directory.url.appendingPathComponent("share-system")
            if kind == .dunst {
                let directory = try bus.directory.subdirectory("config-system/dunst")
                try FileManager.default.copyItem(
                    at: repositoryRoot.appendingPathComponent("Tests/Fixtures/dunst/dunstrc"),
                    to: directory.appendingPathComponent("dunstrc"))
            }
            if kind == .mako {
                let sway = try SwayCompositor(bus: bus)
                started.append(sway.stop)
                self.sway = sway
                xvfb = nil
            } else {
                let xvfb = try XvfbDisplay(logDirectory: bus.directory.url)
                started.append(xvfb.stop)
                self.xvfb = xvfb
                sway = nil
            }
            let monitor = try NotifyCallMonitor(bus: bus)
            started.append(monitor.stop)
            self.monitor = monitor

            var serverEnvironment = bus.environment
            // The servers are GTK and Qt programs: their schemas, themes and the MIME database are in /usr/share.
            serverEnvironment["XDG_DATA_DIRS"] = systemDataDirectory.path + ":/usr/share"
            if let xvfb { serverEnvironment["DISPLAY"] = xvfb.display }
            if let sway { serverEnvironment["WAYLAND_DISPLAY"] = sway.waylandDisplay }
            let server = try ChildProcess(
                name: kind.rawValue, executable: executable, arguments: [], environment: serverEnvironment,
                logDirectory: bus.directory.url, user: user)
            started.append { server.stop() }
            self.server = server
            try bus.waitForOwner(Self.busName, timeout: 5, child: server)
        } catch {
            for stop in started.reversed() { stop() }
            bus.stop()
            throw error
        }
    }

    /// Copies the repository's `data/icons/hicolor` under `systemDataDirectory`, as `make install` lays it out
    /// under `/usr/local/share` (no `index.theme`), and returns the installed files.
    @discardableResult
    public func installIcons() throws -> [URL] {
        let source = repositoryRoot.appendingPathComponent("data/icons/hicolor")
        let target = systemDataDirectory.appendingPathComponent("icons/hicolor")
        let files = (FileManager.default.enumerator(atPath: source.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".png") || $0.hasSuffix(".svg") }.sorted()
        // The contents only: copyItem keeps the owner, which fails as anyone but root when root owns the checkout.
        for file in files {
            let destination = target.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: source.appendingPathComponent(file)).write(to: destination)
        }
        try user.ownRecursively(systemDataDirectory)
        return files.map { target.appendingPathComponent($0) }
    }

    /// The installed icon file a notification should carry: the 48 px PNG (see `installIcons`).
    public var installedIcon: URL {
        systemDataDirectory.appendingPathComponent("icons/hicolor/48x48/apps/w8trackr.png")
    }

    /// Runs `executable` on this desktop as its user, with `environment` (default: the client environment).
    public func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 10
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try bus.run(executable, arguments, environment: environment ?? self.environment, timeout: timeout)
        return (output.status, output.stdout, output.stderr)
    }

    /// What the server says of itself, asked directly with `gdbus` (`GetServerInformation`): name, vendor,
    /// version and spec version.
    public func serverInformation() throws -> [String] {
        let output = try notificationsCall("GetServerInformation", [])
        let fields = output.matches(of: /'([^']*)'/).map { String($0.output.1) }
        guard fields.count == 4 else {
            throw NotificationServerFixtureError.unreadableOutput("GetServerInformation", output: output)
        }
        return fields
    }

    /// Closes notification `id` through the server's `CloseNotification`.
    public func close(id: UInt32) throws {
        _ = try notificationsCall("CloseNotification", [String(id)])
    }

    private func notificationsCall(_ method: String, _ arguments: [String]) throws -> String {
        let gdbus = try requireExecutable("gdbus", debianPackage: "libglib2.0-bin")
        let output = try bus.run(
            gdbus,
            [
                "call", "--session", "--dest", Self.busName, "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.\(method)",
            ] + arguments, environment: environment, timeout: 5)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "gdbus \(method)", status: output.status, stderr: output.stderr)
        }
        return output.stdout
    }

    /// What the server shows or showed, read from the server itself: `dunstctl history` after `close-all` for
    /// dunst, `makoctl list` (what is on screen) for mako. xfce4-notifyd and notification-daemon have no such
    /// command: this returns nil, and `monitor` and the screen are what there is.
    public func shown() throws -> [ShownNotification]? {
        switch kind {
        case .dunst:
            let dunstctl = try requireExecutable("dunstctl", debianPackage: "dunst")
            return try dunstHistory(dunstctl: dunstctl, bus: bus, environment: environment)
        case .mako:
            let makoctl = try requireExecutable("makoctl", debianPackage: "mako-notifier")
            let output = try bus.run(makoctl, ["list"], environment: environment)
            guard output.status == 0 else {
                throw NotificationServerFixtureError.commandFailed(
                    "makoctl list", status: output.status, stderr: output.stderr)
            }
            return try ShownNotification.decodeMakoList(Data(output.stdout.utf8))
        case .xfce4Notifyd, .notificationDaemon:
            return nil
        }
    }

    /// Saves what the screen shows now as a PNG at `url` (`import -window root` on X11, `grim` on sway).
    @discardableResult
    public func screenshot(to url: URL) throws -> Screenshot {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)  // another user's earlier screenshot cannot be overwritten
        if let sway {
            try sway.screenshot(to: url)
        } else if let xvfb {
            try xvfb.screenshot(to: url)
        }
        return Screenshot(url: url)
    }

    /// Takes screenshots until at least `minimumPixels` pixels have the icon's colour, and the screen is no longer
    /// `previous`, or `timeout` seconds pass (servers draw a moment after they answer); the last one stays at
    /// `url`. Returns it and the pixel count.
    public func screenshotShowingIcon(
        to url: URL, changedFrom previous: Screenshot? = nil, minimumPixels: Int = 200, timeout: TimeInterval = 3
    ) throws -> (screenshot: Screenshot, iconPixels: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let shot = try screenshot(to: url)
            let pixels = try shot.pixels(near: Self.iconColour)
            let changed = try previous.map { try shot.differingPixels(from: $0) > 0 } ?? true
            if (pixels >= minimumPixels && changed) || Date() >= deadline { return (shot, pixels) }
            usleep(150_000)
        }
    }

    /// The logs of the server, the bus and the display, for failure messages.
    public var log: String {
        "\(kind) log:\n\(server.log)\nbus log:\n\(bus.log)" + (sway.map { "\nsway log:\n\($0.log.suffix(2000))" } ?? "")
    }

    /// Stops the server, the monitor, the display and the bus. Idempotent; also runs on deinit.
    public func stop() {
        server.stop()
        monitor.stop()
        sway?.stop()
        xvfb?.stop()
        bus.stop()
    }

    deinit { stop() }
}
