import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

/// One app's export as the app writes it (see `Tests/Fixtures/import/README.md`), and every row w8 reads from it.
struct AppExport: Sendable, CustomTestStringConvertible {
    var fixture: String
    var preferred: WeightUnit = .lb
    var format: ImportFormat
    var name: String
    var units: ImportUnitSource
    /// Every data row, by line.
    var rows: [ImportRow]
    /// One value to change in the file, which must change what is read.
    var change: (from: String, to: String)

    var testDescription: String { fixture }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    func text() throws -> String {
        try String(contentsOf: AppExport.fixtures.appendingPathComponent(fixture), encoding: .utf8)
    }

    /// The rows of `text` read as `w8 import` reads them, sorted by line, with the format found.
    func read(_ text: String, chunk: Int = .max) throws -> (DelimitedImport, [ImportRow]) {
        let options = ImportOptions(preferredUnit: preferred, now: AppImportTests.now, calendar: AppImportTests.berlin)
        var reader = DelimitedImport(format: nil, options: options)
        let rows = try DelimitedImportTests.feed(&reader, text, chunk: chunk)
        return (reader, rows.sorted { AppImportTests.line($0) < AppImportTests.line($1) })
    }
}

@Suite struct AppImportTests {
    static let berlin = PinnedCalendar.berlin
    static let now = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!

    static func line(_ row: ImportRow) -> Int { row.line }

    /// A weigh-in row: `at` is read as `w8 add --date` reads it, in Europe/Berlin.
    static func entry(
        _ line: Int, _ at: String, _ value: Double, _ unit: WeightUnit, note: String? = nil, fat: Double? = nil
    ) -> ImportRow {
        .entry(
            line: line,
            WeightEntry(
                weight: Weight(value, unit), date: try! DateInput.parse(at, now: now, calendar: berlin), note: note,
                bodyFatPercent: fat))
    }

    /// TrendWeight's computed view, in lb: 7 weigh-ins (fat only where it is not interpolated) and 8 interpolated
    /// days; the German download must give exactly the same.
    static let trendweightComputed: [ImportRow] = [
        entry(2, "2025-03-15", 191.7, .lb), .skipped(line: 3, .interpolated), entry(4, "2025-03-13", 192.0, .lb),
        .skipped(line: 5, .interpolated), .skipped(line: 6, .interpolated), .skipped(line: 7, .interpolated),
        entry(8, "2025-03-09", 192.8, .lb, fat: 21.8), entry(9, "2025-03-08", 193.0, .lb),
        .skipped(line: 10, .interpolated), .skipped(line: 11, .interpolated),
        entry(12, "2025-03-05", 193.3, .lb, fat: 21.9), .skipped(line: 13, .interpolated),
        .skipped(line: 14, .interpolated), entry(15, "2025-03-02", 193.9, .lb),
        entry(16, "2025-03-01", 194.2, .lb, fat: 22.1),
    ]

