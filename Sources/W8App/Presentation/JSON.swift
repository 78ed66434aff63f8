import Foundation
import W8Core
import W8Formats

/// A JSON value that keeps its keys in the order the CLI contract lists them.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int64)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A weight or percentage: rounded to one decimal, or null.
    public static func decimal(_ value: Double?) -> JSON {
        value.map { .number($0.roundedToTenth) } ?? .null
    }

    /// Goal progress, cut to one decimal as every view shows it (`GoalProgress.cutPercent`), or null.
    public static func progress(_ value: Double?) -> JSON {
        value.map { .number(GoalProgress.cutPercent($0)) } ?? .null
    }

    public static func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }

    /// A setting as TOML types it.
    public static func setting(_ value: SettingValue) -> JSON {
        switch value {
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(Int64(i))
        case .string(let s): .string(s)
        }
    }

    public func rendered(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d):
            return d.roundTripText
        case .string(let s): return JSON.quote(s)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let pairs):
            if pairs.isEmpty { return "{}" }
            return "{\n"
                + pairs.map { inner + JSON.quote($0.0) + ": " + $0.1.rendered(indent: inner) }.joined(separator: ",\n")
                + "\n\(indent)}"
        }
    }

    /// On one line, for readers that take one JSON object a line (waybar).
    public var compact: String {
        switch self {
        case .array(let items): "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let pairs): "{" + pairs.map { JSON.quote($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
        default: rendered()
        }
    }

    static func quote(_ s: String) -> String { JSONText.quoted(s) }
}
