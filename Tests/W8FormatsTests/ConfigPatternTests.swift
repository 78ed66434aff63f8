import Foundation
import Testing
import W8Core

@testable import W8Formats

/// The config grammar's three patterns, matched by hand (`ConfigDocument.tableName`, `isKey`, `isInteger`), against
/// the Regex literals they replaced, over seeded random lines from an alphabet of the characters that matter:
/// letters, digits, `_.-+#[]=`, spaces and tabs, other Unicode whitespace, a combining mark, CRLF and a non-ASCII
/// digit.
@Suite struct ConfigPatternTests {
    static let alphabet: [String] = [
        "a", "Z", "0", "9", "_", "-", ".", "+", "#", "[", "]", "=", " ", "\t", "\u{A0}", "\u{2003}", "\u{301}",
        "\r\n", "\u{663}", "é", "x",
    ]

    /// A xorshift generator, so that every run reads the same lines.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    static func lines(count: Int, prefix: String = "") -> [String] {
        var generator = Seeded(state: 0x9E37_79B9_7F4A_7C15)
        return (0..<count).map { _ in
            prefix
                + (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }.joined()
        }
    }

    @Test func tableHeadersAsTheRegexReadsThem() {
        let samples = Self.lines(count: 20_000, prefix: "[") + ["[summary]", "[ a.b ] # c", "[a]x", "[]", "[a] #"]
        var tested = 0
        for line in samples {
            let regex = line.wholeMatch(of: #/\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?/#).map { String($0.1) }
            #expect(ConfigDocument.tableName(line) == regex, "\(line.unicodeScalars.map(\.value))")
            if regex != nil { tested += 1 }
        }
        #expect(tested > 100, "the samples hold headers that match")
    }

    @Test func keysAsTheRegexReadsThem() {
        let samples = Self.lines(count: 20_000) + ["a", "a.b", "a . b", "a..b", ".a", "a.", "a b"]
        var matched = 0
        for key in samples {
            let regex = key.wholeMatch(of: #/[A-Za-z0-9_-]+(\s*\.\s*[A-Za-z0-9_-]+)*/#) != nil
            #expect(ConfigDocument.isKey(key) == regex, "\(key.unicodeScalars.map(\.value))")
            if regex { matched += 1 }
        }
        #expect(matched > 100)
    }

    @Test func integersAsTheRegexReadsThem() {
        var generator = Seeded(state: 42)
        let alphabet = ["0", "7", "_", "+", "-", "\u{663}", "a", " "]
        let samples =
            (0..<20_000).map { _ in
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                    .joined()
            } + ["1_000", "1__0", "_1", "1_", "+5", "-", ""]
        var matched = 0
        for literal in samples {
            let regex = literal.wholeMatch(of: #/[+-]?[0-9](_?[0-9])*/#) != nil
            #expect(ConfigDocument.isInteger(literal) == regex, "\(literal.unicodeScalars.map(\.value))")
            if regex { matched += 1 }
        }
        #expect(matched > 100)
    }

    /// `LocalTime("HH:MM")`, read by hand, against its former pattern `([0-9]{1,2}):([0-9]{2})` and ranges.
    @Test func localTimesAsTheRegexReadsThem() {
        var generator = Seeded(state: 7)
        let alphabet = ["0", "1", "2", "5", "9", ":", " ", "\u{663}", "+"]
        let samples =
            (0..<20_000).map { _ in
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                    .joined()
            } + ["8:00", "08:00", "23:59", "24:00", "7:60", "007:00", ":00", "8:0"]
        var matched = 0
        for text in samples {
            let regex = text.wholeMatch(of: #/([0-9]{1,2}):([0-9]{2})/#).flatMap { match -> Int? in
                guard let hour = Int(match.1), let minute = Int(match.2), (0...23).contains(hour),
                    (0...59).contains(minute)
                else { return nil }
                return hour * 60 + minute
            }
            #expect(LocalTime(text)?.minutes == regex, "\(text)")
            if regex != nil { matched += 1 }
        }
        #expect(matched > 30)
    }

    /// `ConfigDocument.trimmed` against Foundation's `trimmingCharacters(in: .whitespaces)`, which it replaced.
    @Test func trimsAsFoundationTrims() {
        var generator = Seeded(state: 99)
        let alphabet = [
            " ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "\u{1680}", "\u{202F}", "\r", "\u{2028}", "\u{85}", "\u{B}",
            "\u{301}", "a", "=", "#", "é", "\u{200B}", "\u{FEFF}", "😀",
        ]
        var changed = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            let foundation = text.trimmingCharacters(in: .whitespaces)
            #expect(ConfigDocument.trimmed(text) == foundation, "\(text.unicodeScalars.map(\.value))")
            if foundation != text { changed += 1 }
        }
        #expect(changed > 1_000, "the samples hold text to trim")
        // Every scalar of the Basic Multilingual Plane, alone between two letters and alone.
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let alone = String(scalar)
            #expect(ConfigDocument.trimmed(alone) == alone.trimmingCharacters(in: .whitespaces), "U+\(value)")
        }
    }
}
