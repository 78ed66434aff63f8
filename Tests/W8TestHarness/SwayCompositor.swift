import Foundation

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
