import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8Formats

@Suite struct CSVWriterReaderTests {
    static func read(_ text: String, chunk: Int = .max) throws -> [[String]] {
        try CSVReaderTests.read(text, chunk: chunk).map(\.fields)
    }

    @Test func blanksAtEitherEndAreQuotedAndComeBack() throws {
        let writer = CSVWriter()
        #expect(writer.line([" x ", "\tx", "x "]) == "\" x \",\"\tx\",\"x \"\n")
        #expect(try Self.read(writer.line(["1", " x ", "y"])) == [["1", " x ", "y"]])
        // First in a file, a byte-order mark of the text is no mark of the file's.
        #expect(try Self.read(writer.line(["\u{FEFF}x", "y"])).map(TrickyText.scalars) == [[[0xFEFF, 0x78], [0x79]]])
    }

    @Test(arguments: [1, 2, 5, Int.max])
    func carriageReturnsInANoteComeBackAsWritten(chunk: Int) throws {
        let fields = ["a\rb", "a\r\nb", "a\nb\r", "\r"]
        #expect(try Self.read(CSVWriter().line(fields), chunk: chunk) == [fields])
    }

    @Test func ofAFieldOverTheCapOnlyTheStartIsKeptAndTheRecordSaysSo() throws {
        var reader = CSVReader(maxFieldBytes: 8)
        let records = try reader.feed(Array("a,b\n12345678,1\n1,1234567890ü\n2,3\n".utf8)) + reader.finish()
        #expect(
            records == [
                CSVRecord(line: 1, fields: ["a", "b"]), CSVRecord(line: 2, fields: ["12345678", "1"]),
                CSVRecord(line: 3, fields: ["1", "12345678"], cutField: 1, cutCharacters: 11),
                CSVRecord(line: 4, fields: ["2", "3"]),
            ])
    }

    @Test func ofARecordOverTheCapOnlyTheStartIsKept() throws {
        var reader = CSVReader(maxFieldBytes: 8, maxRecordBytes: 20)
        let records = try reader.feed(Array("1234567,1234567,1234567,1\n".utf8))
        #expect(
            records == [
                CSVRecord(line: 1, fields: ["1234567", "1234567", "123456", ""], cutField: 2, cutCharacters: 7)
            ])
    }

    @Test func aCutFieldIsAnInvalidRowNamingItsColumn() throws {
        var reader = DelimitedImport(format: .generic, options: DelimitedImportTests.options())
        let weight = String(repeating: "9", count: CSVReader.defaultMaxFieldBytes + 5)
        let rows = try reader.feed(Array("date,weight\n2024-01-01,\(weight)\n2024-01-02,80\n".utf8)) + reader.finish()
        #expect(rows.count == 2)
        #expect(
            rows.first
                == .invalid(
                    line: 2,
                    reason:
                        "weight '\(weight.prefix(60))…' (\(weight.count) characters) is longer than any value w8 reads"
                ))
    }

    @Test func anUnclosedQuoteNamesItsLineAtTheEnd() throws {
        var reader = CSVReader()
        _ = try reader.feed(Array("date,weight\n2024-01-01,80\n\"oops,81\n2024-01-03,82\n".utf8))
        #expect(throws: W8FormatsError.csvQuoteNotClosed(line: 3)) { try reader.finish() }
        #expect(
            W8FormatsError.csvQuoteNotClosed(line: 3).localizedDescription
                == "line 3: a quote opens a field here and is not closed; a quoted value ends with \", and a quote "
                + "inside it is written twice (\"\")")
    }

    // The rest of the file is not gathered into one field: the cap stops it, naming where the quote opened.
    @Test func anUnclosedQuoteDoesNotGatherTheRestOfTheFile() throws {
        var reader = CSVReader(maxFieldBytes: 64)
        let rest = String(repeating: "2024-01-03,82\n", count: 100)
        #expect(throws: W8FormatsError.csvQuoteNotClosed(line: 2)) {
            try reader.feed(Array("date,weight\n\"2024-01-01,80\n\(rest)".utf8))
        }
    }

    @Test func theImportStopsAtAnUnclosedQuote() throws {
        var reader = DelimitedImport(format: .generic, options: DelimitedImportTests.options())
        #expect(throws: W8FormatsError.csvQuoteNotClosed(line: 3)) {
            _ = try reader.feed(Array("date,weight\n2024-01-01,80\n2024-01-02,\"81\n2024-01-03,82\n".utf8))
            _ = try reader.finish()
        }
    }

    @Test func aBackupValueOverTheCapIsRefused() throws {
        var stream = JSONObjectStream(arrayKey: "entries", maxValueBytes: 16)
        _ = try stream.feed(Array(#"{"a": "short", "entries": [{"w": 1}, "#.utf8))
        #expect(throws: JSONObjectStream.Malformed(valueTooLong: true)) {
            try stream.feed(Array(#"{"note": "much longer than sixteen bytes"}]}"#.utf8))
        }
    }

    /// Writer → reader over thousands of records of arbitrary strings, in one document, fed whole and in chunks.
    @Test func everyStringComesBackAsWritten() throws {
        var random = SeededRandom.fromEnvironment("CSV round trip")
        let writer = CSVWriter()
        var records: [[String]] = []
        for _ in 0..<3000 {
            records.append((0..<Int.random(in: 1...4, using: &random)).map { _ in TrickyText.random(using: &random) })
        }
        let text = records.map(writer.line).joined()
        // A record of empty fields is an empty line, which the reader skips.
        let expected = records.filter { $0.contains { !$0.isEmpty } }
        let expectedScalars = expected.map(TrickyText.scalars)
        let got = try Self.read(text)
        if let i = got.indices.first(where: {
            $0 < expected.count && TrickyText.scalars(got[$0]) != TrickyText.scalars(expected[$0])
        }) {
            Issue.record(
                "record \(i): wrote \(expected[i].debugDescription), read \(got[i].debugDescription) (seed \(random.seed))"
            )
        }
        #expect(try Self.read(text).map(TrickyText.scalars) == expectedScalars, "seed \(random.seed)")
        let chunk = Int.random(in: 1...9, using: &random)
        #expect(try Self.read(text, chunk: chunk).map(TrickyText.scalars) == expectedScalars, "seed \(random.seed)")
    }
}
