import Testing
import W8Core

@testable import W8Formats

@Suite struct JSONObjectStreamTests {
    static func parts(_ text: String, chunk: Int) throws -> [JSONObjectStream.Part] {
        var stream = JSONObjectStream(arrayKey: "entries")
        let bytes = Array(text.utf8)
        var parts: [JSONObjectStream.Part] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            parts += try stream.feed(Array(bytes[start..<min(start + chunk, bytes.count)]))
        }
        try stream.finish()
        return parts
    }

    static func trimmed(_ text: String) -> String { text.trimmingBlanks() }

    static func member(_ key: String, _ value: String) -> JSONObjectStream.Part {
        .member(key: Array(key.utf8), value: Array(value.utf8))
    }

    static func element(_ index: Int, _ value: String) -> JSONObjectStream.Part {
        .element(index: index, value: Array(value.utf8))
    }

    /// The parts of a document that is one array, fed `chunk` bytes at a time.
    static func arrayParts(_ text: String, chunk: Int) throws -> [JSONObjectStream.Part] {
        var stream = JSONObjectStream(topLevelArrayWithMaxValueBytes: 64)
        var parts: [JSONObjectStream.Part] = []
        for piece in pieces(of: text, size: chunk) { parts += try stream.feed(Array(piece)) }
        try stream.finish()
        return parts
    }

    // A document that is one array (Fitbit's and Garmin's exports) hands out its elements; an empty one none.
    @Test(arguments: [1, 4, 1000])
    func aTopLevelArrayHandsOutItsElements(chunk: Int) throws {
        #expect(
            try Self.arrayParts("\u{FEFF} [{\"a\" : \"],\"},\n {\"b\":[1]} ] \n", chunk: chunk) == [
                .arrayStart, Self.element(0, "{\"a\" : \"],\"}"), Self.element(1, "{\"b\":[1]}"),
            ])
        #expect(try Self.arrayParts("[]", chunk: chunk) == [.arrayStart])
    }

    // An object, text after the array, an unclosed array or a record over the limit is refused.
    @Test(arguments: ["{}", "[1] 2", "[1, 2", "[\"" + String(repeating: "x", count: 80) + "\"]"])
    func aTopLevelArrayThatIsNotOneIsRefused(text: String) {
        #expect(throws: JSONObjectStream.Malformed.self) { try Self.arrayParts(text, chunk: 3) }
    }

    @Test(arguments: [1, 3, 1000])
    func membersThenEachElementInAnyChunking(chunk: Int) throws {
        let text = """
            \u{FEFF}{"format": "w8", "s": {"a": [1, "x,]}\\"y"]}, "entries": [ {"d": "},"}, null ,[1,[2]], 3.5 ],
             "after\\"key": true }\n
            """
        #expect(
            try Self.parts(text, chunk: chunk) == [
                Self.member("format", "\"w8\""), Self.member("s", "{\"a\": [1, \"x,]}\\\"y\"]}"), .arrayStart,
                Self.element(0, "{\"d\": \"},\"}"), Self.element(1, "null"), Self.element(2, "[1,[2]]"),
                Self.element(3, "3.5"), Self.member("after\\\"key", "true"),
            ])
    }

    @Test func emptyObjectAndEmptyArray() throws {
        #expect(try Self.parts("{}", chunk: 1) == [])
        #expect(try Self.parts("{\"entries\": []}", chunk: 1) == [.arrayStart])
    }

    @Test(arguments: [
        "", "{", "{\"entries\": [1, 2", "{\"a\": 1,}", "{\"entries\": [1,]}", "{\"a\" 1}", "{\"a\": }", "{} x",
        "{\"a\": 1} {", "{\"entries\": [1] 2}", "{\"a\": \"open}",
    ])
    func malformedOrTruncatedIsRefused(text: String) {
        #expect(throws: JSONObjectStream.Malformed.self) { try Self.parts(text, chunk: 2) }
    }

    @Test(arguments: ["[1, 2]", "\"text\"", "date,weight"])
    func anotherValueIsNoObject(text: String) {
        #expect(throws: JSONObjectStream.Malformed(notAnObject: true)) { try Self.parts(text, chunk: 4) }
    }
}

/// `trimmingBlanks` skips its Unicode look-ups when both ends are ASCII and no blank: the answers stay the same.
@Suite struct TrimmingBlanksTests {
    @Test(arguments: [
        ("2015-01-01", "2015-01-01"), (" 82.5 ", "82.5"), ("\t82.5", "82.5"), ("82.5\t", "82.5"), ("", ""),
        ("   ", ""), ("\u{00A0}82\u{2003}", "82"), ("82\r\n", "82\r\n"), ("\n82", "\n82"), ("é ", "é"),
        ("2\u{301}", "2\u{301}"), ("\u{3000}a b\u{3000}", "a b"),
    ])
    func trimsOnlyBlanks(text: String, expected: String) {
        #expect(JSONObjectStreamTests.trimmed(text) == expected)
    }
}
