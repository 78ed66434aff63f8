import Foundation
import Testing
import W8TestHarness

/// An entry as `w8 export --format json` writes it.
struct ExportedEntry: Equatable, Sendable, CustomStringConvertible {
    var date: String
    var weight: Double
    var unit: String
    var note: String?
    var fat: Double?

    init(_ date: String, _ weight: Double, _ unit: String, note: String? = nil, fat: Double? = nil) {
        (self.date, self.weight, self.unit, self.note, self.fat) = (date, weight, unit, note, fat)
    }

    init(json: [String: Any]) {
        date = json["date"] as? String ?? "?"
        weight = json["weight"] as? Double ?? .nan
        unit = json["unit"] as? String ?? "?"
        note = json["note"] as? String
        fat = json["body_fat_percent"] as? Double
    }

    var description: String { "\(date) \(weight) \(unit) \(note ?? "-") \(fat.map { "\($0)%" } ?? "-")" }
}

/// An app's export (`Tests/Fixtures/import/README.md`) and what `w8 import` must make of it in Europe/Berlin.
struct AppImport: Sendable, CustomTestStringConvertible {
    var fixture: String
    /// `w8 config unit` before the import.
    var preferred = "lb"
    /// What the summary's first line says after `Read FILE as `.
    var readAs: String
    var format: String
    var unit: String
    var unitAssumed: Bool
    /// Every entry, oldest first.
    var entries: [ExportedEntry]
    /// Every skipped row: line and reason.
    var skipped: [(line: Int, reason: String)] = []
    /// One value to change in the file, which must change exactly one entry.
    var change: (from: String, to: String)

    var testDescription: String { fixture }

    var path: String { ImportExportTests.fixture(fixture) }
}

@Suite(.ownThread) struct AppImportCLITests {
    static let interpolated = "an interpolated day: TrendWeight computed this weight between two weigh-ins"
    static func placeholder(_ line: Int) -> String {
        "a midnight placeholder: line \(line) holds the same weigh-in later that day"
    }
    static let preferredLb = "weights read as lb, your preferred unit — give --unit kg if they are kilograms"

    static let trendweightDays: [ExportedEntry] = [
        ExportedEntry("2025-03-01T00:00:00+01:00", 194.2, "lb", fat: 22.1),
        ExportedEntry("2025-03-02T00:00:00+01:00", 193.9, "lb"),
        ExportedEntry("2025-03-05T00:00:00+01:00", 193.3, "lb", fat: 21.9),
        ExportedEntry("2025-03-08T00:00:00+01:00", 193.0, "lb"),
        ExportedEntry("2025-03-09T00:00:00+01:00", 192.8, "lb", fat: 21.8),
        ExportedEntry("2025-03-13T00:00:00+01:00", 192.0, "lb"),
        ExportedEntry("2025-03-15T00:00:00+01:00", 191.7, "lb"),
    ]

    static let openScale2 =
        "openScale 2.x CSV, detected from its first lines; weights in kg, the only unit openScale 2.x writes"

