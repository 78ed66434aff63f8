import W8TestSupport

/// Text that other people's files and our own writers may hold: separators, quotes, blanks at either end, every
/// kind of line break, control characters, combining marks and characters beyond the BMP.
enum TrickyText {
    static let table = [
        " x ", "\tx", "x\t", "a\rb", "a\r\nb", "a\nb", "\r", "\n", "\r\n", "\"", "\"\"", "a,b", "a;b", "\\", "\\n",
        "\u{0}", "\u{1}x", "\u{7F}", "\u{8}\u{C}", "\u{1B}[31m", "\u{301}", "\"\u{301}", "é", "😀", "\u{2028}",
        "\u{FEFF}x", "#x", "'x'", "x = \"y\"", "[t]", "",
    ]
    static let pieces = table + ["a", "b", "7", " ", "ü", "中", "\u{85}"]

    /// The string's scalars: Swift's `==` on strings treats canonically equivalent ones (é and e + ◌́) as equal.
    static func scalars(_ strings: [String]) -> [[UInt32]] { strings.map { $0.unicodeScalars.map(\.value) } }

    /// A string of up to 12 pieces from the table.
    static func random(using random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
}

/// The bytes of `text` in pieces of `size` (the last shorter), as a file is read.
func pieces(of text: String, size: Int) -> [ArraySlice<UInt8>] {
    let bytes = Array(text.utf8)
    let size = min(size, max(bytes.count, 1))
    return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
}
