import Foundation
import Testing
import W8TestHarness

/// Gadgetbridge's database (`Tests/Fixtures/import/gadgetbridge/schema-and-rows.sql`, built into SQLite by each
/// test) imported by the built `w8`, and checked against `w8 activity --json`, `w8 log --json` and a second reader,
/// `Tests/Support/gadgetbridge_totals.py`.
@Suite(.ownThread) struct GadgetbridgeCLITests {
    static let secondReader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/gadgetbridge_totals.py").path
    static let zone = "Europe/Berlin"
    /// The fixture's steps by day in Berlin: the README's sums, which the second reader must find too.
    static let days: [String: Int] = [
        "2025-01-14": 410, "2025-01-15": 1055, "2025-01-17": 5000, "2025-01-18": 130, "2025-01-19": 105,
    ]

    /// The fixture built into `Gadgetbridge` in the sandbox, with `more` SQL run after it; its path.
    static func database(_ w8: W8Sandbox, more: String = "") throws -> String {
        let path = w8.root.appendingPathComponent("export/Gadgetbridge").path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let sql = ImportExportTests.fixture("gadgetbridge/schema-and-rows.sql")
        let out = try W8Sandbox.running(w8, through: ["sqlite3", path, ".read \(sql)", more])
        #expect(out.status == 0, "\(out.stderr)")
        return path
    }

    /// What the second reader finds: steps and metres by day, and [seconds, kg] of each weigh-in.
    static func expected(_ w8: W8Sandbox, _ path: String) throws -> (
        days: [String: Int], metres: [String: Int], weights: [[Double]]
    ) {
        let out = try W8Sandbox.running(w8, through: ["python3", secondReader, path, zone])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        return (
            try #require(json["days"] as? [String: Int]), try #require(json["distance_m"] as? [String: Int]),
            try #require(json["weights"] as? [[Double]])
        )
    }

