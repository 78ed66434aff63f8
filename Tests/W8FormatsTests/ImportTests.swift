import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

@Suite struct CSVReaderTests {
    static func read(_ text: String, separator: Character = ",", comment: Character? = nil, chunk: Int = .max)
        throws -> [CSVRecord]
    {
        var reader = CSVReader(separator: separator.asciiValue!, comment: comment?.asciiValue)
        var records: [CSVRecord] = []
        for piece in pieces(of: text, size: chunk) { records += try reader.feed(piece) }
        return records + (try reader.finish())
    }

    @Test func quotedFieldsHoldSeparatorsQuotesAndLineBreaks() throws {
        let records = try Self.read("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,row")
        #expect(
            records == [
                CSVRecord(line: 1, fields: ["a", "b"]), CSVRecord(line: 2, fields: ["x, y", "say \"hi\""]),
                CSVRecord(line: 3, fields: ["two\nlines", "z"]), CSVRecord(line: 5, fields: ["last", "row"]),
            ])
    }

    @Test func byteOrderMarkAndCRLFAreDropped() throws {
        let records = try Self.read("\u{FEFF}date,weight\r\n2024-03-26,82.5\r\n\r\n2024-03-27,82.1\r\n")
        #expect(records.map(\.fields) == [["date", "weight"], ["2024-03-26", "82.5"], ["2024-03-27", "82.1"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func aLoneCarriageReturnEndsALine() throws {
        #expect(try Self.read("a,b\rc,d").map(\.fields) == [["a", "b"], ["c", "d"]])
    }

    @Test func commentLinesAreNotRecords() throws {
        let records = try Self.read("#Units:kg\n\n#date;weight\n2012-03-21;79,8\n", separator: ";", comment: "#")
        #expect(records == [CSVRecord(line: 4, fields: ["2012-03-21", "79,8"])])
    }

    @Test func blankRecordsAreSkippedAndUnquotedBlanksTrimmed() throws {
        #expect(try Self.read(" a , b \n,,\n\" c \",d").map(\.fields) == [["a", "b"], [" c ", "d"]])
    }

    // Streaming must not depend on where the chunks end: a BOM, a CRLF or a quote split across two reads.
    @Test(arguments: [1, 2, 3, 7])
    func chunkBoundariesDoNotMatter(chunk: Int) throws {
        let text = "\u{FEFF}\"h\"\"1\",h2\r\n\"x\r\ny\",2\r\n3,4"
        #expect(try Self.read(text, chunk: chunk) == Self.read(text))
        #expect(try Self.read(text).count == 3)
    }

    @Test func writerQuotesOnlyWhatNeedsIt() throws {
        let writer = CSVWriter()
        #expect(
            writer.line(["1", "plain", "a,b", "say \"x\"", "two\nlines", ""])
                == "1,plain,\"a,b\",\"say \"\"x\"\"\",\"two\nlines\",\n")
        let fields = ["a,b", "say \"x\"", "two\nlines", "", "ü"]
        #expect(try Self.read(writer.line(fields)).first?.fields == fields)
    }
}

@Suite struct DelimitedImportTests {
    static let berlin = PinnedCalendar.gregorian("Europe/Berlin")
    static let now = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!

    static func options(unit: WeightUnit? = nil, pattern: String? = nil) -> ImportOptions {
        ImportOptions(
            unit: unit, preferredUnit: .lb, datePattern: pattern.map { try! DatePattern($0) }, now: now,
            calendar: berlin)
    }

    static func rows(_ text: String, format: ImportFormat? = nil, options: ImportOptions = options(), chunk: Int = .max)
        throws -> (ImportFormat?, [ImportRow])
    {
        var reader = DelimitedImport(format: format, options: options)
        let rows = try feed(&reader, text, chunk: chunk)
        return (reader.format, rows)
    }

    /// Every row of `text`, fed to `reader` in chunks of `chunk` bytes, then finished.
    static func feed(_ reader: inout DelimitedImport, _ text: String, chunk: Int = .max) throws -> [ImportRow] {
        var rows: [ImportRow] = []
        for piece in pieces(of: text, size: chunk) { rows += try reader.feed(piece) }
        return rows + (try reader.finish())
    }

    static func entries(_ rows: [ImportRow]) -> [WeightEntry] {
        rows.compactMap { if case .entry(_, let e) = $0 { e } else { nil } }
    }

    static func date(_ text: String) -> Date { try! DateInput.parse(text, now: now, calendar: berlin) }

