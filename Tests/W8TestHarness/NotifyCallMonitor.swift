import Foundation

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
