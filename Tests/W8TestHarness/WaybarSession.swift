import Foundation
import W8TestSupport

/// The real waybar in a headless sway, with one custom module that runs `w8 widget --format waybar` from a
/// sandbox, re-run on SIGRTMIN+`signal` as a person's config would (README). Each run of the module appends its
/// output to `marker`, so a test sees when waybar re-ran it; screenshots show the bar.
///
/// Everything runs as `SessionUser.unprivileged()`: sway refuses root, and `w8` signals only its own user's waybar
/// in its own session (the same `XDG_RUNTIME_DIR`), so two test runs on one machine leave each other's bars alone.
public final class WaybarSession {
    public let bus: PrivateSessionBus
    public let sway: SwayCompositor
    /// Every output line of the module, one per run.
    public let marker: URL
    /// The bar's height in pixels, at the top of the output.
    public static let barHeight = 32
    /// The text colours of the style: the module's class is the trend.
    public static let plainText = "#ffffff"
    public static let downText = "#7fd18b"

    /// Starts a bus and sway as the unprivileged user; `start(for:signal:)` starts waybar.
    public init() throws {
        _ = try requireExecutable("waybar", debianPackage: "waybar")
        bus = try PrivateSessionBus(user: try .unprivileged())
        do {
            sway = try SwayCompositor(bus: bus)
            marker = bus.directory.url.appendingPathComponent("module-runs.txt")
        } catch {
            bus.stop()
            throw error
        }
    }

    /// The region of a screenshot that the bar covers (`WxH+X+Y`).
    public var barRegion: String { "\(sway.width)x\(Self.barHeight)+0+0" }

    /// Starts waybar with a bar at the top holding `custom/w8`, which runs the sandbox's `w8` with its environment
    /// (`"interval": "once"`, `"signal": signal`), and waits (at most 5 s) for the module's first run.
    public func start(for sandbox: W8Sandbox, signal: Int) throws {
        let waybar = try requireExecutable("waybar", debianPackage: "waybar")
        let config = bus.directory.url.appendingPathComponent("waybar.json")
        let style = bus.directory.url.appendingPathComponent("waybar.css")
        let module: [String: Any] = [
            "exec": "\(sandbox.executable) widget --format waybar | tee -a \(marker.path)",
            "return-type": "json", "interval": "once", "signal": signal,
        ]
        let bar: [String: Any] = [
            "layer": "top", "position": "top", "height": Self.barHeight, "modules-left": ["custom/w8"],
            "custom/w8": module,
        ]
        try JSONSerialization.data(withJSONObject: bar, options: [.prettyPrinted, .sortedKeys]).write(to: config)
        try """
        * { font-family: "DejaVu Sans"; font-size: 16px; }
        window#waybar { background: #1d2733; color: \(Self.plainText); }
        #custom-w8 { padding: 0 12px; }
        #custom-w8.down { color: \(Self.downText); }

        """.write(to: style, atomically: true, encoding: .utf8)
        try bus.user.ownRecursively(bus.directory.url)
        // waybar is a GTK program: its schemas, theme and icons are in /usr/share. Its XDG_RUNTIME_DIR is the bus's,
        // as the sandbox's w8: that w8 signals this waybar and no other of the user (another test's, a person's).
        var environment = sandbox.environment
        environment["XDG_DATA_DIRS", default: ""] += ":/usr/share"
        try sway.startClient(
            name: "waybar", executable: waybar, arguments: ["-c", config.path, "-s", style.path],
            environment: environment)
        guard waitForRuns(1, timeout: 5) else {
            throw NotificationServerFixtureError.didNotStart("waybar", log: sway.clientLog("waybar"))
        }
    }

    /// What the module printed, one line per run, oldest first.
    public var runs: [String] {
        ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits at most `timeout` seconds (times `testTimeScale`) until the module has run `count` times; false if not.
    public func waitForRuns(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout * testTimeScale)
        while runs.count < count {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Screenshots (grim) until the bar shows at least 20 pixels of `textColour`, at most `timeout` seconds (waybar
    /// draws a moment after the module prints); the last one stays at `url`.
    public func screenshotShowingBar(to url: URL, textColour: String, timeout: TimeInterval = 3) throws -> Screenshot {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try sway.screenshot(to: url)
            let shot = Screenshot(url: url)
            if try shot.pixels(near: textColour, fuzzPercent: 10, region: barRegion) >= 20 || Date() >= deadline {
                return shot
            }
            usleep(100_000)
        }
    }

    public var log: String { "waybar log:\n\(sway.clientLog("waybar"))\nsway log:\n\(sway.log.suffix(2000))" }

    public func stop() {
        sway.stop()
        bus.stop()
    }

    deinit { stop() }
}
