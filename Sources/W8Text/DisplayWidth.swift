// Terminal columns of translated labels. A label padded with `padding(toLength:)` counts characters, and a Japanese,
// Korean or Chinese character takes two columns of a terminal: `w8 today` and `w8 doctor` in Japanese lost their
// value column. The widths are Unicode's East Asian Width classes W and F (UAX #11) as terminals draw them, and
// combining marks take none, as `wcwidth` says, without asking the locale.

extension Unicode.Scalar {
    /// The columns a terminal gives this scalar: 0, 1 or 2.
    var terminalColumns: Int {
        let v = value
        if v == 0x200B || (0x0300...0x036F).contains(v) || (0x1AB0...0x1AFF).contains(v)
            || (0x20D0...0x20FF).contains(v) || (0xFE00...0xFE0F).contains(v) || (0xFE20...0xFE2F).contains(v)
        {
            return 0
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension String {
    /// The columns this text takes in a terminal.
    public var terminalColumns: Int { unicodeScalars.reduce(0) { $0 + $1.terminalColumns } }

    /// This text followed by spaces up to `columns` terminal columns; a longer text is returned as it is.
    public func padded(toColumns columns: Int) -> String {
        let width = terminalColumns
        return width >= columns ? self : self + String(repeating: " ", count: columns - width)
    }
}
