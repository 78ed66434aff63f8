import CW8Gettext

#if canImport(Glibc)
    import Glibc
#endif

/// The user's language, through gettext: the catalogs of the text domain `w8trackr`, the environment read as gettext
/// reads it (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), and the locale's names of days and months and its decimal
/// separator for human output. `bind()` reads the environment before any thread starts; no catalog is opened until
/// the first look-up, so a command that prints nothing opens none. Machine formats (JSON, CSV, the backup, config.toml) never go through here.
public enum Localization {
    /// The text domain: `share/locale/LANG/LC_MESSAGES/w8trackr.mo`.
    public static let domain = "w8trackr"

    /// `W8TRACKR_LOCALEDIR` names the catalogs' directory (the build tree's, for the tests); otherwise they are found
    /// relative to the running binary, `BIN/../share/locale`, so that a `PREFIX=~/.local` install finds its own.
    public static func catalogDirectory(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        -> String
    {
        if let given = environment("W8TRACKR_LOCALEDIR"), !given.isEmpty { return given }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/usr/share/locale" }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bin = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? ""
        return bin + "/../share/locale"
    }

    /// True inside `inEnglish`: look-ups give the English of the sources, the decimal point and English names of
    /// days and months, whatever the environment.
    @TaskLocal static var english = false

    /// `body` with every message, number and date in the English of the sources: for machine formats that carry
    /// text (`--json`'s messages, the widget's JSON), which must be byte-identical in every locale.
    public static func inEnglish<T>(_ body: () throws -> T) rethrows -> T {
        try $english.withValue(true) { try body() }
    }

    /// `body` in the user's language, inside `inEnglish` too: what a `--json` command shows people rather than
    /// scripts, its notifications and its warnings on standard error.
    public static func inUsersLanguage<T>(_ body: () throws -> T) rethrows -> T {
        try $english.withValue(false) { try body() }
    }

    /// Binds the domain once; true when the environment's locale is installed.
    static let bound: Bool = cw8_gettext_bind(domain, catalogDirectory()) == 0

    /// Reads the environment's locale and binds the domain now, loading no catalog: `w8` calls it before any thread
    /// starts, since `setlocale` is not safe while another thread may read the locale (libnotify's, a database's).
    public static func bind() { _ = bound }

    /// `msgid` in the user's language; itself when no catalog has it.
    static func lookUp(_ msgid: String) -> String {
        if english { return msgid }
        _ = bound
        return msgid.withCString { id in
            guard let found = cw8_dgettext(domain, id), found != id else { return msgid }
            return String(cString: found)
        }
    }

    /// The form of `singular`/`plural` for `count` in the user's language (English: singular for 1).
    static func lookUp(_ singular: String, _ plural: String, count: Int) -> String {
        if english { return count == 1 ? singular : plural }
        _ = bound
        return singular.withCString { one in
            plural.withCString { many in
                guard let found = cw8_dngettext(domain, one, many, UInt(clamping: count.magnitude)) else {
                    return count == 1 ? singular : plural
                }
                if found == one { return singular }
                if found == many { return plural }
                return String(cString: found)
            }
        }
    }

    /// The locale's decimal separator: "," in German, "." in English and under C.
    public static var decimalSeparator: String {
        if english { return "." }
        _ = bound
        return String(cString: cw8_decimal_separator())
    }

    /// `text`, a number written with a decimal point, with the locale's separator instead.
    public static func localDecimal(_ text: String) -> String {
        let separator = decimalSeparator
        return separator == "."
            ? text : text.split(separator: ".", omittingEmptySubsequences: false).joined(separator: separator)
    }

    /// The locale's abbreviated weekday, 1 = Sunday (Calendar's numbering); nil when its locale is not installed.
    public static func weekdayName(_ weekday: Int) -> String? {
        if english { return nil }
        _ = bound
        guard (1...7).contains(weekday), let name = cw8_time_name(Int32(weekday - 1)) else { return nil }
        return String(cString: name)
    }

    /// The locale's abbreviated month, 1 = January; nil when its locale is not installed.
    public static func monthName(_ month: Int) -> String? {
        if english { return nil }
        _ = bound
        guard (1...12).contains(month), let name = cw8_time_name(Int32(6 + month)) else { return nil }
        // Japanese pads the single-digit months for a column (" 1月"): a day in a sentence has no column.
        return String(String(cString: name).drop { $0 == " " })
    }
}

/// `msgid` translated, its `{name}` placeholders filled with `values`. `msgid` must be one string literal on one
/// line: `xgettext --keyword=tr` reads it from the source (po/README.md).
public func tr(_ msgid: StaticString, _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]) -> String {
    Placeholders.fill(Localization.lookUp(msgid.description), values)
}

/// The form of `singular` or `plural` for `count` (`ngettext`: Russian has three, Japanese one), placeholders filled.
public func trn(
    _ singular: StaticString, _ plural: StaticString, _ count: Int,
    _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]
) -> String {
    Placeholders.fill(Localization.lookUp(singular.description, plural.description, count: count), values)
}

/// `{name}` placeholders, as translators see them in the catalogs.
public enum Placeholders {
    /// `text` with each `{name}` of `values` replaced; an unknown `{name}` stays as written.
    public static func fill(_ text: String, _ values: KeyValuePairs<String, any CustomStringConvertible>) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if let value = values.first(where: { $0.key == name })?.value {
                result += value.description
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The names of the placeholders of `text`, in order: what a translation must keep.
    public static func names(_ text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