    static let exports: [AppExport] = [
        AppExport(
            fixture: "openscale-2.csv", format: .openscale, name: "openScale 2.x CSV", units: .app(.kg),
            rows: [
                entry(2, "2021-04-20T07:05", 80.6, .kg, fat: 23.1),
                entry(3, "2021-04-19T07:02", 80.9, .kg, note: "after holiday, \"heavy\""),
                entry(4, "2021-04-18T11:51", 81.3, .kg, fat: 23.4),
            ], change: ("55.4,80.6", "55.4,80.7")),
        AppExport(
            fixture: "openscale-2-ddmmyyyy.csv", format: .openscale, name: "openScale 2.x CSV", units: .app(.kg),
            rows: [
                entry(2, "2019-10-27T08:15", 91.2, .kg),
                entry(3, "2019-10-26T07:58", 91.6, .kg, note: "new batteries", fat: 27.9),
                entry(4, "2019-10-01T07:41", 92.4, .kg, fat: 28.3),
            ], change: ("\"26.10.2019 07:58\"", "\"25.10.2019 07:58\"")),
        AppExport(
            fixture: "openscale-3-kg.csv", preferred: .kg, format: .openscale, name: "openScale 3.x CSV",
            units: .preferred(.kg),
            rows: [
                entry(2, "2025-12-14T07:31:05.5", 82.4, .kg, fat: 24.0),
                entry(3, "2025-12-13T07:28:45.123", 82.1, .kg, note: "morning, before coffee"),
                entry(4, "2025-12-12T21:02:00", 82.9, .kg, note: "said \"late dinner\""),
                entry(5, "2025-12-10T06:59:12.25", 82.7, .kg, fat: 24.3),
            ], change: ("24.3,3.2", "24.4,3.2")),
        AppExport(
            fixture: "openscale-3-lb.csv", format: .openscale, name: "openScale 3.x CSV", units: .preferred(.lb),
            rows: [
                entry(2, "2026-06-02T06:45:31.07", 181.7, .lb, fat: 25.2),
                entry(3, "2026-06-01T06:52:10", 182.3, .lb, note: "after 5 km run"),
                entry(4, "2026-05-31T22:10:44.9", 183.6, .lb),
            ], change: ("22:10:44.9", "22:10:44.8")),
        AppExport(
            fixture: "trendweight-computed.csv", format: .trendweight, name: "TrendWeight export (computed view)",
            units: .preferred(.lb), rows: trendweightComputed, change: ("2025-03-13,192.0", "2025-03-13,192.1")),
        AppExport(
            fixture: "trendweight-computed-de.csv", format: .trendweight, name: "TrendWeight export (computed view)",
            units: .preferred(.lb), rows: trendweightComputed, change: ("2025-03-01,194,2", "2025-03-01,194,3")),
        AppExport(
            fixture: "trendweight-raw.csv", format: .trendweight, name: "TrendWeight export (raw view)",
            units: .preferred(.lb),
            rows: [
                entry(2, "2025-03-15T07:31", 191.7, .lb), entry(3, "2025-03-13T06:49", 192.0, .lb),
                entry(4, "2025-03-09T07:02", 192.8, .lb, fat: 21.8), entry(5, "2025-03-08T07:20", 193.0, .lb),
                entry(6, "2025-03-05T06:58", 193.3, .lb, fat: 21.9), entry(7, "2025-03-02T19:40", 195.3, .lb),
                entry(8, "2025-03-02T07:05", 193.9, .lb), entry(9, "2025-03-01T07:12", 194.2, .lb, fat: 22.1),
            ], change: ("07:02:00,192.8,21.8", "07:02:00,192.8,21.9")),
        AppExport(
            fixture: "libra-v5.csv", format: .libra, name: "Libra export (version 5)", units: .file(.lb),
            rows: [
                entry(5, "2019-01-07T06:12:44Z", 194.2, .lb),
                entry(6, "2019-01-08T06:05:10Z", 193.8, .lb, note: "new year, new scale", fat: 21.4),
                entry(7, "2019-01-10T07:30:02Z", 193.1, .lb),
                entry(8, "2019-03-31T05:48:55Z", 190.6, .lb, note: "first morning of summer time", fat: 21.0),
            ], change: ("new year, new scale", "new year, new scales")),
        AppExport(
            fixture: "libra-v6.csv", format: .libra, name: "Libra export (version 6)", units: .file(.kg),
            rows: [
                entry(5, "2023-10-16T05:19:20Z", 70.0, .kg, fat: 11.0),
                entry(6, "2023-10-17T05:07:48Z", 69.8, .kg, note: "slept badly", fat: 11.1),
                entry(7, "2023-10-18T04:12:51Z", 69.9, .kg, note: "travel, hotel scale"),
                entry(8, "2023-10-19T05:21:10Z", 69.1, .kg, fat: 11.0),
            ], change: (";69.8;", ";69.7;")),
        AppExport(
            fixture: "libra-placeholders.csv", format: .libra, name: "Libra export (version 5)", units: .file(.kg),
            rows: [
                .skipped(line: 5, .placeholder(of: 6)), entry(6, "2014-01-14T06:31:12Z", 84.2, .kg),
                entry(7, "2014-01-15T06:28:40Z", 84.0, .kg), .skipped(line: 8, .placeholder(of: 9)),
                entry(9, "2014-01-16T06:40:02Z", 83.9, .kg, note: "after the holidays"),
                entry(10, "2014-01-16T23:00:00Z", 83.7, .kg), entry(11, "2014-01-17T23:00:00Z", 83.8, .kg),
                entry(12, "2014-01-18T07:02:19Z", 83.5, .kg), .skipped(line: 13, .placeholder(of: 14)),
                entry(14, "2014-07-02T05:55:00Z", 82.5, .kg),
            ], change: ("07:02:19.000Z;83.5", "07:02:19.000Z;83.4")),
        AppExport(
            fixture: "w8trackr-ios.csv", format: .w8trackrIOS, name: "W8Trackr iPhone app CSV", units: .rows,
            rows: IPhoneExportTests.english, change: ("181.6,lbs", "181.7,lbs")),
        AppExport(
            fixture: "w8trackr-ios-de.csv", preferred: .kg, format: .w8trackrIOS, name: "W8Trackr iPhone app CSV",
            units: .rows, rows: IPhoneExportTests.german, change: ("79,3,kg", "79,4,kg")),
    ]

