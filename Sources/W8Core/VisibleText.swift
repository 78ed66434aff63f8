import Foundation

extension String {
    /// The text as a terminal should get it: each control character shown as a C-style escape instead of acting on
    /// the terminal, so a note cannot set the window title, clear the screen or break a row. Newline, tab and
    /// carriage return are `\n`, `\t`, `\r`; ESC is `\e`, BEL `\a`, backspace `\b`; any other C0 control and DEL
    /// are `\x01`…`\x7F`; C1 controls (U+0080–U+009F), the line and paragraph separators and the bidirectional
    /// overrides and isolates are `\u0085`, `\u202E`. Everything else, backslashes too, is left as it is. The data
    /// is never changed: JSON, CSV and the backup keep the text exactly.
    public var visibleOnTerminal: String {
        guard unicodeScalars.contains(where: String.needsEscape) else { return self }
        var visible = ""
        for scalar in unicodeScalars {
            guard String.needsEscape(scalar) else {
                visible.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x0A: visible += "\\n"
            case 0x09: visible += "\\t"
            case 0x0D: visible += "\\r"
            case 0x1B: visible += "\\e"
            case 0x07: visible += "\\a"
            case 0x08: visible += "\\b"
            case ..<0x80: visible += "\\x" + String(format: "%02X", scalar.value)
            default: visible += "\\u" + String(format: "%04X", scalar.value)
            }
        }
        return visible
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
