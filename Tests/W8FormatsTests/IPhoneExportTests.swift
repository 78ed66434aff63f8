import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

/// The iPhone W8Trackr app's CSV and JSON export (`Tests/Fixtures/import/README.md`): units per row, dates in UTC
/// without a zone, German decimal commas, notes quoted only when needed, body fat or nothing.
@Suite struct IPhoneExportTests {
    static func entry(
        _ line: Int, _ utc: String, _ value: Double, _ unit: WeightUnit, note: String? = nil, fat: Double? = nil
    ) -> ImportRow {
        AppImportTests.entry(line, utc + "Z", value, unit, note: note, fat: fat)
    }

    /// `w8trackr-ios.csv`, an English phone: `lbs` on edited entries, one entry in kg, a note over two lines (so the
    /// last row is on line 8).
    static let english: [ImportRow] = [
        entry(2, "2026-03-28T06:45:00", 182.4, .lb),
        entry(3, "2026-03-29T06:40:00", 182.0, .lb, note: "after dinner out, salty", fat: 21.5),
        entry(4, "2026-03-30T23:30:00", 181.6, .lb, note: "late weigh-in"),
        entry(5, "2026-04-02T12:05:00", 82.3, .kg, note: "hotel scale, said \"82,3\" / Müsli", fat: 20.5),
        entry(6, "2026-04-05T05:15:00", 181.2, .lb, note: "long run\nthen breakfast", fat: 21),
        entry(8, "2026-04-06T06:00:00", 180.8, .lb, fat: 19.8),
    ]

    /// `w8trackr-ios-de.csv`, a German phone: every row has 6 fields, `79,5` unquoted.
    static let german: [ImportRow] = [
        entry(2, "2026-01-10T06:30:00", 79.5, .kg),
        entry(3, "2026-01-11T06:28:00", 79.3, .kg, note: "Urlaub, viel gegessen", fat: 22.5),
        entry(4, "2026-01-12T19:05:00", 80.0, .kg, note: "Abends"),
        entry(5, "2026-03-28T23:40:00", 79.1, .kg, note: "100", fat: 22.1),
        entry(6, "2026-03-29T06:10:00", 78.9, .kg, note: "Sommerzeit; \"neue\" Waage"),
        entry(7, "2026-03-30T06:12:00", 174.2, .lb, fat: 21.9),
    ]

    static func text(_ fixture: String) throws -> String {
        try String(contentsOf: AppExport.fixtures.appendingPathComponent(fixture), encoding: .utf8)
    }

    static func options(_ calendar: Calendar = PinnedCalendar.berlin) -> ImportOptions {
        ImportOptions(preferredUnit: .lb, now: AppImportTests.now, calendar: calendar)
    }

    /// The rows of a JSON export fed in chunks of `chunk` bytes, and the format name once read.
    static func json(_ text: String, chunk: Int = .max, calendar: Calendar = PinnedCalendar.berlin) throws
        -> ([ImportRow], String)
    {
        var stream = IPhoneExportStream(options: options(calendar))
        var rows: [ImportRow] = []
        for piece in pieces(of: text, size: chunk) { rows += try stream.feed(Array(piece)) }
        try stream.finish()
        return (rows, stream.formatName)
    }

    static func entries(_ rows: [ImportRow]) -> [WeightEntry] { DelimitedImportTests.entries(rows) }

    // The instants are UTC whatever the zone w8 runs in: the same in Berlin and New York, and in Berlin the late
    // entry of 30 March is on the 31st, in summer time.
    @Test(arguments: ["Europe/Berlin", "America/New_York"])
    func datesAreUTCInAnyZone(zone: String) throws {
        let calendar = PinnedCalendar.gregorian(zone)
        let (format, rows) = try DelimitedImportTests.rows(
            try Self.text("w8trackr-ios.csv"), options: Self.options(calendar))
        #expect(format == .w8trackrIOS)
        #expect(rows == Self.english)
        let late = try #require(Self.entries(rows).first { $0.note == "late weigh-in" })
        #expect(late.date == PinnedCalendar.berlin.date(2026, 3, 31, 1, 30))
        #expect(late.date == PinnedCalendar.newYork.date(2026, 3, 30, 19, 30))
        let json = try Self.json(try Self.text("w8trackr-ios.json"), calendar: calendar).0
        #expect(Self.entries(json) == Self.entries(Self.english))
    }

    // Each row's unit: 181.6 lbs stays 181.6 lb, never 181.6 kg; the kg entry stays kg.
    @Test func eachRowKeepsItsUnit() throws {
        let entries = Self.entries(try DelimitedImportTests.rows(try Self.text("w8trackr-ios.csv")).1)
        #expect(entries.map(\.weight.unit) == [.lb, .lb, .lb, .kg, .lb, .lb])
        #expect(entries.map(\.weight.value) == [182.4, 182.0, 181.6, 82.3, 181.2, 180.8])
    }