    // Given an app's export, when it is read with its format detected, then every row is the expected entry or
    // skip: date, weight and unit, note, body fat, and nothing shifted or invented.
    @Test(arguments: exports)
    func everyRowIsReadAsTheAppMeantIt(export: AppExport) throws {
        let (reader, rows) = try export.read(try export.text())
        #expect(reader.format == export.format)
        #expect(reader.formatName == export.name)
        #expect(reader.unitSource == export.units)
        #expect(rows.count == export.rows.count)
        for (row, expected) in zip(rows, export.rows) { #expect(row == expected) }
    }

    // Streaming must not depend on where the reads end.
    @Test(arguments: exports)
    func chunksGiveTheSameRows(export: AppExport) throws {
        let text = try export.text()
        #expect(try export.read(text, chunk: 7).1 == export.rows)
    }

    // The test above can fail: with one value changed in the file, exactly one row differs from the expectation.
    @Test(arguments: exports)
    func oneChangedValueIsNoticed(export: AppExport) throws {
        let text = try export.text()
        #expect(text.components(separatedBy: export.change.from).count == 2, "the change must hit one place")
        let changed = text.replacingOccurrences(of: export.change.from, with: export.change.to)
        let rows = try export.read(changed).1
        #expect(rows != export.rows)
        #expect(rows.count == export.rows.count)
        #expect(zip(rows, export.rows).filter { $0 != $1 }.count == 1)
    }

    // TrendWeight's German download: each cell rebuilt, never 194 lb with 2 % body fat.
    @Test func aGermanDownloadIsNeverShifted() throws {
        let german = AppImportTests.exports.first { $0.fixture == "trendweight-computed-de.csv" }!
        let entries = try german.read(try german.text()).1.compactMap { row -> WeightEntry? in
            if case .entry(_, let e) = row { e } else { nil }
        }
        #expect(entries.count == 7)
        #expect(entries.allSatisfy { $0.weight.value > 190 && $0.bodyFatPercent.map { $0 > 20 } ?? true })
    }
}

@Suite struct DecimalCommaImportTests {
    static let options = DelimitedImportTests.options()

    static func rows(_ text: String) throws -> [ImportRow] { try DelimitedImportTests.rows(text).1 }

    @Test func aRawViewRowIsRebuilt() throws {
        let rows = try Self.rows(
            "Date,Time,Weight,Body Fat %\n2025-03-01,07:12:00,194,2,22,1\n2025-03-02,07:05:00,193,9,\n")
        #expect(
            DelimitedImportTests.entries(rows) == [
                WeightEntry(
                    weight: Weight(194.2, .lb), date: DelimitedImportTests.date("2025-03-01T07:12"),
                    bodyFatPercent: 22.1),
                WeightEntry(weight: Weight(193.9, .lb), date: DelimitedImportTests.date("2025-03-02T07:05")),
            ])
    }

