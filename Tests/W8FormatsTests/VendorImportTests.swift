import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

/// The scale and band vendors' exports (Withings, Google Fit, Samsung Health; `Tests/Fixtures/import/README.md`):
/// every row w8 reads from each fixture, in Europe/Berlin, and the rows it refuses.
@Suite struct VendorImportTests {
    static let now = AppImportTests.now
    static let options = ImportOptions(preferredUnit: .lb, now: now, calendar: PinnedCalendar.berlin)

    /// Every row of `text`, fed `chunk` bytes at a time, as `w8 import NAME` reads it.
    static func read(
        _ text: String, name: String? = nil, format: ImportFormat? = nil, chunk: Int = .max
    ) throws -> (DelimitedImport, [ImportRow]) {
        var reader = DelimitedImport(format: format, options: options, fileName: name)
        let rows = try DelimitedImportTests.feed(&reader, text, chunk: chunk)
        return (reader, rows)
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: AppExport.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    static func day(_ text: String, _ steps: Int, _ metres: Int, _ source: String) -> ImportRow {
        .activity(ActivityDay(day: CalendarDay(text)!, steps: steps, distance: metres, source: .init(rawValue: source)))
    }

    /// An entry at an instant with its offset written out.
    static func entry(_ line: Int, _ at: String, _ kg: Double, note: String? = nil, fat: Double? = nil) -> ImportRow {
        AppImportTests.entry(line, at, kg, .kg, note: note, fat: fat)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var format: ImportFormat
        var name: String
        var units: ImportUnitSource?
        var rows: [ImportRow]
        var testDescription: String { fixture }
    }

    static let cases: [Case] = [
        Case(
            fixture: "withings/weight.csv", format: .withings, name: "Withings weight.csv", units: .file(.kg),
            rows: [
                // Local time (Europe/Berlin), the clocks going forward in between; fat mass / weight, to 0.1.
                entry(2, "2025-03-30T07:41:12+02:00", 81.35, fat: 20.9),
                entry(3, "2025-03-29T22:05:03+01:00", 82.05),
                entry(4, "2025-03-08T07:12:40+01:00", 81.6, note: "after a late dinner, salty", fat: 21.0),
                entry(5, "2025-03-07T07:30:55+01:00", 81.7, fat: 21.1),
                entry(6, "2025-03-05T06:58:21+01:00", 81.9, fat: 21.1),
            ]),
        Case(
            fixture: "withings/weight-de.csv", format: .withings, name: "Withings weight.csv", units: .file(.kg),
            rows: [
                entry(2, "2025-03-09T13:32:55+01:00", 83.0),
                entry(3, "2025-03-09T11:59:12+01:00", 83.1, fat: 22.1),
                entry(4, "2025-03-08T11:43:31+01:00", 83.4),
            ]),
        Case(
            fixture: "withings/aggregates_steps.csv", format: .withings, name: "Withings aggregates_steps.csv",
            units: nil,
            rows: [
                day("2025-03-05", 13901, 0, "withings"), day("2025-03-06", 7207, 0, "withings"),
                day("2025-03-07", 1808, 0, "withings"), day("2025-03-08", 11565, 0, "withings"),
                day("2025-03-09", 5172, 0, "withings"),
            ]),
        Case(
            fixture: "google-fit-daily-activity-metrics.csv", format: .googleFit,
            name:
                "Google Fit Daily activity metrics.csv (steps and distance; its calories are energy burned, not read)",
            units: nil,
            rows: [
                .skipped(line: 4, .noSteps),
                day("2025-03-01", 3952, 2652, "google-fit"), day("2025-03-02", 5885, 3881, "google-fit"),
                day("2025-03-04", 6852, 4623, "google-fit"), day("2025-03-05", 8122, 5401, "google-fit"),
            ]),
        Case(
            fixture: "com.samsung.health.weight.20250331090000.csv", format: .samsungHealth,
            name: "Samsung Health CSV", units: .app(.kg),
            rows: [
                // UTC in the file; body fat 0.0 is not measured.
                entry(3, "2025-03-05T05:58:00Z", 81.9, fat: 21.1),
                entry(4, "2025-03-07T06:30:00Z", 81.7),
                entry(5, "2025-03-29T22:40:00Z", 82.1),
                entry(6, "2025-03-30T05:41:00Z", 81.4, fat: 20.9),
            ]),
        Case(
            fixture: "com.samsung.shealth.step_daily_trend.20250331090000.csv", format: .samsungHealth,
            name: "Samsung Health step_daily_trend CSV", units: nil,
            rows: [
                .skipped(line: 4, .oneDevice), .skipped(line: 5, .oneDevice), .skipped(line: 7, .oneDevice),
                .skipped(line: 9, .oneDevice), .skipped(line: 10, .oneDevice),
                day("2025-03-05", 9120, 6812, "samsung-health"), day("2025-03-06", 4310, 3120, "samsung-health"),
                day("2025-03-07", 12002, 9406, "samsung-health"),
            ]),
    ]

    // Given a vendor's file, when it is read whole or a few bytes at a time (detected by its header), then every
    // row is the weigh-in or day it holds, and the format and unit are named.
    @Test(arguments: cases, [Int.max, 7])
    func everyRowIsReadAsTheVendorMeantIt(_ c: Case, chunk: Int) throws {
        let name = c.fixture.split(separator: "/").last.map(String.init)
        let (reader, rows) = try Self.read(try Self.fixture(c.fixture), name: name, chunk: chunk)
        #expect(reader.format == c.format)
        #expect(reader.formatName == c.name)
        #expect(reader.unitSource == c.units)
        #expect(rows == c.rows)
        // Named with --format, the same rows.
        #expect(try Self.read(try Self.fixture(c.fixture), name: name, format: c.format).1 == c.rows)
    }

    // Samsung's older exports name each column with the table's prefix; the rows are the same.
    @Test func samsungPrefixedColumnsAreReadByTheirLastName() throws {
        let text = """
            com.samsung.health.weight,6305000,3
            com.samsung.health.weight.start_time,com.samsung.health.weight.weight,com.samsung.health.weight.body_fat,\
            com.samsung.health.weight.time_offset
            2025-03-05 05:58:00.000,81.9,21.1,UTC+0100,

            """
        #expect(try Self.read(text).1 == [Self.entry(3, "2025-03-05T05:58:00Z", 81.9, fat: 21.1)])
    }

    // A day given twice: the later row is read, the earlier one counted as skipped with the line that replaces it.
    @Test func aDayGivenAgainIsReadFromTheLaterRow() throws {
        let text = "date,value\n2025-03-09,5172\n2025-03-08,100\n2025-03-09,6000\n"
        let rows = try Self.read(text, name: "aggregates_steps.csv").1
        #expect(
            rows == [
                .skipped(line: 2, .repeatedDay(by: 4)), Self.day("2025-03-08", 100, 0, "withings"),
                Self.day("2025-03-09", 6000, 0, "withings"),
            ])
    }