    /// `w8 activity --json` as steps by day (every source: only this import wrote).
    static func activity(_ w8: W8Sandbox, _ key: String = "steps") throws -> [String: Int] {
        let days = try #require(try w8.json("activity", "--days", "10000") as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: try days.map { day in
                (try #require(day["date"] as? String), try #require(day[key] as? Int))
            })
    }

    /// `w8 log --json` as [seconds, kg], oldest first.
    static func weights(_ w8: W8Sandbox) throws -> [[Double]] {
        let log = try #require(try w8.json("log") as? [[String: Any]])
        return try log.map { entry in
            #expect(entry["entered_unit"] as? String == "kg")
            let text = try #require(entry["date"] as? String)
            let date = try #require(ISO8601DateFormatter().date(from: text))
            return [date.timeIntervalSince1970.rounded(.down), try #require(entry["entered_weight"] as? Double)]
        }.sorted { $0[0] < $1[0] }
    }

    /// The file's bytes and modification time, and the files beside it.
    static func state(_ path: String) throws -> (Data, Date, [String]) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let beside = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        return (
            try Data(contentsOf: URL(fileURLWithPath: path)), try #require(attributes[.modificationDate] as? Date),
            beside.sorted()
        )
    }

    // Given the fixture, when w8 imports it (detected, in Berlin), then the days of steps and the weigh-ins are
    // what the second reader finds: two devices on one morning counted once, sentinels left out, the upgraded
    // table read by column name, Garmin's running totals as differences; a second import adds nothing.
    @Test func whatW8HoldsIsWhatTheSecondReaderFinds() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = try Self.database(w8)
        let result = try w8.run("import", path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["format"] as? String == "gadgetbridge")
        #expect(summary["detected"] as? Bool == true)
        #expect(summary["added"] as? Int == 3)
        #expect(summary["activity_days_added"] as? Int == 5)

        let expected = try Self.expected(w8, path)
        let metres: [String: Int] = [
            "2025-01-14": 0, "2025-01-15": 0, "2025-01-17": 3500, "2025-01-18": 91, "2025-01-19": 42,
        ]
        #expect(expected.days == Self.days)
        #expect(expected.metres == metres)
        #expect(try Self.activity(w8) == expected.days)
        #expect(try Self.activity(w8, "distance_m") == expected.metres)
        #expect(try Self.weights(w8) == expected.weights)

        let again = try object(try w8.run("import", "--format", "gadgetbridge", path, "--json").json())
        #expect(again["added"] as? Int == 0)
        #expect(again["already_present"] as? Int == 3)
        #expect(again["activity_days_added"] as? Int == 0)
        #expect(again["activity_days_present"] as? Int == 5)
    }

    // --dry-run counts and writes nothing.
    @Test func dryRunWritesNothing() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = try Self.database(w8)
        #expect(try w8.run("status").status == 0)
        let before = try ImportExportTests.dump(w8)
        let result = try w8.run("import", "--dry-run", path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").prefix(3) == [
                "Read \(path) as Gadgetbridge database, detected from its first lines; weights in kg, the only unit "
                    + "Gadgetbridge database writes.",
                "Dry run, nothing written: 3 to add, 0 already present, 0 skipped.",
                "Activity log: 5 days of steps to add, 0 days already present.",
            ])
        #expect(try ImportExportTests.dump(w8) == before)
    }

    // The user's file is opened read only: its bytes and time are unchanged, and no journal, -wal or -shm file
    // appears beside it.
    @Test func theDatabaseIsLeftAsItWas() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = try Self.database(w8)
        let before = try Self.state(path)
        #expect(before.2 == ["Gadgetbridge"])
        #expect(try w8.run("import", path).status == 0)
        #expect(try w8.run("import", "--dry-run", path).status == 0)
        let after = try Self.state(path)
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        #expect(after.2 == ["Gadgetbridge"])
    }

    // A weigh-in out of range and a sample in the future are named by table and row; nothing is imported unless
    // --skip-invalid, which imports the rest.
    @Test func badRowsAreNamedByTableAndRow() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = try Self.database(
            w8,
            more: """
                INSERT INTO MI_SCALE_WEIGHT_SAMPLE VALUES (1737100800000, 4, 1, 5.5);
                INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES (4102444800, 1, 1, 0, 10, 1, 0);
                INSERT INTO PEBBLE_HEALTH_ACTIVITY_SAMPLE VALUES (-2208992401, 2, 1, NULL, 0, 10, 0);
                """)
        let refused = try w8.run("import", path)
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines == [
                "w8: \(path): MI_SCALE_WEIGHT_SAMPLE row 4: WEIGHT_KG: weight '5.5' is outside the range 20–700 kg",
                "w8: \(path): PEBBLE_HEALTH_ACTIVITY_SAMPLE row 1: TIMESTAMP -2208992401 (1899-12-31T22:59:59Z) is "
                    + "before 1900",
                "w8: \(path): MI_BAND_ACTIVITY_SAMPLE row 8: TIMESTAMP 4102444800 (2100-01-01T00:00:00Z) is in the "
                    + "future",
                "w8: nothing imported: 3 bad rows in \(path); fix them or give --skip-invalid",
            ])
        #expect(try Self.activity(w8).isEmpty)
        let skipping = try object(try w8.run("import", path, "--skip-invalid", "--json").json())
        #expect(skipping["added"] as? Int == 3)
        #expect(skipping["skipped"] as? Int == 3)
        #expect(try Self.activity(w8) == Self.days)
    }

    // An SQLite file that is not Gadgetbridge's (w8's own database) is refused in one line naming it.
    @Test func anotherSQLiteFileIsRefused() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let other = w8.root.appendingPathComponent("other.sqlite").path
        let made = try W8Sandbox.running(w8, through: ["sqlite3", other, "CREATE TABLE entry (id INTEGER);"])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try w8.run("import", other)
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "w8: \(other) is an SQLite database but not Gadgetbridge's (it has no DEVICE table); nothing imported"
            ])
    }
}
