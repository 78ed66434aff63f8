import Foundation
import W8Core

/// A notification server on a private bus that advertises chosen capabilities, records every `Notify` and
/// `CloseNotification`, and presses a button on the notification that offers it
/// (`Tests/Support/button_notification_server.py`).
public final class ButtonNotificationServer {
    public let bus: PrivateSessionBus
    private let server: ChildProcess
    private let events: URL

    /// One call the server received, or one press it made.
    public struct Event: Sendable, Equatable {
        public var method: String
        public var id: UInt32
        public var summary: String?
        /// `Notify`'s actions as pairs of id and label.
        public var actions: [NotificationAction]
        public var action: String?
    }

    public var environment: [String: String] { bus.environment }

    /// - Parameters:
    ///   - capabilities: what `GetCapabilities` answers, such as `["actions", "body"]`.
    ///   - press: the action id to invoke half a second after a notification offering it is shown.
    public init(capabilities: [String], press: String? = nil) throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Support/button_notification_server.py")
        bus = try PrivateSessionBus()
        events = bus.directory.url.appendingPathComponent("server-events.jsonl")
        server = try startPythonServer(
            "button-notification-server",
            arguments: [script.path, events.path, capabilities.joined(separator: ",")] + (press.map { [$0] } ?? []),
            on: bus)
    }

    /// What the server received so far, in order.
    public func received() -> [Event] {
        let text = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let method = object["method"] as? String, let id = object["id"] as? Int
            else { return nil }
            let flat = object["actions"] as? [String] ?? []
            let actions = stride(from: 0, to: flat.count - 1, by: 2).map {
                NotificationAction(id: flat[$0], label: flat[$0 + 1])
            }
            return Event(
                method: method, id: UInt32(id), summary: object["summary"] as? String, actions: actions,
                action: object["action"] as? String)
        }
    }

    /// The server's own output, for failure messages.
    public var log: String { server.log }

    public func stop() {
        server.stop()
        bus.stop()
    }

    deinit { stop() }
}