    // Every Withings aggregates file is `date,value`: only the steps file is detected, and the others are refused
    // by name even with --format withings.
    @Test func otherWithingsAggregatesAreNotReadAsSteps() throws {
        let text = "date,value\n2025-03-09,3120.5\n"
        #expect(throws: W8FormatsError.importFormatUnknown("date,value")) {
            try Self.read(text, name: "aggregates_distance.csv")
        }
        #expect(throws: W8FormatsError.self) { try Self.read(text, name: "aggregates_distance.csv", format: .withings) }
        #expect(throws: W8FormatsError.importFormatUnknown("date,value")) { try Self.read(text, name: "values.csv") }
    }

    // Bad values are refused by line with the value named; the other rows still read.
    @Test(arguments: [
        (
            "date,value\n2025-03-09,5172\n2025-02-30,10\n", "aggregates_steps.csv", 3,
            "date '2025-02-30' is not a day like 2024-03-26"
        ),
        ("date,value\n2025-03-09,-5\n", "aggregates_steps.csv", 2, "steps"),
        ("date,value\n2099-03-09,5\n", "aggregates_steps.csv", 2, "2099-03-09"),
        ("Date,Step count,Distance (m)\n2025-03-01,3952,far\n", "Daily activity metrics.csv", 2, "distance 'far'"),
        (
            "com.samsung.shealth.step_daily_trend,1,3\nday_time,count,source_type\n17411328,10,-2,\n", "x.csv", 3,
            "day_time"
        ),
        (
            "Date,\"Weight (kg)\",\"Fat mass (kg)\"\n\"2025-03-09 07:00:00\",81.0,lots\n", "weight.csv", 2,
            "fat mass 'lots'"
        ),
    ])
    func aBadValueIsRefusedByLine(text: String, name: String, line: Int, fragment: String) throws {
        let rows = try Self.read(text, name: name).1
        let bad = rows.compactMap { row -> (Int, String)? in
            if case .invalid(let line, let reason) = row { return (line, reason) }
            return nil
        }
        #expect(bad.count == 1)
        #expect(bad.first?.0 == line)
        #expect(bad.first?.1.contains(fragment) == true, "\(bad)")
    }

    // Samsung files w8 does not read are named, not read as something else.
    @Test func anotherSamsungTableIsRefused() throws {
        let text = "com.samsung.shealth.sleep,6305000,3\nstart_time,end_time,time_offset\n"
        #expect(throws: W8FormatsError.self) { try Self.read(text) }
    }
}
