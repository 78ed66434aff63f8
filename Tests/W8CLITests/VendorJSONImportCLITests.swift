import Foundation
import Testing
import W8TestHarness

/// Fitbit's and Garmin's JSON exports (`Tests/Fixtures/import/README.md`) imported by the built `w8`, and checked
/// against `w8 log --json`, `w8 activity --json` and a second reader, `Tests/Support/vendor_json_totals.py`.
@Suite(.ownThread) struct VendorJSONImportCLITests {
    static let fixtures = [
        "weight-2024-03-01.json", "steps-2024-03-09.json", "12345678_userBioMetrics.json",
        "UDSFile_2024-03-01_2024-06-09.json",
    ]
    static let secondReader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/vendor_json_totals.py").path
    static let zone = "America/New_York"

    /// What the second reader counts, counted in what `w8 log --json` and `w8 activity --json` hold.
    static func held(_ w8: W8Sandbox) throws -> [String: Any] {
        let log = try #require(try w8.json("log", "--json") as? [[String: Any]])
        let kg = try log.map { entry in
            let weight = try #require(entry["entered_weight"] as? Double)
            return entry["entered_unit"] as? String == "lb" ? weight * 0.45359237 : weight
        }
        let days = try #require(try w8.json("activity", "--days", "60000", "--json") as? [[String: Any]])
        func perDay(_ key: String) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: days.map { ($0["date"] as? String ?? "?", $0[key] as? Int ?? -1) })
        }
        return [
            "weights": log.count, "kg_sum": (kg.reduce(0, +) * 1e6).rounded() / 1e6,
            "with_body_fat": log.count { $0["body_fat_percent"] is Double },
            "steps": perDay("steps"), "distance_m": perDay("distance_m"),
        ]
    }

    /// The totals the Python reader prints for `fixture`.
    static func expected(_ w8: W8Sandbox, _ fixture: String, unit: String = "lb") throws -> [String: Any] {
        let out = try W8Sandbox.running(
            w8, through: ["python3", secondReader, ImportExportTests.fixture(fixture), zone, unit])
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool {
        NSDictionary(dictionary: a).isEqual(to: b)
    }

    // Given each file, when w8 imports it (detected, in New York), then what w8 holds has the totals an independent
    // reader finds in the file; a dry run writes nothing; a second import adds nothing.
    @Test(arguments: fixtures)
    func whatW8HoldsHasTheSecondReadersTotals(fixture: String) throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = ImportExportTests.fixture(fixture)
        let dry = try object(try w8.run("import", path, "--dry-run", "--json").json())
        #expect(dry["dry_run"] as? Bool == true)
        #expect((try w8.json("log", "--json") as? [Any])?.isEmpty == true)
        #expect((try w8.json("activity", "--days", "60000", "--json") as? [Any])?.isEmpty == true)

        let result = try w8.run("import", path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["format"] as? String == (fixture.contains("-2024-03-") ? "fitbit" : "garmin"))
        #expect(summary["detected"] as? Bool == true)
        #expect(summary["added"] as? Int == dry["added"] as? Int)
        #expect(summary["activity_days_added"] as? Int == dry["activity_days_added"] as? Int)
        let expected = try Self.expected(w8, fixture)
        let held = try Self.held(w8)
        #expect(Self.same(held, expected), "w8 holds \(held), the second reader finds \(expected)")

        let again = try object(try w8.run("import", path, "--json").json())
        #expect(again["added"] as? Int == 0 && again["activity_days_added"] as? Int == 0)
        #expect(again["already_present"] as? Int == summary["added"] as? Int)
        #expect(again["activity_days_present"] as? Int == summary["activity_days_added"] as? Int)
    }

    // Fitbit's file names no unit: without --unit the preferred unit is assumed and the summary says so; --unit kg
    // reads the same numbers as kilograms, which the second reader agrees with.
    @Test func fitbitWeightsAreInTheAssumedUnitUnlessUnitSaysOtherwise() throws {
        let path = ImportExportTests.fixture("weight-2024-03-01.json")
        let assumed = try W8Sandbox(timeZone: Self.zone)
        let text = try assumed.run("import", path)
        #expect(text.status == 0, "\(text.stderr)")
        let line =
            "Read \(path) as Fitbit weight export (weight-*.json), detected from its first lines; weights read "
            + "as lb, your preferred unit — give --unit kg if they are kilograms."
        #expect(text.stdout.split(separator: "\n").first.map(String.init) == line)

        let metric = try W8Sandbox(timeZone: Self.zone)
        let summary = try object(try metric.run("import", "--format", "fitbit", "--unit", "kg", path, "--json").json())
        #expect(summary["unit"] as? String == "kg" && summary["unit_assumed"] as? Bool == false)
        let expected = try Self.expected(metric, "weight-2024-03-01.json", unit: "kg")
        #expect(Self.same(try Self.held(metric), expected))
        #expect(!Self.same(try Self.held(assumed), expected))
    }

    // One bad record: named by its position, nothing imported; with --skip-invalid the rest come in.
    @Test func aBadRecordIsNamedAndRefused() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let file = try ImportExportTests.brokenCopy(
            "weight-2024-03-01.json", in: w8, as: "weight-2024-03-01.json", replacing: "\"weight\" : 218.4",
            with: "\"weight\" : -218.4")
        let refused = try w8.run("import", file)
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines == [
                "w8: \(file): record 3: weight '-218.4' must be a positive number; try 182.4 or 82,5kg",
                "w8: nothing imported: 1 bad row in \(file); fix it or give --skip-invalid",
            ])
        #expect((try w8.json("log", "--json") as? [Any])?.isEmpty == true)
        let skipping = try object(try w8.run("import", file, "--skip-invalid", "--json").json())
        #expect(skipping["added"] as? Int == 3)
        #expect(skipping["skipped_lines"] as? [Int] == [3])
    }

    // A Garmin file named as Fitbit's is refused with the format to give.
    // Given Fitbit's steps file on standard input, in German and in English, when w8 imports `-`, then the steps are
    // read: standard input is taken as a steps file, whatever the language calls it.
    @Test(arguments: ["C.UTF-8", "de_DE.UTF-8"])
    func fitbitStepsFromStandardInput(locale: String) throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        w8.environment["LANG"] = locale
        let fixture = "steps-2024-03-09.json"
        let result = try ImportExportTests.withInput(
            w8, ImportExportTests.fixture(fixture), "import", "-", "--format", "fitbit")
        #expect(result.status == 0, "\(result.stderr)")
        let held = try Self.held(w8)
        #expect(Self.same(held, try Self.expected(w8, fixture)), "\(held)")
    }

    @Test func theWrongVendorIsRefused() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = ImportExportTests.fixture("UDSFile_2024-03-01_2024-06-09.json")
        let refused = try w8.run("import", "--format", "fitbit", path)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("give --format garmin"))
    }

    // Garmin's weights are grams: --unit lb is refused, named or detected.
    @Test func unitLbIsRefusedForGarminsGrams() throws {
        let w8 = try W8Sandbox(timeZone: Self.zone)
        let path = ImportExportTests.fixture("12345678_userBioMetrics.json")
        let named = try w8.run("import", "--format", "garmin", "--unit", "lb", path)
        #expect(named.status == 64 && named.stderr.contains("--unit lb does not apply to garmin"))
        let detected = try w8.run("import", "--unit", "lb", path)
        #expect(detected.status == 65 && detected.stderr.contains("weights are in kg but --unit is lb"))
        #expect((try w8.json("log", "--json") as? [Any])?.isEmpty == true)
    }
}
