import Foundation
import W8Core
import W8Libnotify
import W8TestSupport

/// Runs `w8-notify-probe`, which drives `LibnotifyNotificationSink` in its own process.
///
/// libnotify and GLib read the session bus from the process environment once and keep the connection for the
/// life of the process, so each bus a test needs gets its own probe process with that environment.
/// A suite whose tests drive the probe: `try probe.run(...)` finds it, or fails the test saying how to build it.
public protocol ProbeSuite {}

extension ProbeSuite {
    public var probe: NotificationProbe {
        get throws { try NotificationProbe.locate() }
    }
}

public struct NotificationProbe: Sendable {
    public let executable: URL

    public init(executable: URL) {
        self.executable = executable
    }

    /// The probe next to the running test binary (the build's products directory), or `$W8_NOTIFY_PROBE`.
    public static func locate() throws -> NotificationProbe {
        if let path = ProcessInfo.processInfo.environment["W8_NOTIFY_PROBE"] {
            return NotificationProbe(executable: URL(fileURLWithPath: path))
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = me.deletingLastPathComponent()
        // On macOS-style bundles the binary sits in Foo.xctest/Contents/MacOS.
        if directory.path.hasSuffix("Contents/MacOS") {
            directory = directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        let probe = directory.appendingPathComponent("w8-notify-probe")
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            throw NotificationServerFixtureError.didNotStart(
                "w8-notify-probe", log: "not found at \(probe.path); build it (swift build --build-tests)")
        }
        return NotificationProbe(executable: probe)
    }

    /// One call on a sink inside the probe.
    public struct Step: Codable, Sendable {
        public enum Operation: String, Codable, Sendable { case post, close, serverInfo, waitForFile }
        public var operation: Operation
        /// Which sink instance of the probe makes the call; each index is a separate `LibnotifyNotificationSink`.
        public var sink: Int
        public var deadline: Double
        public var notification: WireNotification?
        public var id: UInt32?
        /// Use the id that an earlier step (by index) returned: as `replacesID` for a post, as the id to close.
        public var idFromStep: Int?
        /// The file a `waitForFile` step waits for, at most `deadline` seconds: the test's go-ahead.
        public var path: String?

        public static func post(
            _ notification: DesktopNotification, sink: Int = 0, deadline: Double = 2, replacingStep: Int? = nil
        ) -> Step {
            Step(
                operation: .post, sink: sink, deadline: deadline,
                notification: WireNotification(notification), idFromStep: replacingStep)
        }

        public static func close(step: Int, sink: Int = 0, deadline: Double = 2) -> Step {
            Step(operation: .close, sink: sink, deadline: deadline, idFromStep: step)
        }

        public static func close(id: UInt32, sink: Int = 0, deadline: Double = 2) -> Step {
            Step(operation: .close, sink: sink, deadline: deadline, id: id)
        }

        public static func serverInfo(deadline: Double = 2) -> Step {
            Step(operation: .serverInfo, sink: 0, deadline: deadline)
        }

        /// Waits until `path` exists (the test creates it when it has done its part on the desktop), while the
        /// sinks' libnotify thread goes on hearing the server's signals.
        public static func waitForFile(_ path: String, deadline: Double = 60) -> Step {
            Step(operation: .waitForFile, sink: 0, deadline: deadline, path: path)
        }
    }

    /// `DesktopNotification` in JSON.
    public struct WireNotification: Codable, Sendable {
        public var key, title, body, icon: String
        public var urgency: UInt8
        public var category: String
        /// "default", "never" or a number of milliseconds.
        public var expiry: String
        public var replacesID: UInt32?
        public var imagePath: String?
        public var replaceTag: String?
        public var replacesOpen: Bool?

        public init(_ notification: DesktopNotification) {
            key = notification.key
            title = notification.title
            body = notification.body
            icon = notification.icon
            urgency = notification.urgency.rawValue
            category = notification.category.rawValue
            switch notification.expiry {
            case .serverDefault: expiry = "default"
            case .never: expiry = "never"
            case .milliseconds(let milliseconds): expiry = String(milliseconds)
            }
            replacesID = notification.replacesID
            imagePath = notification.imagePath
            replaceTag = notification.replaceTag
            replacesOpen = notification.replacesOpen
        }

        public var desktopNotification: DesktopNotification {
            DesktopNotification(
                key: key, title: title, body: body, urgency: NotificationUrgency(rawValue: urgency) ?? .normal,
                category: NotificationCategory(rawValue: category) ?? .reminder, icon: icon,
                expiry: expiry == "never" ? .never : Int32(expiry).map { .milliseconds($0) } ?? .serverDefault,
                replacesID: replacesID, imagePath: imagePath, replaceTag: replaceTag,
                replacesOpen: replacesOpen ?? false)
        }
    }

    /// What one step did.
    public struct Outcome: Codable, Sendable, Equatable {
        /// The `LibnotifyError` case name: noSessionBus, noNotificationServer, serverFailedToStart, serverError or
        /// timedOut.
        public var error: String?
        public var message: String?
        public var id: UInt32?
        /// Seconds the call took inside the probe.
        public var seconds: Double
        public var serverInfo: ServerInfo?
        /// The probe's process id, and whether libnotify was loaded into it when the step ended.
        public var pid: Int32?
        public var libnotifyLoaded: Bool?

        public init(
            error: String? = nil, message: String? = nil, id: UInt32? = nil, seconds: Double,
            serverInfo: ServerInfo? = nil
        ) {
            self.error = error
            self.message = message
            self.id = id
            self.seconds = seconds
            self.serverInfo = serverInfo
        }
    }

    public typealias ServerInfo = NotificationServerInfo

    /// A finished probe run.
    public struct Run: Sendable {
        public var outcomes: [Outcome]
        /// Wall-clock seconds of the whole probe process, start to exit.
        public var seconds: Double
        public var stderr: String
    }

    /// Runs `steps` in one probe process as `user` with exactly `environment`, killing it after `timeout` seconds.
    public func run(
        _ steps: [Step], environment: [String: String], user: SessionUser = .current, timeout: TimeInterval = 60
    ) throws -> Run {
        let directory = try TemporaryDirectory(prefix: "w8-probe", owner: user)
        defer { directory.remove() }
        let input = directory.url.appendingPathComponent("steps.json")
        try JSONEncoder().encode(steps).write(to: input)
        let start = Date()
        let output = try runCommand(
            try user.runnable(executable.path, in: directory.url), [input.path], environment: environment,
            timeout: timeout, user: user)
        let seconds = Date().timeIntervalSince(start)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "w8-notify-probe", status: output.status, stderr: output.stderr)
        }
        guard let outcomes = try? JSONDecoder().decode([Outcome].self, from: Data(output.stdout.utf8)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "w8-notify-probe", output: output.stdout + output.stderr)
        }
        return Run(outcomes: outcomes, seconds: seconds, stderr: output.stderr)
    }
}

/// A probe run on a thread of its own, while the test acts on the desktop.
public final class BackgroundProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<NotificationProbe.Run, any Error>?
    private let finished = DispatchSemaphore(value: 0)

    public init(
        _ probe: NotificationProbe, _ steps: [NotificationProbe.Step], environment: [String: String],
        user: SessionUser
    ) {
        Thread { [self] in
            let outcome = Result { try probe.run(steps, environment: environment, user: user) }
            lock.withLock { result = outcome }
            finished.signal()
        }.start()
    }

    public func wait(timeout: TimeInterval) throws -> NotificationProbe.Run {
        guard finished.wait(timeout: .now() + timeout) == .success else {
            throw NotificationServerFixtureError.timedOut("w8-notify-probe")
        }
        return try lock.withLock { result! }.get()
    }
}