    @Test(arguments: [
        ("id,date,weight,unit,note,body_fat_percent\n", ImportFormat.w8CSV),
        ("\"biceps\",\"comment\",\"dateTime\",\"fat\",\"weight\"\n", .openscale),
        ("DATE,TIME,WEIGHT,BMI,BODY_FAT,COMMENT\n", .openscale),
        ("#Version:6\n#Units:kg\n\n#date;weight;weight trend;body fat;body fat trend;log\n", .libra),
        ("Date,Time,Weight,Body Fat %\n", .trendweight),
        (
            "Date,Actual Weight,Weight Is Interpolated,Trend Weight,Actual Fat %,Fat Is Interpolated,Trend Fat %\n",
            .trendweight
        ),
        ("DATE,TIME,BCM,BICEPS,BMI,COMMENT,WEIGHT\r\n", .openscale), ("#Version: 6\n#Units: kg\n", .libra),
        ("date,weight\n", .generic), ("Date;Weight (kg)\n", .generic), ("2024-03-26,82.5\n", .generic),
        ("26.03.2024;82,5\n", .generic),
    ])
    func detectsTheFormatFromItsFirstLines(text: String, format: ImportFormat) throws {
        #expect(try Self.rows(text).0 == format)
    }

    // A generic column named like one of TrendWeight's does not make the file TrendWeight's.
    @Test func oneTrendWeightLikeColumnIsStillGeneric() throws {
        let (format, rows) = try Self.rows("Date,Actual Weight\n2024-03-26,182.4\n")
        #expect(format == .generic)
        #expect(Self.entries(rows) == [WeightEntry(weight: Weight(182.4, .lb), date: Self.date("2024-03-26"))])
    }

    @Test func anUnknownHeaderIsRefusedWithTheLineQuoted() {
        #expect(throws: W8FormatsError.importFormatUnknown("name,height")) { try Self.rows("name,height\nx,1\n") }
    }

    @Test func openScaleIsKilogramsWithZeroFatMissing() throws {
        let text = """
            "comment","dateTime","fat","weight"
            "", "2021-04-18 11:51","23.4","81.3"
            "after holiday","2021-04-19 07:02","0.0","80.9"

            """
        let entries = Self.entries(try Self.rows(text).1)
        #expect(
            entries == [
                WeightEntry(weight: Weight(81.3, .kg), date: Self.date("2021-04-18T11:51"), bodyFatPercent: 23.4),
                WeightEntry(weight: Weight(80.9, .kg), date: Self.date("2021-04-19T07:02"), note: "after holiday"),
            ])
        // --unit overrides the format's default.
        let pounds = Self.entries(try Self.rows(text, options: Self.options(unit: .lb)).1)
        #expect(pounds.map(\.weight) == [Weight(81.3, .lb), Weight(80.9, .lb)])
    }

    @Test func openScale3JoinsDateAndTime() throws {
        let text = "DATE,TIME,WEIGHT,BODY_FAT,COMMENT\r\n2024-03-25,07:28:45,82.1,0,\"morning, before coffee\"\r\n"
        // 3.x writes weights in the unit chosen in the app and does not say which: kg here by --unit.
        #expect(
            Self.entries(try Self.rows(text, options: Self.options(unit: .kg)).1) == [
                WeightEntry(
                    weight: Weight(82.1, .kg), date: Self.date("2024-03-25T07:28:45"), note: "morning, before coffee")
            ])
    }

    @Test func libraReadsItsUnitsAndDecimalCommas() throws {
        let text =
            "#Units:lb\n#date;weight;weight trend;body fat;body fat trend;log\n"
            + "2012-03-22T07:40:02.000Z;179,5;179,77;21,5;21,5;new scale\n"
        #expect(
            Self.entries(try Self.rows(text).1) == [
                WeightEntry(
                    weight: Weight(179.5, .lb), date: Self.date("2012-03-22T07:40:02Z"), note: "new scale",
                    bodyFatPercent: 21.5)
            ])
        #expect(throws: W8FormatsError.importUnitConflict(file: .lb, option: .kg)) {
            try Self.rows(text, options: Self.options(unit: .kg))
        }
    }

    @Test func genericTakesTheUnitFromItsHeader() throws {
        let entries = Self.entries(try Self.rows("Date;Weight (kg)\r\n26.03.2024;82,5\r\n").1)
        #expect(entries == [WeightEntry(weight: Weight(82.5, .kg), date: Self.date("2024-03-26"))])
    }

    @Test func badRowsCarryTheirLineAndReason() throws {
        let (_, rows) = try Self.rows("date,weight\n2024-03-26,82.5\n2024-03-27,abc\n\n2024-03-29\n2999-01-01,80\n")
        #expect(rows.count == 4)
        #expect(rows[1] == .invalid(line: 3, reason: W8CoreError.weightNotANumber("abc").localizedDescription))
        #expect(rows[2] == .invalid(line: 5, reason: "no weight"))
        #expect(rows[3] == .invalid(line: 6, reason: W8CoreError.dateInFuture("2999-01-01").localizedDescription))
    }

    @Test func w8CSVRowsCarryTheirUnit() throws {
        let text = "id,date,weight,unit,note,body_fat_percent\n7,2026-11-01T07:30:00.250+01:00,81.5,kg,\"a, b\",22.5\n"
        #expect(
            Self.entries(try Self.rows(text).1) == [
                WeightEntry(
                    weight: Weight(81.5, .kg), date: Self.date("2026-11-01T07:30:00.250+01:00"), note: "a, b",
                    bodyFatPercent: 22.5)
            ])
    }

    @Test func aRequiredColumnMissingIsNamed() {
        #expect(throws: W8FormatsError.importColumnMissing(column: "weight", format: "trendweight")) {
            try Self.rows("Date,Time,Kilos\n", format: .trendweight)
        }
    }

    @Test(arguments: [1, 5, 64])
    func chunkBoundariesDoNotChangeTheRows(chunk: Int) throws {
        let text =
            "\u{FEFF}#Units:kg\r\n#date;weight;weight trend;body fat;body fat trend;log\r\n"
            + "2012-03-21T07:56:21.000Z;79,8;79,8;;;\r\n2012-03-22T07:40:02.000Z;79,5;79,77;21,5;21,5;new\r\n"
        let whole = try Self.rows(text)
        let chunked = try Self.rows(text, chunk: chunk)
        #expect(chunked.0 == .libra)
        #expect(chunked.1 == whole.1)
        #expect(Self.entries(whole.1).count == 2)
    }

    @Test func emptyInputHasNoFormatAndNoRows() throws {
        let (format, rows) = try Self.rows("\r\n  \n")
        #expect(format == nil)
        #expect(rows.isEmpty)
    }
}

