import Foundation

/// A process named `waybar` (`Tests/Support/fake_waybar.py`) that reports the real-time signals it receives:
/// what `widget.signal` sends to the status bar. The real waybar needs a Wayland compositor, which does not run here.
public final class FakeWaybar {
    private let process: ChildProcess
    private let directory: TemporaryDirectory
    public let pid: pid_t

    public init() throws {
        directory = try TemporaryDirectory(prefix: "w8-waybar")
        let script = repositoryRoot.appendingPathComponent("Tests/Support/fake_waybar.py")
        process = try ChildProcess(
            name: "fake-waybar", executable: try requireExecutable("python3", debianPackage: "python3"),
            arguments: [script.path], environment: baseChildEnvironment(), logDirectory: directory.url)
        let line = try process.readLine(timeout: 5)
        guard line.hasPrefix("ready "), let pid = pid_t(line.dropFirst(6)) else {
            process.stop()
            throw NotificationServerFixtureError.didNotStart("fake waybar", log: line + "\n" + process.log)
        }
        self.pid = pid
    }

    /// The next signal number received, or nil when none arrives within `timeout` seconds.
    public func nextSignal(timeout: TimeInterval) -> Int32? {
        (try? process.readLine(timeout: timeout)).flatMap { Int32($0) }
    }

    public func stop() {
        process.stop()
        directory.remove()
    }

    deinit { stop() }
}