    static let imports: [AppImport] = [
        AppImport(
            fixture: "openscale-2.csv",
            readAs: openScale2,
            format: "openscale", unit: "kg", unitAssumed: false,
            entries: [
                ExportedEntry("2021-04-18T11:51:00+02:00", 81.3, "kg", fat: 23.4),
                ExportedEntry("2021-04-19T07:02:00+02:00", 80.9, "kg", note: "after holiday, \"heavy\""),
                ExportedEntry("2021-04-20T07:05:00+02:00", 80.6, "kg", fat: 23.1),
            ], change: ("0.0,0.0,0.0,55.2,81.3", "0.0,0.0,0.0,55.2,81.2")),
        AppImport(
            fixture: "openscale-2-ddmmyyyy.csv",
            readAs: openScale2,
            format: "openscale", unit: "kg", unitAssumed: false,
            entries: [
                ExportedEntry("2019-10-01T07:41:00+02:00", 92.4, "kg", fat: 28.3),
                ExportedEntry("2019-10-26T07:58:00+02:00", 91.6, "kg", note: "new batteries", fat: 27.9),
                ExportedEntry("2019-10-27T08:15:00+01:00", 91.2, "kg"),
            ], change: ("\"01.10.2019 07:41\"", "\"01.10.2019 07:42\"")),
        AppImport(
            fixture: "openscale-3-kg.csv", preferred: "kg",
            readAs: "openScale 3.x CSV, detected from its first lines; weights read as kg, your preferred unit — "
                + "give --unit lb if they are pounds",
            format: "openscale", unit: "kg", unitAssumed: true,
            entries: [
                ExportedEntry("2025-12-10T06:59:12.250+01:00", 82.7, "kg", fat: 24.3),
                ExportedEntry("2025-12-12T21:02:00+01:00", 82.9, "kg", note: "said \"late dinner\""),
                ExportedEntry("2025-12-13T07:28:45.123+01:00", 82.1, "kg", note: "morning, before coffee"),
                ExportedEntry("2025-12-14T07:31:05.500+01:00", 82.4, "kg", fat: 24.0),
            ], change: ("\"morning, before coffee\"", "\"morning, after coffee\"")),
        AppImport(
            fixture: "openscale-3-lb.csv",
            readAs: "openScale 3.x CSV, detected from its first lines; \(preferredLb)",
            format: "openscale", unit: "lb", unitAssumed: true,
            entries: [
                ExportedEntry("2026-05-31T22:10:44.900+02:00", 183.6, "lb"),
                ExportedEntry("2026-06-01T06:52:10+02:00", 182.3, "lb", note: "after 5 km run"),
                ExportedEntry("2026-06-02T06:45:31.070+02:00", 181.7, "lb", fat: 25.2),
            ], change: ("53.6,181.7", "53.6,181.9")),
        AppImport(
            fixture: "trendweight-computed.csv",
            readAs: "TrendWeight export (computed view), detected from its first lines; \(preferredLb)",
            format: "trendweight", unit: "lb", unitAssumed: true, entries: trendweightDays,
            skipped: [3, 5, 6, 7, 10, 11, 13, 14].map { ($0, interpolated) },
            change: ("2025-03-08,193.0,No,193.7,21.8,Yes", "2025-03-08,193.0,No,193.7,21.8,No")),
        AppImport(
            fixture: "trendweight-computed-de.csv",
            readAs: "TrendWeight export (computed view), detected from its first lines; \(preferredLb)",
            format: "trendweight", unit: "lb", unitAssumed: true, entries: trendweightDays,
            skipped: [3, 5, 6, 7, 10, 11, 13, 14].map { ($0, interpolated) },
            change: ("2025-03-01,194,2,No,194,2,22,1", "2025-03-01,194,2,No,194,2,22,2")),
        AppImport(
            fixture: "trendweight-raw.csv",
            readAs: "TrendWeight export (raw view), detected from its first lines; \(preferredLb)",
            format: "trendweight", unit: "lb", unitAssumed: true,
            entries: [
                ExportedEntry("2025-03-01T07:12:00+01:00", 194.2, "lb", fat: 22.1),
                ExportedEntry("2025-03-02T07:05:00+01:00", 193.9, "lb"),
                ExportedEntry("2025-03-02T19:40:00+01:00", 195.3, "lb"),
                ExportedEntry("2025-03-05T06:58:00+01:00", 193.3, "lb", fat: 21.9),
                ExportedEntry("2025-03-08T07:20:00+01:00", 193.0, "lb"),
                ExportedEntry("2025-03-09T07:02:00+01:00", 192.8, "lb", fat: 21.8),
                ExportedEntry("2025-03-13T06:49:00+01:00", 192.0, "lb"),
                ExportedEntry("2025-03-15T07:31:00+01:00", 191.7, "lb"),
            ], change: ("2025-03-02,19:40:00", "2025-03-02,19:41:00")),
        AppImport(
            fixture: "libra-v5.csv",
            readAs: "Libra export (version 5), detected from its first lines; weights in lb, as the file says",
            format: "libra", unit: "lb", unitAssumed: false,
            entries: [
                ExportedEntry("2019-01-07T07:12:44+01:00", 194.2, "lb"),
                ExportedEntry("2019-01-08T07:05:10+01:00", 193.8, "lb", note: "new year, new scale", fat: 21.4),
                ExportedEntry("2019-01-10T08:30:02+01:00", 193.1, "lb"),
                ExportedEntry(
                    "2019-03-31T07:48:55+02:00", 190.6, "lb", note: "first morning of summer time", fat: 21.0),
            ], change: (";21.0;21.1;", ";21.1;21.1;")),
        AppImport(
            fixture: "libra-v6.csv",
            readAs: "Libra export (version 6), detected from its first lines; weights in kg, as the file says",
            format: "libra", unit: "kg", unitAssumed: false,
            entries: [
                ExportedEntry("2023-10-16T07:19:20+02:00", 70.0, "kg", fat: 11.0),
                ExportedEntry("2023-10-17T07:07:48+02:00", 69.8, "kg", note: "slept badly", fat: 11.1),
                ExportedEntry("2023-10-18T06:12:51+02:00", 69.9, "kg", note: "travel, hotel scale"),
                ExportedEntry("2023-10-19T07:21:10+02:00", 69.1, "kg", fat: 11.0),
            ], change: ("slept badly", "slept well")),
        AppImport(
            fixture: "libra-placeholders.csv",
            readAs: "Libra export (version 5), detected from its first lines; weights in kg, as the file says",
            format: "libra", unit: "kg", unitAssumed: false,
            entries: [
                ExportedEntry("2014-01-14T07:31:12+01:00", 84.2, "kg"),
                ExportedEntry("2014-01-15T07:28:40+01:00", 84.0, "kg"),
                ExportedEntry("2014-01-16T07:40:02+01:00", 83.9, "kg", note: "after the holidays"),
                ExportedEntry("2014-01-17T00:00:00+01:00", 83.7, "kg"),
                ExportedEntry("2014-01-18T00:00:00+01:00", 83.8, "kg"),
                ExportedEntry("2014-01-18T08:02:19+01:00", 83.5, "kg"),
                ExportedEntry("2014-07-02T07:55:00+02:00", 82.5, "kg"),
            ],
            skipped: [(5, placeholder(6)), (8, placeholder(9)), (13, placeholder(14))],
            change: ("2014-01-15T06:28:40.000Z;84.0", "2014-01-15T06:28:40.000Z;84.1")),
    ]

