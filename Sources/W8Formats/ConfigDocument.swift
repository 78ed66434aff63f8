import Foundation
import W8Core
import W8Text

/// The text of `config.toml`: read into `Settings`, and edited one key at a time keeping the person's
/// comments and layout.
///
/// It reads the part of TOML a settings file needs: comments, `[tables]`, dotted keys, strings, integers
/// and booleans. Anything else is reported with its line number, never ignored.
public struct ConfigDocument: Sendable, Equatable {
    public private(set) var text: String

    public init(text: String) { self.text = text }

    /// A file with every key at its default, commented for the person who opens it.
    public static func defaultText(for settings: Settings = Settings()) -> String {
        var out = "# W8Trackr settings. Edit freely, or use `w8 config KEY VALUE`.\n"
        var table: String?
        for key in SettingKey.allCases {
            let parts = key.rawValue.split(separator: ".", maxSplits: 1).map(String.init)
            let section = parts.count == 2 ? parts[0] : nil
            if section != table, let section {
                out += "\n[\(section)]\n"
                table = section
            }
            out += "# \(key.help)\n\(parts.last!) = \(key.value(in: settings).tomlLiteral)\n"
        }
        return out
    }

    struct Line {
        var number: Int
        var table: String
        /// The full dotted key and value of a `key = value` line.
        var key: String?
        var value: SettingValue?
        var isHeader = false
    }

