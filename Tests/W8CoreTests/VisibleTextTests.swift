import Testing
import W8Core

/// Text from notes and files shown on a terminal: control characters escaped, the rest untouched.
@Suite struct VisibleTextTests {
    @Test(
        "Each control character is shown as an escape",
        arguments: [
            ("x\u{1B}]0;pwned\u{07}\u{1B}[2J", "x\\e]0;pwned\\a\\e[2J"),
            ("two\nlines\r\tand\u{08}", "two\\nlines\\r\\tand\\b"),
            ("nul\u{0}del\u{7F}", "nul\\x00del\\x7F"),
            ("c1 \u{85}\u{9B}31m", "c1 \\u0085\\u009B31m"),
            ("bidi \u{202E}txt.exe\u{2069} \u{2028}", "bidi \\u202Etxt.exe\\u2069 \\u2028"),
        ])
    func escapes(_ row: (String, String)) {
        #expect(row.0.visibleOnTerminal == row.1)
    }

    @Test("Printable text, non-ASCII and backslashes are left as they are")
    func leavesTextAlone() {
        for text in ["after run", "Grüße, 82,5 kg 🏃", "C:\\scale\\export", ""] {
            #expect(text.visibleOnTerminal == text)
        }
    }

    @Test func longQuotedValuesAreCutOnceShortOnesAndApostrophesKept() {
        let long = String(repeating: "7", count: 5000)
        let cut = "weight '\(long)' is not a number".withQuotedValuesCapped
        #expect(cut == "weight '\(String(repeating: "7", count: 60))…' (5000 characters) is not a number")
        #expect(cut.withQuotedValuesCapped == cut)
        let short = "weight 'can't do it' is not a number; what's that?"
        #expect(short.withQuotedValuesCapped == short)
    }
}
