import Foundation
import Testing
import W8TestHarness

/// The scale and band vendors' exports (`Tests/Fixtures/import/README.md`) imported by the built `w8`, and checked
/// against `w8 log --json` / `w8 activity --json` and against a second reader, `Tests/Support/vendor_totals.py`.
@Suite(.ownThread) struct VendorImportCLITests {
    static let weightFixtures = [
        "withings/weight.csv", "withings/weight-de.csv", "com.samsung.health.weight.20250331090000.csv",
    ]
    static let stepFixtures = [
        "withings/aggregates_steps.csv", "google-fit-daily-activity-metrics.csv",
        "com.samsung.shealth.step_daily_trend.20250331090000.csv",
    ]
    static let secondReader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/vendor_totals.py").path

    /// What the second reader prints for `fixture`, read in Europe/Berlin.
    static func expected(_ w8: W8Sandbox, _ fixture: String) throws -> [String: Any] {
        let out = try W8Sandbox.running(
            w8, through: ["python3", secondReader, "Europe/Berlin", ImportExportTests.fixture(fixture)])
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    /// The second reader's weight totals, counted in what `w8 log --json` holds.
    static func weightTotals(_ w8: W8Sandbox) throws -> [String: Double] {
        let log = try IPhoneImportCLITests.log(w8)
        var totals = try IPhoneImportCLITests.totals(log)
        totals["weights"] = totals.removeValue(forKey: "count")
        return totals
    }

    /// Every day `w8 activity --json` shows, as the second reader prints them: date → [steps, metres].
    static func days(_ w8: W8Sandbox) throws -> [String: [Int]] {
        let rows = try #require(try w8.json("activity", "--days", "60000", "--json") as? [[String: Any]])
        var days: [String: [Int]] = [:]
        for row in rows {
            days[try #require(row["date"] as? String)] = [
                try #require(row["steps"] as? Int), try #require(row["distance_m"] as? Int),
            ]
        }
        return days
    }

    // Given a vendor's weight file, when w8 imports it (detected, in Berlin), then `w8 log --json` has the totals
    // an independent reader finds in it; a second import adds nothing.
    @Test(arguments: weightFixtures)
    func weighInsHaveTheSecondReadersTotals(fixture: String) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let expected = try Self.expected(w8, fixture).mapValues { (($0 as? Double ?? .nan) * 1e6).rounded() / 1e6 }
        let result = try w8.run("import", ImportExportTests.fixture(fixture), "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["detected"] as? Bool == true && summary["unit"] as? String == "kg")
        #expect(summary["added"] as? Int == expected["weights"].map { Int($0) })
        #expect(try Self.weightTotals(w8) == expected)

        let again = try object(try w8.run("import", ImportExportTests.fixture(fixture), "--json").json())
        #expect(again["added"] as? Int == 0)
        #expect(again["already_present"] as? Int == expected["weights"].map { Int($0) })
    }

    // Given a vendor's file of days, when w8 imports it, then `w8 activity --json` shows the days the independent
    // reader finds, and a second import adds nothing.
    @Test(arguments: stepFixtures)
    func daysOfStepsHaveTheSecondReadersTotals(fixture: String) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let expected = try #require(try Self.expected(w8, fixture)["days"] as? [String: [Int]])
        let result = try w8.run("import", ImportExportTests.fixture(fixture), "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["activity_days_added"] as? Int == expected.count)
        #expect(try Self.days(w8) == expected)
        #expect(try IPhoneImportCLITests.log(w8).isEmpty)
        // Google Fit's calories are burned, never eaten: nothing reaches the intake log.
        #expect(try w8.run("intake", "--days", "60000", "--json").stdout == "[]\n")
        #expect(summary["intake_added"] as? Int == 0)

        let again = try object(try w8.run("import", ImportExportTests.fixture(fixture), "--json").json())
        #expect(again["activity_days_added"] as? Int == 0)
        #expect(again["activity_days_present"] as? Int == expected.count)
    }

    // The summary names the vendor and what it left out; --dry-run writes nothing.
    @Test(arguments: [
        (
            "google-fit-daily-activity-metrics.csv",
            [
                "as Google Fit Daily activity metrics.csv (steps and distance; its calories are energy burned, not "
                    + "read), detected from its first lines.",
                "Dry run, nothing written: 0 to add, 0 already present, 1 skipped.",
                "Skipped 1 day without a step count: line 4.",
                "Activity log: 4 days of steps to add, 0 days already present.",
            ]
        ),
        (
            "withings/weight.csv",
            [
                "as Withings weight.csv, detected from its first lines; weights in kg, as the file says.",
                "Dry run, nothing written: 5 to add, 0 already present, 0 skipped.",
            ]
        ),
        (
            "com.samsung.shealth.step_daily_trend.20250331090000.csv",
            [
                "as Samsung Health step_daily_trend CSV, detected from its first lines.",
                "Dry run, nothing written: 0 to add, 0 already present, 5 skipped.",
                "Skipped 5 rows of one device's steps (each day's all-devices total is read): lines 4, 5, 7, 9 and 10.",
                "Activity log: 3 days of steps to add, 0 days already present.",
            ]
        ),
    ])
    func aDryRunSaysWhatItWouldReadAndWritesNothing(fixture: String, lines: [String]) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let path = ImportExportTests.fixture(fixture)
        let result = try w8.run("import", "--dry-run", path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").map(String.init) == ["Read \(path) " + lines[0]] + lines.dropFirst())
        #expect(try IPhoneImportCLITests.log(w8).isEmpty)
        #expect(try Self.days(w8).isEmpty)
    }

    // One bad row: named as FILE:LINE with the value, nothing imported; with --skip-invalid the rest come in.
    @Test(arguments: [
        ("withings/aggregates_steps.csv", "2025-03-07,1808", "2025-03-07,18O8", 4, "steps '18O8'", 4),
        (
            "com.samsung.health.weight.20250331090000.csv", "178.0,81.7,0.0", "178.0,-81.7,0.0", 4,
            "weight '-81.7' must be a positive number", 3
        ),
    ])
    func aBadRowIsNamedAndNothingIsWritten(
        fixture: String, from: String, to: String, line: Int, fragment: String, rest: Int
    ) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let text = try String(contentsOfFile: ImportExportTests.fixture(fixture), encoding: .utf8)
        let broken = text.replacingOccurrences(of: from, with: to)
        #expect(broken != text)
        let file = w8.root.appendingPathComponent(fixture.split(separator: "/").last.map(String.init)!).path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try w8.run("import", file)
        #expect(refused.status == 65)
        #expect(refused.stderrLines.count == 2)
        #expect(refused.stderrLines.first?.hasPrefix("w8: \(file):\(line): ") == true, "\(refused.stderr)")
        #expect(refused.stderrLines.first?.contains(fragment) == true, "\(refused.stderr)")
        #expect(refused.stderrLines.last == "w8: nothing imported: 1 bad row in \(file); fix it or give --skip-invalid")
        #expect(try IPhoneImportCLITests.log(w8).isEmpty && Self.days(w8).isEmpty)
        let skipping = try object(try w8.run("import", file, "--skip-invalid", "--json").json())
        #expect(skipping["skipped_lines"] as? [Int] == [line])
        #expect((skipping["added"] as? Int ?? 0) + (skipping["activity_days_added"] as? Int ?? 0) == rest)
    }

    // Named with --format, a vendor's file reads as detected; another vendor's format refuses it by its header.
    @Test func theFormatCanBeNamed() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let path = ImportExportTests.fixture("google-fit-daily-activity-metrics.csv")
        let named = try object(try w8.run("import", "--format", "google-fit", "--dry-run", "--json", path).json())
        #expect(named["format"] as? String == "google-fit" && named["detected"] as? Bool == false)
        let wrong = try w8.run("import", "--format", "withings", "--dry-run", path)
        #expect(wrong.status == 65, "\(wrong.stdout)")
    }
}