    /// A sandbox in Europe/Berlin whose preferred unit is `unit`.
    static func sandbox(_ unit: String, timeZone: String = "Europe/Berlin") throws -> W8Sandbox {
        let w8 = try W8Sandbox(timeZone: timeZone)
        if unit != "lb" { #expect(try w8.run("config", "unit", unit).status == 0) }
        return w8
    }

    /// Every entry, oldest first, from the built `w8 export --format json`.
    static func exported(_ w8: W8Sandbox) throws -> [ExportedEntry] {
        let result = try w8.run("export", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let backup = try object(try result.json())
        let entries = try #require(backup["entries"] as? [[String: Any]])
        return entries.map(ExportedEntry.init(json:))
    }

    // Given an app's export, when `w8 import --json` reads it, then the summary counts what was added and skipped
    // (with each skip's line and reason), and `w8 export` holds every row's date, weight, unit, note and body fat.
    @Test(arguments: imports)
    func everyRowArrivesAsTheAppMeantIt(app: AppImport) throws {
        let w8 = try Self.sandbox(app.preferred)
        let result = try w8.run("import", app.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["format"] as? String == app.format)
        #expect(summary["unit"] as? String == app.unit)
        #expect(summary["unit_assumed"] as? Bool == app.unitAssumed)
        #expect(summary["added"] as? Int == app.entries.count)
        #expect(summary["already_present"] as? Int == 0)
        #expect(summary["skipped"] as? Int == app.skipped.count)
        let skipped = (summary["skipped_rows"] as? [[String: Any]] ?? []).map {
            "\($0["line"] as? Int ?? 0): \($0["reason"] as? String ?? "")"
        }
        #expect(skipped == app.skipped.map { "\($0.line): \($0.reason)" })
        let entries = try Self.exported(w8)
        #expect(entries.count == app.entries.count)
        for (entry, expected) in zip(entries, app.entries) { #expect(entry == expected) }

        // Importing it again adds nothing.
        let again = try object(try w8.run("import", app.path, "--json").json())
        #expect(again["added"] as? Int == 0)
        #expect(again["already_present"] as? Int == app.entries.count)
    }

    // The summary names the app, its version or view, and the unit it read weights in, with a hint when assumed.
    @Test(arguments: imports)
    func theSummaryNamesTheAppAndTheUnit(app: AppImport) throws {
        let w8 = try Self.sandbox(app.preferred)
        let result = try w8.run("import", "--dry-run", app.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Read \(app.path) as \(app.readAs).")
        let counts = "\(app.entries.count) to add, 0 already present, \(app.skipped.count) skipped."
        #expect(lines.dropFirst().first == "Dry run, nothing written: \(counts)")
    }

    // The test above can fail: one value changed in a copy of the fixture changes exactly one exported entry.
    @Test(arguments: imports)
    func oneChangedValueIsNoticed(app: AppImport) throws {
        let w8 = try Self.sandbox(app.preferred)
        let text = try String(contentsOfFile: app.path, encoding: .utf8)
        #expect(text.components(separatedBy: app.change.from).count == 2, "the change must hit one place")
        let copy = w8.root.appendingPathComponent(app.fixture).path
        try text.replacingOccurrences(of: app.change.from, with: app.change.to)
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let result = try w8.run("import", copy)
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try Self.exported(w8)
        #expect(entries != app.entries)
        #expect(entries.count == app.entries.count)
        let differing = Set(entries.map(\.description)).symmetricDifference(app.entries.map(\.description))
        #expect(differing.count == 2, "\(differing)")  // the changed entry as expected and as read
    }

    // A German download with one row that decimal commas do not explain in one way: refused whole, nothing
    // written, the row named with its line and cause.
    @Test func aDecimalCommaFileComesInRightOrNotAtAll() throws {
        let w8 = try Self.sandbox("lb")
        try w8.run("add", "180", "--date", "2026-11-01")
        let before = try ImportExportTests.dump(w8)
        let original = try String(
            contentsOfFile: ImportExportTests.fixture("trendweight-computed-de.csv"), encoding: .utf8)
        // 21,8 % fat written as 21: the row no longer splits one way.
        let broken = original.replacingOccurrences(
            of: "2025-03-09,192,8,No,193,6,21,8,", with: "2025-03-09,192,8,No,193,6,21,")
        #expect(broken != original)
        let file = w8.root.appendingPathComponent("trendweight-de.csv").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try w8.run("import", file)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                "w8: \(file):8: 10 fields where the header has 7, and reading the extra commas as decimal commas "
                    + "(194,2 for 194.2) does not explain them in one way; quote values that hold a comma",
                "w8: nothing imported: 1 bad row in \(file); fix it or give --skip-invalid",
            ])
        #expect(try ImportExportTests.dump(w8) == before)
    }

    // A weigh-in before 1900 is refused like one in the future.
    @Test func aRowBefore1900IsRefused() throws {
        let w8 = try Self.sandbox("lb")
        try w8.run("add", "180", "--date", "2026-11-01")
        let before = try ImportExportTests.dump(w8)
        let file = w8.root.appendingPathComponent("old.csv").path
        try "date,weight\n2024-01-01,180\n1800-01-01,181\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try w8.run("import", file)
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "w8: \(file):3: date '1800-01-01' is before 1900; check the year",
                "w8: nothing imported: 1 bad row in \(file); fix it or give --skip-invalid",
            ])
        #expect(try ImportExportTests.dump(w8) == before)
    }