@Suite struct ImportDateTests {
    static let options = DelimitedImportTests.options()

    @Test func dottedDatesAreDayMonthYear() throws {
        #expect(
            try ImportDates.parse("26.03.2024 7:05", pattern: nil, options: Self.options)
                == DelimitedImportTests.date("2024-03-26T07:05"))
    }

    @Test func slashedDatesNeedAPattern() throws {
        #expect(throws: W8FormatsError.dateAmbiguous("03/04/2024")) {
            try ImportDates.parse("03/04/2024", pattern: nil, options: Self.options)
        }
        let us = try ImportDates.parse("03/04/2024", pattern: try DatePattern("MM/DD/YYYY"), options: Self.options)
        let eu = try ImportDates.parse("03/04/2024", pattern: try DatePattern("DD/MM/YYYY"), options: Self.options)
        #expect(us == DelimitedImportTests.date("2024-03-04"))
        #expect(eu == DelimitedImportTests.date("2024-04-03"))
        #expect(throws: W8FormatsError.dateNotInPattern("2024-03-04", "MM/DD/YYYY")) {
            try ImportDates.parse("2024-03-04", pattern: try DatePattern("MM/DD/YYYY"), options: Self.options)
        }
        #expect(throws: W8CoreError.dateInvalid("02/30/2024")) {
            try ImportDates.parse("02/30/2024", pattern: try DatePattern("MM/DD/YYYY"), options: Self.options)
        }
    }

    @Test func datesBefore1900AreRefusedAsWritten() {
        #expect(throws: W8CoreError.dateTooEarly("01.01.1800 07:30")) {
            try ImportDates.parse("01.01.1800 07:30", pattern: nil, options: Self.options)
        }
        #expect(throws: W8CoreError.dateTooEarly("12/31/1899")) {
            try ImportDates.parse("12/31/1899", pattern: try DatePattern("MM/DD/YYYY"), options: Self.options)
        }
    }

    @Test(arguments: ["MM/DD", "YYYY-MM-DD-DD", "dd.mm.yyyy", "YYYYMMDDx", ""])
    func badPatternsAreRefused(text: String) {
        #expect(throws: W8FormatsError.datePatternInvalid(text)) { try DatePattern(text) }
    }

    @Test func timestampsKeepMillisecondsAndTheOffset() {
        let dates = DateFormatting(timeZone: TimeZone(identifier: "America/New_York")!)
        let date = ISO8601DateFormatter().date(from: "2026-07-01T12:00:00Z")!
        #expect(dates.timestamp(date) == "2026-07-01T08:00:00-04:00")
        #expect(dates.timestamp(date.addingTimeInterval(0.25)) == "2026-07-01T08:00:00.250-04:00")
        #expect(dates.timestamp(date.addingTimeInterval(-0.001)) == "2026-07-01T07:59:59.999-04:00")
        #expect(dates.timestamp(date) == dates.iso8601(date))
    }
}
