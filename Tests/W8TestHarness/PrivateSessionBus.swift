import Foundation
import W8Core
import W8TestSupport

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

    /// A child environment for this bus: `childEnvironment` in the bus's directory, `DBUS_SESSION_BUS_ADDRESS` and
    /// `XDG_RUNTIME_DIR`. No DISPLAY.
    public var environment: [String: String] {
        var environment = childEnvironment(in: directory.url)
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
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
            for name in ["data", "share-system", "config", "config-system", "home"] {
                _ = try directory.subdirectory(name)
            }
            try makeSystemDataDirectory(in: directory.url)
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
            let daemonEnvironment = childEnvironment(in: directory.url)
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
        var environment = childEnvironment(in: directory.url)
        environment["XDG_RUNTIME_DIR"] = directory.path
        return environment
    }

    deinit { directory.remove() }
}

/// The checkout this file was compiled from, to find `Tests/Support`.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
