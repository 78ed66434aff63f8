import Foundation
import W8Core
import W8Libnotify

/// The notification servers the tests run for real, each with the configuration its Debian package ships.
public enum NotificationServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// dunst under Xvfb, with no `-config`: it reads the package's `/etc/xdg/dunst/dunstrc`.
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

/// An X display of its own (Xvfb picks a free number with `-displayfd`).
final class XvfbDisplay {
    let display: String
    private let xvfb: ChildProcess

    init(logDirectory: URL, screen: String = "1024x768x24") throws {
        let path = try requireExecutable("Xvfb", debianPackage: "xvfb")
        xvfb = try ChildProcess(
            name: "Xvfb", executable: path, arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen],
            environment: baseChildEnvironment(), logDirectory: logDirectory)
        let number = try xvfb.readLine(timeout: 5).trimmingCharacters(in: .whitespaces)
        guard Int(number) != nil else {
            xvfb.stop()
            throw NotificationServerFixtureError.didNotStart("Xvfb", log: "display \(number)\n" + xvfb.log)
        }
        display = ":" + number
    }

    /// `import -window root` (imagemagick).
    func screenshot(to url: URL) throws {
        let importPath = try requireExecutable("import", debianPackage: "imagemagick")
        var environment = baseChildEnvironment()
        environment["DISPLAY"] = display
        let output = try runCommand(importPath, ["-window", "root", url.path], environment: environment)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "import -window root", status: output.status, stderr: output.stderr)
        }
    }

    func stop() { xvfb.stop() }
}

/// A headless sway (wlroots' headless backend, pixman renderer, no input devices) on `bus`'s user and runtime
/// directory: the Wayland desktop that mako and waybar need. sway refuses to run as root.
public final class SwayCompositor {
    /// `WAYLAND_DISPLAY`, such as "wayland-1".
    public let waylandDisplay: String
    /// The output's size in pixels.
    public let width: Int
    public let height: Int
    private let bus: PrivateSessionBus
    private let sway: ChildProcess
    private var clients: [ChildProcess] = []

    /// The background colour of the output.
    public static let background = "#203040"

    init(bus: PrivateSessionBus, width: Int = 1280, height: Int = 800) throws {
        let path = try requireExecutable("sway", debianPackage: "sway")
        _ = try requireExecutable("grim", debianPackage: "grim")
        self.bus = bus
        self.width = width
        self.height = height
        let config = bus.directory.url.appendingPathComponent("sway.conf")
        try "output HEADLESS-1 mode \(width)x\(height) bg \(Self.background) solid_color\n"
            .write(to: config, atomically: true, encoding: .utf8)
        var environment = bus.environment
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        sway = try ChildProcess(
            name: "sway", executable: path, arguments: ["-c", config.path], environment: environment,
            logDirectory: bus.directory.url, user: bus.user)
        let deadline = Date().addingTimeInterval(5)
        var socket: String?
        while socket == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: bus.runtimeDirectory.path)) ?? []
            socket = names.sorted().first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            guard socket == nil else { break }
            guard sway.process.isRunning, Date() < deadline else {
                sway.stop()
                throw NotificationServerFixtureError.didNotStart("sway (as \(bus.user))", log: sway.log)
            }
            usleep(20_000)
        }
        waylandDisplay = socket!
    }

    /// The environment of a Wayland client on this compositor.
    public var environment: [String: String] {
        var environment = bus.environment
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        return environment
    }

    /// Starts a client of the compositor as the bus's user, with `environment` plus `WAYLAND_DISPLAY` and the
    /// runtime directory; it is stopped with the compositor.
    public func startClient(
        name: String, executable: String, arguments: [String], environment: [String: String]
    ) throws {
        var environment = environment
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["XDG_RUNTIME_DIR"] = bus.runtimeDirectory.path
        clients.append(
            try ChildProcess(
                name: name, executable: executable, arguments: arguments, environment: environment,
                logDirectory: bus.directory.url, user: bus.user))
    }

    /// The log of the client started as `name`.
    public func clientLog(_ name: String) -> String { clients.first { $0.name == name }?.log ?? "" }

    /// `grim` as the compositor's user into its own directory, then copied to `url`. Retries for up to 2 s while
    /// the output is not ready yet.
    func screenshot(to url: URL) throws {
        let grim = try requireExecutable("grim", debianPackage: "grim")
        let shot = bus.directory.url.appendingPathComponent("grim-\(UUID().uuidString.prefix(8)).png")
        let deadline = Date().addingTimeInterval(2)
        while true {
            let output = try bus.run(grim, [shot.path], environment: environment)
            if output.status == 0 { break }
            guard Date() < deadline else {
                throw NotificationServerFixtureError.commandFailed("grim", status: output.status, stderr: output.stderr)
            }
            usleep(100_000)
        }
        // Copied, not moved, so that the file belongs to the user running the tests.
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: shot, to: url)
        try? FileManager.default.removeItem(at: shot)
    }

    public var log: String { sway.log }

    func stop() {
        for client in clients.reversed() { client.stop() }
        sway.stop()
    }
}

