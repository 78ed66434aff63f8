import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

/// Fitbit's and Garmin's JSON exports (`Tests/Fixtures/import/README.md`): an array of records read as a stream,
/// Fitbit weights in the account's unnamed unit at the account's wall clock, Fitbit steps a minute in UTC summed per
/// local day, Garmin weights in grams at a GMT moment, Garmin daily summaries.
@Suite struct VendorExportTests {
    static func options(unit: WeightUnit? = nil, calendar: Calendar = PinnedCalendar.newYork) -> ImportOptions {
        ImportOptions(unit: unit, preferredUnit: .lb, now: AppImportTests.now, calendar: calendar)
    }

    /// The rows of `text` fed in chunks of `chunk` bytes, and the file the first record showed.
    static func read(
        _ text: String, name: String = "export.json", expected: ImportFormat? = nil, chunk: Int = .max,
        options: ImportOptions = options()
    ) throws -> ([ImportRow], VendorExportStream.Kind?) {
        var stream = VendorExportStream(fileName: name, expected: expected, options: options)
        var rows: [ImportRow] = []
        for piece in pieces(of: text, size: chunk) { rows += try stream.feed(Array(piece)) }
        rows += try stream.finish()
        return (rows, stream.kind)
    }

    static func fixture(_ name: String, chunk: Int = .max, options: ImportOptions = options()) throws -> (
        [ImportRow], VendorExportStream.Kind?
    ) {
        try read(IPhoneExportTests.text(name), name: name, chunk: chunk, options: options)
    }

    static func entry(_ line: Int, _ at: String, _ value: Double, _ unit: WeightUnit, fat: Double? = nil) -> ImportRow {
        .entry(
            line: line,
            WeightEntry(
                weight: Weight(value, unit),
                date: try! DateInput.parse(at, now: AppImportTests.now, calendar: PinnedCalendar.newYork),
                bodyFatPercent: fat))
    }

    static func day(_ text: String, _ steps: Int, _ metres: Int = 0, _ source: String) -> ImportRow {
        .activity(ActivityDay(day: CalendarDay(text)!, steps: steps, distance: metres, source: .init(rawValue: source)))
    }

    /// Each file of weigh-ins, the file it is, and its rows: Fitbit's weight file (pounds, not named in it) at the
    /// account's wall clock in New York, in the preferred unit; Garmin's grams at their GMT moment, a record without
    /// a weight (height) being no weigh-in and a body fat of 0 the scale's failed reading.
    static let weighIns: [(String, VendorExportStream.Kind, [ImportRow])] = [
        (
            "weight-2024-03-01.json", .fitbitWeight,
            [
                entry(1, "2024-03-02T07:10:00-05:00", 219.5, .lb, fat: 31.121999740600586),
                entry(2, "2024-03-04T23:59:59-05:00", 218.9, .lb),
                entry(3, "2024-03-11T09:35:00-04:00", 218.4, .lb, fat: 30.80900001525879),
                entry(4, "2024-03-18T08:30:00-04:00", 217.6, .lb, fat: 30.5),
            ]
        ),
        (
            "12345678_userBioMetrics.json", .garminBioMetrics,
            [
                entry(1, "2024-03-02T06:41:12Z", 81.234, .kg, fat: 22.5),
                entry(3, "2024-03-05T19:02:00Z", 80.95, .kg),
                entry(4, "2024-03-09T06:55:30Z", 80.512, .kg, fat: 21.9),
            ]
        ),
    ]

    // Given a file of weigh-ins, when read in New York in any chunks, then every record is its weigh-in.
    @Test(arguments: weighIns, [1, 7, 4096])
    func weighInsAreReadInAnyChunks(file: (String, VendorExportStream.Kind, [ImportRow]), chunk: Int) throws {
        let (rows, kind) = try Self.fixture(file.0, chunk: chunk)
        #expect(kind == file.1)
        #expect(rows == file.2)
    }

