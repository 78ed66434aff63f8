import W8Text

/// Who reads a line: a person, in their language and with their locale's decimal separator, or a machine format
/// (the widget's text and tooltip, a log that scripts read), in English with a point whatever the locale.
public enum Audience: Sendable {
    case person
    case machine

    /// `msgid` translated for a person, or as written for a machine; `{name}` placeholders filled either way.
    public func tr(_ msgid: StaticString, _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]) -> String
    {
        self == .person ? W8Text.tr(msgid, values) : Placeholders.fill(msgid.description, values)
    }

    /// `value` to one decimal: "82,5" for a German person, "82.5" for a machine.
    public func decimal(_ value: Double) -> String { self == .person ? value.localDecimalText : value.oneDecimalText }
}
