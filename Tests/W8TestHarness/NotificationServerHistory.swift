import Foundation
import W8Core

/// `body` as a server that reads markup shows it: tags removed and the five XML entities decoded.
public func displayedMarkup(_ body: String) -> String {
    var text = body.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: entity, with: character)
    }
    return text
}

/// A notification as dunst recorded it in its history, or as `makoctl list` shows it.
public struct ShownNotification: Sendable, Equatable {
    public var id: UInt32
    public var appName: String
    public var summary: String
    /// The body as the client sent it, markup and entities included.
    public var body: String
    public var category: String
    /// The file dunst resolved the icon to; empty when it found none.
    public var iconPath: String
    /// From the first line of the message, which `DunstSession`'s configuration sets to the urgency.
    public var urgency: NotificationUrgency?
    /// How long dunst would show it: 0 means never expires.
    public var timeoutMicroseconds: Int64

    /// The body as a person reads it: tags removed and the five XML entities decoded.
    public var displayedBody: String { displayedMarkup(body) }

    /// The expiry that explains `timeoutMicroseconds`, given `DunstSession`'s default of 600 s.
    public var expiry: NotificationExpiry {
        switch timeoutMicroseconds {
        case 0: .never
        case DunstSession.defaultTimeoutSeconds * 1_000_000: .serverDefault
        default: .milliseconds(Int32(timeoutMicroseconds / 1000))
        }
    }

    public init(
        id: UInt32, appName: String, summary: String, body: String, category: String, iconPath: String,
        urgency: NotificationUrgency?, timeoutMicroseconds: Int64
    ) {
        self.id = id
        self.appName = appName
        self.summary = summary
        self.body = body
        self.category = category
        self.iconPath = iconPath
        self.urgency = urgency
        self.timeoutMicroseconds = timeoutMicroseconds
    }

    /// The dictionaries of a busctl JSON `aa{sv}` answer (`{"type": "aa{sv}", "data": [[{field: {type, data}}]]}`),
    /// as `dunstctl history` and `makoctl list` print it; `command` names it in the error.
    static func busctlEntries(_ json: Data, command: String) throws -> [[String: Any]] {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let outer = root["data"] as? [Any], let list = outer.first as? [[String: Any]]
        else {
            throw NotificationServerFixtureError.unreadableOutput(
                command, output: String(decoding: json, as: UTF8.self))
        }
        return list
    }

    /// The value of `key` in one busctl dictionary entry (`{key: {type, data}}`).
    static func field<T>(_ entry: [String: Any], _ key: String, as type: T.Type) -> T? {
        (entry[key] as? [String: Any])?["data"] as? T
    }

    /// The id and summary every listed notification has, or the error that names the command and its output.
    static func idAndSummary(_ entry: [String: Any], command: String, output: String) throws -> (NSNumber, String) {
        guard let id = field(entry, "id", as: NSNumber.self), let summary = field(entry, "summary", as: String.self)
        else {
            throw NotificationServerFixtureError.unreadableOutput(command, output: output)
        }
        return (id, summary)
    }

    /// Decodes `dunstctl history` (dunst 1.9: busctl JSON `{"type": "aa{sv}", "data": [[{field: {type, data}}]]}`),
    /// oldest first.
    static func decodeHistory(_ json: Data) throws -> [ShownNotification] {
        let text = String(decoding: json, as: UTF8.self)
        return try busctlEntries(json, command: "dunstctl history").map { entry in
            let (id, summary) = try idAndSummary(entry, command: "dunstctl history", output: text)
            let message = field(entry, "message", as: String.self) ?? ""
            let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            let urgency: NotificationUrgency? =
                switch firstLine {
                case "low": .low
                case "normal": .normal
                case "critical": .critical
                default: nil
                }
            return ShownNotification(
                id: id.uint32Value, appName: field(entry, "appname", as: String.self) ?? "", summary: summary,
                body: field(entry, "body", as: String.self) ?? "",
                category: field(entry, "category", as: String.self) ?? "",
                iconPath: field(entry, "icon_path", as: String.self) ?? "", urgency: urgency,
                timeoutMicroseconds: field(entry, "timeout", as: NSNumber.self)?.int64Value ?? -1)
        }
        .sorted { $0.id < $1.id }
    }

    /// Decodes `makoctl list` (mako 1.7: `{"type": "aa{sv}", "data": [[{field: {type, data}}]]}`), the
    /// notifications on screen, oldest first. mako lists no urgency or timeout, and `iconPath` is the icon as sent.
    static func decodeMakoList(_ json: Data) throws -> [ShownNotification] {
        let text = String(decoding: json, as: UTF8.self)
        return try busctlEntries(json, command: "makoctl list").map { entry in
            let (id, summary) = try idAndSummary(entry, command: "makoctl list", output: text)
            return ShownNotification(
                id: id.uint32Value, appName: field(entry, "app-name", as: String.self) ?? "", summary: summary,
                body: field(entry, "body", as: String.self) ?? "",
                category: field(entry, "category", as: String.self) ?? "",
                iconPath: field(entry, "app-icon", as: String.self) ?? "", urgency: nil, timeoutMicroseconds: -1)
        }
        .sorted { $0.id < $1.id }
    }
}