    // Libra's placeholders sit at the local midnight of the phone that wrote them: read in another time zone, the
    // same file has none, and every row is a weigh-in (at the same instants).
    @Test func placeholdersAreLocalMidnights() throws {
        let w8 = try Self.sandbox("lb", timeZone: "America/New_York")
        let file = ImportExportTests.fixture("libra-placeholders.csv")
        let result = try object(try w8.run("import", file, "--json").json())
        #expect(result["added"] as? Int == 10)
        #expect(result["skipped"] as? Int == 0)
        let entries = try Self.exported(w8)
        #expect(entries.first == ExportedEntry("2014-01-13T18:00:00-05:00", 84.2, "kg"))
        #expect(entries.last == ExportedEntry("2014-07-02T01:55:00-04:00", 82.5, "kg"))
    }

    // The interpolated days are skipped without --skip-invalid, and listed with their lines.
    @Test func theSummaryListsWhatIsNoWeighIn() throws {
        let w8 = try Self.sandbox("lb")
        let computed = try w8.run("import", ImportExportTests.fixture("trendweight-computed.csv"))
        #expect(
            Array(computed.stdout.split(separator: "\n").map(String.init).dropFirst().prefix(2)) == [
                "Imported: 7 added, 0 already present, 8 skipped.",
                "Skipped 8 interpolated days (TrendWeight computed their weights between weigh-ins): lines 3, 5, 6, 7, 10, "
                    + "11, 13 and 14.",
            ])
        let libra = try w8.run("import", ImportExportTests.fixture("libra-placeholders.csv"))
        #expect(
            Array(libra.stdout.split(separator: "\n").map(String.init).dropFirst().prefix(2)) == [
                "Imported: 7 added, 0 already present, 3 skipped.",
                "Skipped 3 midnight placeholders repeating a weigh-in later the same day: lines 5, 8 and 13.",
            ])
        // --unit is said as the unit read.
        let pounds = try Self.sandbox("kg")
        let file = ImportExportTests.fixture("openscale-3-lb.csv")
        let told = try pounds.run("import", "--dry-run", "--unit", "lb", file)
        #expect(
            told.stdout.hasPrefix(
                "Read \(file) as openScale 3.x CSV, detected from its first lines; weights read as lb, as --unit says.\n"
            ))
    }
}