    // Two readings fit `82,5,22` under `date,weight,fat` (82.5 and 22, or 82 and 5.22): refused, not guessed.
    @Test(arguments: [
        ("date,weight,fat\n2024-01-01,82,5,22\n", 4, 3),
        ("date,weight,fat\n2024-01-01,82,5,x,1\n", 5, 3),
        ("Date,Time,Weight,Body Fat %\n2025-03-01,07:12:00,194,2,22\n", 5, 4),
    ])
    func extraFieldsThatDoNotRebuildOneWayAreRefused(text: String, found: Int, expected: Int) throws {
        let rows = try Self.rows(text)
        let reason = W8FormatsError.importFieldCount(found: found, expected: expected, separator: ",")
            .localizedDescription
        #expect(rows == [.invalid(line: 2, reason: reason)])
        #expect(
            reason == "\(found) fields where the header has \(expected), and reading the extra commas as decimal "
                + "commas (194,2 for 194.2) does not explain them in one way; quote values that hold a comma")
    }

    @Test func aSemicolonFileWithExtraFieldsIsRefused() throws {
        let rows = try Self.rows(
            "#Units:kg\n#date;weight;weight trend;body fat;body fat trend;log\n"
                + "2012-03-22T07:40:02.000Z;79,5;79,7;;;a; b\n")
        #expect(rows == [.invalid(line: 3, reason: "7 fields where the header has 6; quote values that hold a ';'")])
    }

    @Test func aFlagThatIsNeitherYesNorNoIsRefused() throws {
        let header =
            "Date,Actual Weight,Weight Is Interpolated,Trend Weight,Actual Fat %,Fat Is Interpolated,Trend Fat %\n"
        let rows = try Self.rows(header + "2025-03-01,194.2,Maybe,194.2,,No,\n")
        #expect(rows == [.invalid(line: 2, reason: "Weight Is Interpolated is 'Maybe'; TrendWeight writes Yes or No")])
    }
}

@Suite struct LibraImportTests {
    // Libra writes UTC with `Z`; the fraction may have any number of digits, or none.
    @Test(arguments: [
        "2023-10-16T05:19:20Z", "2023-10-16T05:19:20.5Z", "2023-10-16T05:19:20.000Z",
        "2023-10-16T05:19:20.000000Z",
    ])
    func datesAreUTCWithAnyFraction(date: String) throws {
        let text =
            "#Version: 6\n#Units: kg\n\n#date;weight;weight trend;body fat;body fat trend;muscle mass;"
            + "muscle mass trend;log\n\(date);70.0;70.4;11.0;11.1;56.0;56.3;a note\n"
        let rows = try DelimitedImportTests.rows(text).1
        let second = ISO8601DateFormatter().date(from: "2023-10-16T05:19:20Z")!
        let expected = second.addingTimeInterval(date.contains(".5Z") ? 0.5 : 0)
        #expect(
            DelimitedImportTests.entries(rows) == [
                WeightEntry(weight: Weight(70.0, .kg), date: expected, note: "a note", bodyFatPercent: 11.0)
            ])
    }

    // Without the header comment, the columns are those of the version the file names.
    @Test(arguments: [
        ("#Version: 6\n#Units: kg\n", "2023-10-17T05:07:48.000Z;69.8;70.3;11.1;11.1;55.7;56.2;slept badly\n"),
        ("#Version:5\n#Units:kg\n", "2023-10-17T05:07:48.000Z;69.8;70.3;11.1;11.1;slept badly\n"),
    ])
    func aFileWithoutItsHeaderCommentUsesItsVersionsColumns(head: String, row: String) throws {
        let rows = try DelimitedImportTests.rows(head + row).1
        #expect(
            DelimitedImportTests.entries(rows) == [
                WeightEntry(
                    weight: Weight(69.8, .kg), date: ISO8601DateFormatter().date(from: "2023-10-17T05:07:48Z")!,
                    note: "slept badly", bodyFatPercent: 11.1)
            ])
    }

    // A placeholder with a note or body fat of its own is not dropped: both rows are kept.
    @Test func aPlaceholderWithSomethingOfItsOwnIsKept() throws {
        let text =
            "#Units:kg\n#date;weight;weight trend;body fat;body fat trend;log\n"
            + "2014-01-13T23:00:00.000Z;84.2;84.2;;;sick\n2014-01-14T06:31:12.000Z;84.2;84.2;;;\n"
        let rows = try DelimitedImportTests.rows(text).1
        #expect(rows.count == 2)
        #expect(DelimitedImportTests.entries(rows).count == 2)
    }

    // The placeholder may come after the weigh-in it repeats.
    @Test func aPlaceholderAfterItsWeighInIsSkipped() throws {
        let text =
            "#Units:kg\n#date;weight;weight trend;body fat;body fat trend;log\n"
            + "2014-01-14T06:31:12.000Z;84.2;84.2;;;\n2014-01-13T23:00:00.000Z;84.2;84.2;;;\n"
        let rows = try DelimitedImportTests.rows(text).1
        #expect(rows.count == 2)
        #expect(rows.last == .skipped(line: 4, .placeholder(of: 3)))
    }
}
