/// Reads ASCII digits and marks from the front of a text, for the parsers every imported row goes through:
/// a `Regex` literal is compiled again on each call, which costs more than the rest of the row.
package struct TextScanner {
    private let bytes: [UInt8]
    package private(set) var position = 0

    package init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

    package var atEnd: Bool { position == bytes.count }

    /// What is left, as text.
    package var rest: String { atEnd ? "" : String(decoding: Array(bytes[position...]), as: UTF8.self) }

    package func peek() -> UInt8? { atEnd ? nil : bytes[position] }

    /// Consumes `byte` if it comes next.
    package mutating func take(_ byte: Character) -> Bool {
        guard let next = peek(), next == byte.asciiValue else { return false }
        position += 1
        return true
    }

    /// Consumes any one of `options` and returns it.
    package mutating func take(anyOf options: String) -> UInt8? {
        guard let next = peek(), options.utf8.contains(next) else { return nil }
        position += 1
        return next
    }

    /// Between `min` and `max` digits, as their value and count; nil (consuming nothing) when fewer than `min`.
    package mutating func digits(min: Int, max: Int = .max) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while count < max, let next = peek(), next >= 48, next <= 57 {
            guard value < Int.max / 100 else { return nil }
            value = value * 10 + Int(next - 48)
            count += 1
            position += 1
        }
        guard count >= min else {
            position -= count
            return nil
        }
        return (value, count)
    }

    /// Skips blanks (spaces and tabs).
    package mutating func skipBlanks() {
        while let next = peek(), next == 32 || next == 9 { position += 1 }
    }

    /// `123`, `123.45` or `123,45`: a plain decimal number; nil when there is none.
    ///
    /// Up to 15 digits the value is the digits as a whole number divided by a power of ten: both are exact in a
    /// Double, so the one rounding of the division gives the nearest Double, as `strtod` would.
    package mutating func decimal() -> Double? {
        let start = position
        guard let whole = digits(min: 1) else { return nil }
        let wholeEnd = position
        var fraction: (value: Int, count: Int)?
        if take(anyOf: ".,") != nil {
            fraction = digits(min: 1)
            if fraction == nil { position = wholeEnd }
        }
        let count = whole.count + (fraction?.count ?? 0)
        guard count > 15 else {
            let scale = TextScanner.powersOfTen[fraction?.count ?? 0]
            return Double(whole.value * Int(scale) + (fraction?.value ?? 0)) / scale
        }
        var text = Array(bytes[start..<position])
        if let separator = text.firstIndex(of: UInt8(ascii: ",")) { text[separator] = UInt8(ascii: ".") }
        return Double(String(decoding: text, as: UTF8.self))
    }

    package static let powersOfTen: [Double] = (0...15).map { pow10($0) }

    package static func pow10(_ n: Int) -> Double { n == 0 ? 1 : 10 * pow10(n - 1) }

    /// Whether only ASCII letters are left.
    package var restIsLetters: Bool { bytes[position...].allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 } }
}

extension StringProtocol {
    /// Without the blanks (spaces, tabs and other non-newline white space) at either end; cheaper than
    /// `trimmingCharacters(in: .whitespaces)`, which goes through NSString.
    package func trimmingBlanks() -> String {
        // Most text starts and ends with an ASCII byte that is no space or tab: then neither end is blank, and the
        // Unicode property look-ups below (a cost per imported row) are not needed.
        let text = String(self)
        if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80, first != 0x20,
            first != 0x09, last != 0x20, last != 0x09
        {
            return text
        }
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" || (c.isWhitespace && !c.isNewline) }
        guard let first = firstIndex(where: { !blank($0) }) else { return "" }
        let last = lastIndex(where: { !blank($0) })!
        return String(self[first...last])
    }
}