    // The German phone's rows have 6 fields under a header of 5: rebuilt, never 79 kg with a note of "5".
    @Test func germanRowsAreRebuilt() throws {
        let entries = Self.entries(try DelimitedImportTests.rows(try Self.text("w8trackr-ios-de.csv")).1)
        #expect(entries.count == 6)
        #expect(entries.map(\.weight.value) == [79.5, 79.3, 80.0, 79.1, 78.9, 174.2])
        #expect(entries.map(\.note) == Self.entries(Self.german).map(\.note))
    }

    // The JSON export holds the same entries as the CSV; keys of nil values are left out; it streams in any chunks.
    @Test(arguments: [Int.max, 1, 7, 64])
    func theJSONExportGivesTheSameEntriesAsTheCSV(chunk: Int) throws {
        let (rows, name) = try Self.json(try Self.text("w8trackr-ios.json"), chunk: chunk)
        #expect(name == "W8Trackr iPhone app JSON (app version 1.3)")
        #expect(Self.entries(rows) == Self.entries(Self.english))
        #expect(rows.map(AppImportTests.line) == [1, 2, 3, 4, 5, 6])
    }

    // An export of no entries (JSONEncoder writes the empty array over two lines) is read, and holds nothing.
    @Test func anEmptyExportHoldsNoRows() throws {
        let text =
            "{\n  \"appVersion\" : \"1.3\",\n  \"entries\" : [\n\n  ],\n  \"entryCount\" : 0,\n"
            + "  \"exportDate\" : \"2026-04-10T18:22:05\"\n}"
        #expect(try Self.json(text).0.isEmpty)
    }

    // A bad entry is a bad row, by its position, so --skip-invalid can import the rest.
    @Test(arguments: [
        (#"{"date":"2026-01-10T06:30:00","unit":"kg"}"#, "no weight"),
        (#"{"date":"2026-01-10T06:30:00","unit":"kg","weight":"79,5"}"#, "weight has a value of the wrong type"),
        (
            #"{"date":"2026-01-10T06:30:00","unit":"st","weight":12.5}"#,
            W8CoreError.unknownUnit("st").localizedDescription
        ),
        (
            #"{"date":"10.01.2026","unit":"kg","weight":79.5}"#,
            W8CoreError.dateInvalid("10.01.2026").localizedDescription
        ),
        (
            #"{"bodyFatPercentage":95,"date":"2026-01-10T06:30:00","unit":"kg","weight":79.5}"#,
            W8CoreError.bodyFatInvalid("95.0").localizedDescription
        ),
    ])
    func aBadEntryIsABadRow(entry: String, reason: String) throws {
        let good = #"{"date":"2026-01-11T06:30:00","unit":"kg","weight":79.3}"#
        let text = #"{"appVersion":"1.3","entries":["# + good + "," + entry + #"],"entryCount":2,"exportDate":"x"}"#
        let rows = try Self.json(text).0
        #expect(rows.count == 2)
        #expect(rows.last == .invalid(line: 2, reason: reason))
    }

    // A file that is not the app's export, or not all of it, is refused whole, saying why.
    @Test(arguments: [
        (
            #"{"appVersion":"1.3","entries":[],"entryCount":1,"exportDate":"x"}"#,
            #""entryCount" is 1 but "entries" holds 0; the file is not whole"#
        ),
        (
            #"{"format":"w8trackr-backup","entries":[]}"#,
            #""format" is not a key the app writes (appVersion, entries, entryCount, exportDate)"#
        ),
        (#"{"appVersion":"1.3","entryCount":0,"exportDate":"x"}"#, #"it has no "entries" array"#),
        (#"{"appVersion":1.3,"entries":[],"entryCount":0}"#, #""appVersion" has a value of the wrong type"#),
        (#"{"appVersion":"1.3","entries":[{"weight":1}"#, "it is not valid JSON"),
        ("[]", "it is not a JSON object"),
    ])
    func aFileThatIsNotTheExportIsRefused(text: String, reason: String) {
        #expect(throws: W8FormatsError.documentInvalid(.iPhoneExport, reason)) { try Self.json(text) }
    }

    // Read as a backup (--format w8-json), the export is refused with what it is and the format that reads it.
    @Test func readAsABackupTheExportSaysWhatItIs() throws {
        var stream = BackupStream(options: Self.options())
        let reason = "it is the iPhone W8Trackr app's export; give --format w8trackr-ios, or no --format"
        #expect(throws: W8FormatsError.documentInvalid(.backup, reason)) {
            _ = try stream.feed(Array(try Self.text("w8trackr-ios.json").utf8))
        }
    }

    // Auto-detection tells the two JSON files apart by their first key, once it has arrived.
    static let jsonStarts: [(String, ImportFormat?)] = [
        ("{\n  \"appVersion\" : \"1.3\",", .w8trackrIOS), ("\u{FEFF} {\"appVersion\"", .w8trackrIOS),
        ("{\n  \"format\": \"w8trackr-backup\"", .w8JSON), ("{\n  \"appVer", nil), ("{ ", nil),
        ("{\"entries\":[]}", .w8JSON),
    ]

    @Test(arguments: jsonStarts)
    func theFirstKeyTellsTheJSONFormat(prefix: String, format: ImportFormat?) {
        #expect(ImportFormat.jsonFormat(Array(prefix.utf8)) == format)
    }
}