/// `busctl monitor` on a private bus: every `Notify` call to the notification server and how it was answered,
/// as the server received it. For servers with no command to list what they show.
public final class NotifyCallMonitor {
    private let process: ChildProcess
    private let output: URL

    /// Starts the monitor and waits (at most 5 s) until it sees a call made after it started.
    public init(bus: PrivateSessionBus) throws {
        let busctl = try requireExecutable("busctl", debianPackage: "systemd")
        output = bus.directory.url.appendingPathComponent("monitor.json")
        process = try ChildProcess(
            name: "busctl-monitor", executable: busctl,
            arguments: ["--address=\(bus.address)", "monitor", "--json=short"], environment: bus.environment,
            logDirectory: bus.directory.url, user: bus.user, outputFile: output)
        let marker = "w8.MonitorReady.x\(UUID().uuidString.prefix(8))"
        let deadline = Date().addingTimeInterval(5)
        while !((try? String(contentsOf: output, encoding: .utf8))?.contains(marker) ?? false) {
            guard process.process.isRunning, Date() < deadline else {
                process.stop()
                throw NotificationServerFixtureError.didNotStart("busctl monitor", log: process.log)
            }
            _ = try bus.hasOwner(marker)
            usleep(50_000)
        }
    }

    /// Every `Notify` call so far, oldest first, each with the server's answer when it has come.
    public func calls() throws -> [NotifyCall] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return try NotifyCall.decode(monitorLines: text)
    }

    /// Waits at most `timeout` seconds until there are `count` `Notify` calls, all answered, and returns every call.
    public func answeredCalls(count: Int, timeout: TimeInterval = 5) throws -> [NotifyCall] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let calls = try calls()
            if calls.count >= count, calls.allSatisfy({ $0.reply != nil }) { return calls }
            guard Date() < deadline else {
                throw NotificationServerFixtureError.timedOut("\(count) answered Notify calls; saw \(calls)")
            }
            usleep(20_000)
        }
    }

    func stop() { process.stop() }
}

/// A `Notify` call as a D-Bus monitor saw it.
public struct NotifyCall: Sendable, Equatable, CustomStringConvertible {
    public var appName: String
    public var replacesID: UInt32
    /// `app_icon`: a file path or a themed name.
    public var icon: String
    public var summary: String
    public var body: String
    /// Hints by name, their values as text ("x-w8trackr.milestone", "1").
    public var hints: [String: String]
    /// Each hint's D-Bus type ("s", "y", "x").
    public var hintTypes: [String: String] = [:]
    /// The buttons: id, label, id, label …
    public var actions: [String] = []
    public var timeout: Int32
    /// The server's answer; nil while none has come.
    public var reply: NotifyReply?

    public var description: String {
        "Notify(\(appName), icon \(icon), \(summary): \(body), hints \(hints)) → \(reply.map { "\($0)" } ?? "no answer")"
    }