    /// The lines of `text`, ended by LF or CRLF. Swift reads "\r\n" as one Character, which a split on "\n"
    /// never matches: a CRLF file was one line, and a line ending in a lone "\r" became one with the "\n" a
    /// rewrite put after it (`w8 config` then wrote a file it refused; found by fuzz-config).
    static func rows(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    // The grammar's three patterns, matched by hand, Character by Character as a Regex matches them: a Regex
    // literal is compiled when first used, which was a third of a `w8 add` that reads config.toml (bench/README.md,
    // "Issue 40").

    /// `text` without the spaces and tabs around it, as `trimmingCharacters(in: .whitespaces)` trims them (Unicode's
    /// space separators, the tab and, as CoreFoundation's set has it, U+200B ZERO WIDTH SPACE, scalar by scalar),
    /// without Foundation's bridge through NSString, a quarter of reading config.toml (bench/README.md, "Issue 40").
    /// `ConfigPatternTests.trimsAsFoundationTrims` compares the two.
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        let scalars = text.unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// `[A-Za-z0-9_-]`, and `.` when `dot`.
    private static func isBare(_ character: Character, dot: Bool = false) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii | 0x20) || (48...57).contains(ascii)
            || ascii == UInt8(ascii: "_") || ascii == UInt8(ascii: "-") || (dot && ascii == UInt8(ascii: "."))
    }

    /// The name of a table header `[ NAME ] # comment` (`\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?`), else nil.
    static func tableName(_ content: String) -> String? {
        var rest = content[...]
        guard rest.popFirst() == "[" else { return nil }
        rest = rest.drop(while: \.isWhitespace)
        let name = rest.prefix { isBare($0, dot: true) }
        guard !name.isEmpty else { return nil }
        rest = rest[name.endIndex...].drop(while: \.isWhitespace)
        guard rest.popFirst() == "]" else { return nil }
        rest = rest.drop(while: \.isWhitespace)
        // A comment runs to the end of the line: `.` matches no newline (a line here may hold U+2028 or a lone CR).
        return rest.isEmpty || (rest.first == "#" && !rest.contains(where: \.isNewline)) ? String(name) : nil
    }

    /// A bare or dotted key: `[A-Za-z0-9_-]+(\s*\.\s*[A-Za-z0-9_-]+)*`.
    static func isKey(_ text: String) -> Bool {
        var rest = text[...]
        while true {
            let part = rest.prefix { isBare($0) }
            guard !part.isEmpty else { return false }
            rest = rest[part.endIndex...]
            if rest.isEmpty { return true }
            rest = rest.drop(while: \.isWhitespace)
            guard rest.popFirst() == "." else { return false }
            rest = rest.drop(while: \.isWhitespace)
        }
    }

    /// A TOML integer as settings write it: `[+-]?[0-9](_?[0-9])*`.
    static func isInteger(_ text: String) -> Bool {
        var rest = text[...]
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        var afterDigit = false
        for character in rest {
            if character.isASCII && character.isWholeNumber {
                afterDigit = true
            } else if character == "_" && afterDigit {
                afterDigit = false
            } else {
                return false
            }
        }
        return afterDigit
    }

    /// Parses every line; throws `W8FormatsError.configSyntax` naming the first bad line.
    func lines() throws -> [Line] {
        var result: [Line] = []
        var table = ""
        var seen = Set<String>()
        for (index, raw) in Self.rows(text).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> W8FormatsError { .configSyntax(line: number, message: message) }
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let content = Self.trimmed(line)
            if content.isEmpty || content.hasPrefix("#") {
                result.append(Line(number: number, table: table))
                continue
            }
            if content.hasPrefix("[") {
                guard !content.hasPrefix("[["), let name = Self.tableName(content) else {
                    throw fail(
                        // TRANSLATORS: what is wrong with a line of config.toml, after "line 3: ". {line} is the line
                        // as written; [summary] is TOML, as a settings file writes it.
                        tr("'{line}' is not a table header TOML settings use, such as [summary]", ["line": content]))
                }
                table = name
                result.append(Line(number: number, table: table, isHeader: true))
                continue
            }
            guard let eq = content.firstIndex(of: "=") else {
                // TRANSLATORS: {line} is a line of config.toml as written; 'key = value' shows the form of a setting.
                throw fail(tr("expected 'key = value', found '{line}'", ["line": content]))
            }
            let keyText = Self.trimmed(content[..<eq])
            guard Self.isKey(keyText) else {
                throw fail(tr("'{key}' is not a key", ["key": keyText]))
            }
            let leaf = keyText.split(separator: ".").map { Self.trimmed($0) }.joined(
                separator: ".")
            let key = table.isEmpty ? leaf : table + "." + leaf
            guard seen.insert(key).inserted else { throw fail(tr("key '{key}' is set twice", ["key": key])) }
            let value = try Self.value(content[content.index(after: eq)...], fail: fail)
            result.append(Line(number: number, table: table, key: key, value: value))
        }
        return result
    }

    static func value(_ text: Substring, fail: (String) -> W8FormatsError) throws -> SettingValue {
        let text = Self.trimmed(text)
        if text.isEmpty { throw fail(tr("expected a value after '='")) }
        var literal = text
        var rest = ""
        let value: SettingValue
        // Read as Unicode scalars, not Characters: a combining mark after a quote or a backslash would join it.
        let scalars = Array(text.unicodeScalars)
        if let quote = scalars.first, quote == "\"" || quote == "'" {
            var out = String.UnicodeScalarView()
            var end: Int?
            var i = 1
            while i < scalars.count {
                let c = scalars[i]
                if quote == "\"", c == "\\", i + 1 < scalars.count {
                    i += 1
                    let escape = scalars[i]
                    switch escape {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{C}")
                    case "\"", "\\": out.append(escape)
                    case "u", "U":
                        let count = escape == "u" ? 4 : 8
                        let digits = scalars.dropFirst(i + 1).prefix(count)
                        guard digits.count == count, digits.allSatisfy({ $0.properties.isASCIIHexDigit }),
                            let code = UInt32(String(String.UnicodeScalarView(digits)), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else {
                            let message = trn(
                                // TRANSLATORS: {escape} is the letter of a TOML escape (\u or \U), {count} 4 or 8,
                                // {text} the string of config.toml as written.
                                "escape '\\{escape}' needs {count} hex digit of a character in {text}",
                                "escape '\\{escape}' needs {count} hex digits of a character in {text}", count,
                                ["escape": escape, "count": count, "text": text])
                            throw fail(message)
                        }
                        out.append(scalar)
                        i += count
                    default: throw fail(tr("unknown escape '\\{escape}' in {text}", ["escape": escape, "text": text]))
                    }
                } else if quote == "\"", c == "\\" {
                    break  // a backslash at the end: the string is not closed
                } else if c == quote {
                    end = i
                    break
                } else {
                    out.append(c)
                }
                i += 1
            }
            // TRANSLATORS: {text} is a string of config.toml as written, with its opening quote.
            guard let end else { throw fail(tr("string {text} is not closed", ["text": text])) }
            value = .string(String(out))
            rest = String(String.UnicodeScalarView(scalars[(end + 1)...]))
        } else {
            if let hash = text.firstIndex(of: "#") {
                literal = Self.trimmed(text[..<hash])
                rest = String(text[hash...])
            }
            switch literal {
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            default:
                guard Self.isInteger(literal),
                    let i = Int(literal.replacingOccurrences(of: "_", with: ""))
                else {
                    let message = tr(
                        // TRANSLATORS: {value} is a value of config.toml as written; true and false are TOML, as
                        // written.
                        "'{value}' is not a value settings use: a \"string\", a whole number, true or false",
                        ["value": literal])
                    throw fail(message)
                }
                value = .integer(i)
            }
        }
        let trailing = Self.trimmed(rest)
        guard trailing.isEmpty || trailing.hasPrefix("#") else {
            throw fail(tr("unexpected '{text}' after the value", ["text": trailing]))
        }
        return value
    }

    /// The settings the file describes; keys it does not set keep their defaults.
    public func settings() throws -> Settings {
        var settings = Settings()
        for line in try lines() {
            guard let key = line.key, let value = line.value else { continue }
            guard let setting = SettingKey(rawValue: key) else {
                throw W8FormatsError.configSyntax(line: line.number, message: tr("unknown key '{key}'", ["key": key]))
            }
            do {
                try setting.apply(value, to: &settings)
            } catch let error as W8CoreError {
                throw W8FormatsError.configSyntax(line: line.number, message: error.localizedDescription)
            }
        }
        return settings
    }

    /// The document with `key` set to `value`: the line that sets it is rewritten, or a line is added to its table.
    public func setting(_ key: SettingKey, to value: SettingValue) throws -> ConfigDocument {
        let parsed = try lines()
        var rows = Self.rows(text).map(String.init)
        let parts = key.rawValue.split(separator: ".", maxSplits: 1).map(String.init)
        let table = parts.count == 2 ? parts[0] : ""
        let leaf = parts.last!
        if let line = parsed.first(where: { $0.key == key.rawValue }) {
            let row = rows[line.number - 1]
            let indent = row.prefix { $0 == " " || $0 == "\t" }
            let keyPart = Self.trimmed(row.drop { $0 == " " || $0 == "\t" }.prefix { $0 != "=" })
            rows[line.number - 1] = "\(indent)\(keyPart) = \(value.tomlLiteral)"
        } else if let last = parsed.last(where: { $0.table == table && $0.key != nil })
            ?? parsed.last(where: { $0.table == table && $0.isHeader })
        {
            rows.insert("\(leaf) = \(value.tomlLiteral)", at: last.number)
        } else if table.isEmpty {
            let firstTable = parsed.first { !$0.table.isEmpty }.map { $0.number - 1 } ?? rows.count
            rows.insert("\(leaf) = \(value.tomlLiteral)", at: firstTable)
        } else {
            if rows.last == "" { rows.removeLast() }
            rows += ["", "[\(table)]", "\(leaf) = \(value.tomlLiteral)", ""]
        }
        return ConfigDocument(text: rows.joined(separator: "\n"))
    }
}

extension SettingValue {
    /// How the value is written in TOML.
    var tomlLiteral: String {
        switch self {
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .string(let s): "\"" + Self.escaped(s) + "\""
        }
    }

    /// `text` as the inside of a TOML basic string: quotes, backslashes and every control character escaped (TOML
    /// allows none but tab raw; a raw line break would end the line).
    static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\u{8}": out.append(contentsOf: #"\b"#.unicodeScalars)
            case "\u{C}": out.append(contentsOf: #"\f"#.unicodeScalars)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
