import Foundation

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