    /// Reads `busctl monitor --json=short` output: one JSON message a line.
    static func decode(monitorLines text: String) throws -> [NotifyCall] {
        var calls: [(sender: String, cookie: Int, call: NotifyCall)] = []
        var replies: [String: NotifyReply] = [:]
        for line in text.split(separator: "\n") {
            guard let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = message["type"] as? String
            else { continue }
            let payload = (message["payload"] as? [String: Any])?["data"] as? [Any] ?? []
            switch type {
            case "method_call"
            where message["member"] as? String == "Notify"
                && message["interface"] as? String == "org.freedesktop.Notifications":
                guard payload.count == 8, let sender = message["sender"] as? String,
                    let cookie = (message["cookie"] as? NSNumber)?.intValue
                else {
                    throw NotificationServerFixtureError.unreadableOutput("busctl monitor", output: String(line))
                }
                let hints = (payload[6] as? [String: Any] ?? [:]).mapValues { value -> String in
                    let data = (value as? [String: Any])?["data"]
                    return data.map { "\($0)" } ?? ""
                }
                let hintTypes = (payload[6] as? [String: Any] ?? [:]).mapValues { value -> String in
                    (value as? [String: Any])?["type"] as? String ?? ""
                }
                calls.append(
                    (
                        sender, cookie,
                        NotifyCall(
                            appName: payload[0] as? String ?? "",
                            replacesID: (payload[1] as? NSNumber)?.uint32Value ?? 0,
                            icon: payload[2] as? String ?? "", summary: payload[3] as? String ?? "",
                            body: payload[4] as? String ?? "", hints: hints, hintTypes: hintTypes,
                            actions: payload[5] as? [String] ?? [], timeout: (payload[7] as? NSNumber)?.int32Value ?? 0,
                            reply: nil)
                    ))
            case "method_return", "error":
                guard let destination = message["destination"] as? String,
                    let cookie = (message["reply_cookie"] as? NSNumber)?.intValue
                else { continue }
                replies["\(destination) \(cookie)"] =
                    type == "error"
                    ? .error(name: message["error_name"] as? String ?? "", message: payload.first as? String ?? "")
                    : (payload.first as? NSNumber).map { .id($0.uint32Value) } ?? .error(name: "", message: "")
            default:
                continue
            }
        }
        return calls.map { entry in
            var call = entry.call
            call.reply = replies["\(entry.sender) \(entry.cookie)"]
            return call
        }
    }
}

/// How a notification server answered a `Notify` call.
public enum NotifyReply: Sendable, Equatable, CustomStringConvertible {
    /// The id it gave the notification.
    case id(UInt32)
    /// A D-Bus error.
    case error(name: String, message: String)

    public var id: UInt32? {
        if case .id(let id) = self { return id }
        return nil
    }

    public var description: String {
        switch self {
        case .id(let id): "id \(id)"
        case .error(let name, let message): "error \(name): \(message)"
        }
    }
}

/// A PNG of a test's screen, measured with ImageMagick.
public struct Screenshot: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The number of pixels within `fuzzPercent` of `colour` (`#rrggbb`), in `region` (`WxH+X+Y`) or everywhere.
    public func pixels(near colour: String, fuzzPercent: Int = 8, region: String? = nil) throws -> Int {
        let convert = try requireExecutable("convert", debianPackage: "imagemagick")
        let crop = region.map { ["-crop", $0, "+repage"] } ?? []
        let output = try runCommand(
            convert,
            [url.path] + crop + [
                "-alpha", "off", "-fuzz", "\(fuzzPercent)%", "-fill", "black", "+opaque", colour, "-fill", "white",
                "-opaque", colour, "-format", "%[fx:round(mean*w*h)]", "info:",
            ], environment: baseChildEnvironment())
        guard output.status == 0, let count = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "convert (count pixels)", output: output.stdout + output.stderr)
        }
        return count
    }

    /// The number of pixels that differ between `region` (`WxH+X+Y`, default all) of this screenshot and of `other`
    /// (`compare -metric AE`).
    public func differingPixels(from other: Screenshot, region: String? = nil) throws -> Int {
        let compare = try requireExecutable("compare", debianPackage: "imagemagick")
        let crop = region.map { "[\($0)]" } ?? ""
        let output = try runCommand(
            compare, ["-metric", "AE", url.path + crop, other.url.path + crop, "null:"],
            environment: baseChildEnvironment())
        // compare exits 1 when the images differ, and prints the metric on stderr.
        guard output.status <= 1, let count = Int(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "compare -metric AE", output: output.stdout + output.stderr)
        }
        return count
    }

    /// A copy of this screenshot at `url`, to compare later screens with.
    public func copy(to url: URL) throws -> Screenshot {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: self.url, to: url)
        return Screenshot(url: url)
    }

    /// The size of the PNG in bytes.
    public var bytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0
    }
}

/// Where tests keep their screenshots: `.build/screenshots/` of the checkout.
public let screenshotDirectory = repositoryRoot.appendingPathComponent(".build/screenshots")