    // --unit kg says the account kept kilograms: the same numbers, in kg.
    @Test func fitbitWeightsTakeTheUnitOption() throws {
        let (rows, _) = try Self.fixture("weight-2024-03-01.json", options: Self.options(unit: .kg))
        #expect(
            DelimitedImportTests.entries(rows).map(\.weight) == [219.5, 218.9, 218.4, 217.6].map { Weight($0, .kg) })
    }

    // Fitbit's minutes are UTC: in New York 04:59Z is the evening before; the DST day of 10 March has 23 hours; the
    // minute written twice counts once.
    @Test func fitbitStepsAreSummedPerLocalDayOnce() throws {
        let (rows, kind) = try Self.fixture("steps-2024-03-09.json", chunk: 5)
        #expect(kind == .fitbitSteps)
        #expect(
            rows == [
                Self.day("2024-03-08", 42, 0, "fitbit"), Self.day("2024-03-09", 270, 0, "fitbit"),
                Self.day("2024-03-10", 188, 0, "fitbit"), Self.day("2024-03-11", 44, 0, "fitbit"),
            ])
        // In Berlin (UTC+1) the same minutes fall on other days.
        let (berlin, _) = try Self.fixture(
            "steps-2024-03-09.json", options: Self.options(calendar: PinnedCalendar.berlin))
        #expect(berlin.map(\.line) == [0, 0, 0])
        #expect(berlin.first == Self.day("2024-03-09", 272, 0, "fitbit"))
    }

    // Minutes that add up to more steps than a day may have are refused, not written.
    @Test func aDayOfTooManyStepsIsRefused() throws {
        let minutes = (10...12).map { #"{"dateTime":"03/09/24 \#($0):00:00","value":"90000"}"# }
        #expect(throws: W8FormatsError.self) {
            try Self.read("[" + minutes.joined(separator: ",") + "]", name: "steps-2024-03-09.json")
        }
    }

    // Fitbit's distance file has the steps file's shape: refused by its name, not read as steps.
    @Test func aFitbitPerMinuteFileOtherThanStepsIsRefused() throws {
        let text = try IPhoneExportTests.text("steps-2024-03-09.json")
        #expect(throws: W8FormatsError.self) { try Self.read(text, name: "Takeout/Fitbit/distance-2024-03-09.json") }
    }

    // A timestampGMT written as milliseconds since 1970 is the same moment.
    @Test func garminMillisecondTimestampsAreRead() throws {
        let text =
            #"[{"metaData":{"calendarDate":"2024-03-02"},"weight":{"weight":81234.0,"timestampGMT":1709361672000}}]"#
        #expect(try Self.read(text).0 == [Self.entry(1, "2024-03-02T06:41:12Z", 81.234, .kg)])
    }

    // Garmin's daily summaries: a day's steps and whole metres; a day without a total is left out.
    @Test func garminDailySummariesAreDays() throws {
        let (rows, kind) = try Self.fixture("UDSFile_2024-03-01_2024-06-09.json")
        #expect(kind == .garminDailySummary)
        #expect(
            rows == [
                Self.day("2024-03-08", 8123, 6543, "garmin"), Self.day("2024-03-09", 10456, 8210, "garmin"),
                Self.day("2024-03-11", 0, 0, "garmin"),
            ])
    }

    // A count too large for an integer is a bad row naming it, not a trap (found by fuzz-vendor-json).
    @Test(arguments: ["1e76", "-1e300", "12.5", "9007199254740993"])
    func aStepCountNoIntegerHoldsIsABadRow(count: String) throws {
        let text = "[{\"calendarDate\":\"2024-03-08\",\"totalSteps\":\(count)}]"
        let (rows, kind) = try Self.read(text, name: "UDSFile_1.json")
        #expect(kind == .garminDailySummary)
        guard case .invalid(line: 1, let reason) = rows.first, rows.count == 1 else {
            Issue.record("\(rows)")
            return
        }
        #expect(reason.contains("steps"))
    }

    // A bad record is a bad row named by its position; the others are read.
    @Test func aBadRecordIsNamedByItsPosition() throws {
        let text = try IPhoneExportTests.text("weight-2024-03-01.json")
            .replacingOccurrences(of: "\"date\" : \"03/04/24\"", with: "\"date\" : \"2024-03-04\"")
        let (rows, _) = try Self.read(text)
        #expect(rows.map(\.line) == [1, 2, 3, 4])
        #expect(rows[1] == .invalid(line: 2, reason: W8CoreError.dateInvalid("2024-03-04").localizedDescription))
    }

    // The file must be the --format named, an array, and closed.
    @Test(arguments: [
        ("[{\"calendarDate\":\"2024-03-08\",\"totalSteps\":1}]", ImportFormat.fitbit),
        ("{\"logId\":1}", nil), ("[{\"logId\":1,\"weight\":80,\"date\":\"03/02/24\"}", nil),
        ("[{\"name\":\"x\"}]", nil),
    ])
    func filesThatAreNotTheseExportsAreRefused(text: String, expected: ImportFormat?) throws {
        #expect(throws: W8FormatsError.self) { try Self.read(text, expected: expected) }
    }
}
