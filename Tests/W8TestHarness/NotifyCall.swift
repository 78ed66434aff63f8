import Foundation

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
