import Foundation
import Testing
import W8TestHarness

/// The iPhone W8Trackr app's exports (`Tests/Fixtures/import/README.md`) imported by the built `w8`, and checked
/// against `w8 log --json` and against a second reader, `Tests/Support/w8trackr_ios_totals.py`.
@Suite(.ownThread) struct IPhoneImportCLITests {
    static let fixtures = ["w8trackr-ios.csv", "w8trackr-ios-de.csv", "w8trackr-ios.json"]
    static let secondReader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/w8trackr_ios_totals.py").path

    static func instant(_ text: String) throws -> Double {
        try #require(ISO8601DateFormatter().date(from: text), "date \(text)").timeIntervalSince1970
    }

    /// Every entry `w8 log --json` shows.
    static func log(_ w8: W8Sandbox) throws -> [[String: Any]] {
        try #require(try w8.json("log", "--json") as? [[String: Any]])
    }

    /// What the second reader counts (`count`, `kg_sum`, `with_body_fat`, `with_note`, `first`, `last`), counted
    /// in what `w8 log --json` holds after an import, to the nearest millionth.
    static func totals(_ log: [[String: Any]]) throws -> [String: Double] {
        let kg = try log.map { entry in
            let weight = try #require(entry["entered_weight"] as? Double)
            return entry["entered_unit"] as? String == "lb" ? weight * 0.45359237 : weight
        }
        let instants = try log.map { try instant(try #require($0["date"] as? String)) }
        let totals: [String: Double] = [
            "count": Double(log.count), "kg_sum": kg.reduce(0, +),
            "with_body_fat": Double(log.count { $0["body_fat_percent"] is Double }),
            "with_note": Double(log.count { ($0["note"] as? String)?.isEmpty == false }),
            "first": instants.min() ?? 0, "last": instants.max() ?? 0,
        ]
        return totals.mapValues { ($0 * 1e6).rounded() / 1e6 }
    }

    /// The totals the Python reader prints for `fixture`.
    static func expected(_ w8: W8Sandbox, _ fixture: String) throws -> [String: Double] {
        let out = try W8Sandbox.running(w8, through: ["python3", secondReader, ImportExportTests.fixture(fixture)])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Double], "\(out.stdout)")
        return json.mapValues { ($0 * 1e6).rounded() / 1e6 }
    }

    // Given an export of the app, when w8 imports it (detected, in Berlin), then what `w8 log --json` holds has
    // the totals an independent reader finds in the file; a second import adds nothing.
    @Test(arguments: fixtures)
    func whatW8HoldsHasTheSecondReadersTotals(fixture: String) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let result = try w8.run("import", ImportExportTests.fixture(fixture), "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["format"] as? String == "w8trackr-ios")
        #expect(summary["detected"] as? Bool == true)
        #expect(summary["unit_assumed"] as? Bool == false)
        let expected = try Self.expected(w8, fixture)
        #expect(summary["added"] as? Int == expected["count"].map { Int($0) })
        #expect(try Self.totals(try Self.log(w8)) == expected)

        let again = try object(try w8.run("import", ImportExportTests.fixture(fixture), "--json").json())
        #expect(again["added"] as? Int == 0)
        #expect(again["already_present"] as? Int == expected["count"].map { Int($0) })
    }

    // In New York, the CSV and the JSON give the same entries: each in its unit, at its UTC instant shown in New
    // York's offset, with its note and body fat.
    @Test(arguments: ["w8trackr-ios.csv", "w8trackr-ios.json"])
    func everyEntryArrivesAsTheAppMeantIt(fixture: String) throws {
        let w8 = try W8Sandbox(timeZone: "America/New_York")
        let result = try w8.run("import", "--format", "w8trackr-ios", ImportExportTests.fixture(fixture))
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try Self.log(w8).map { entry in
            [
                entry["date"] as? String ?? "?", "\(entry["entered_weight"] as? Double ?? 0)",
                entry["entered_unit"] as? String ?? "?", entry["note"] as? String ?? "-",
                (entry["body_fat_percent"] as? Double).map { "\($0)" } ?? "-",
            ].joined(separator: " | ")
        }
        #expect(
            entries.sorted() == [
                "2026-03-28T02:45:00-04:00 | 182.4 | lb | - | -",
                "2026-03-29T02:40:00-04:00 | 182.0 | lb | after dinner out, salty | 21.5",
                "2026-03-30T19:30:00-04:00 | 181.6 | lb | late weigh-in | -",
                "2026-04-02T08:05:00-04:00 | 82.3 | kg | hotel scale, said \"82,3\" / Müsli | 20.5",
                "2026-04-05T01:15:00-04:00 | 181.2 | lb | long run\nthen breakfast | 21.0",
                "2026-04-06T02:00:00-04:00 | 180.8 | lb | - | 19.8",
            ])
    }

    // The summary names the app, the CSV or JSON (with the app's version) and the units the rows gave.
    @Test(arguments: [
        ("w8trackr-ios.csv", "W8Trackr iPhone app CSV", "lb (5) and kg (1)"),
        ("w8trackr-ios-de.csv", "W8Trackr iPhone app CSV", "lb (1) and kg (5)"),
        ("w8trackr-ios.json", "W8Trackr iPhone app JSON (app version 1.3)", "lb (5) and kg (1)"),
    ])
    func theSummaryNamesTheAppAndTheUnits(fixture: String, readAs: String, units: String) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let path = ImportExportTests.fixture(fixture)
        let result = try w8.run("import", "--dry-run", path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").prefix(2) == [
                "Read \(path) as \(readAs), detected from its first lines; weights in \(units), as each row says.",
                "Dry run, nothing written: 6 to add, 0 already present, 0 skipped.",
            ])
    }

    // One bad entry in the JSON: named by its position, nothing imported; with --skip-invalid the rest come in.
    @Test func aBadJSONEntryIsNamedAndRefused() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let file = try ImportExportTests.brokenCopy(
            "w8trackr-ios.json", in: w8, as: "export.json", replacing: "\"weight\" : 181.6", with: "\"weight\" : -181.6"
        )
        let refused = try w8.run("import", file)
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines == [
                "w8: \(file): entry 3: weight '-181.6' must be a positive number; try 182.4 or 82,5kg",
                "w8: nothing imported: 1 bad row in \(file); fix it or give --skip-invalid",
            ])
        #expect(try Self.log(w8).isEmpty)
        let skipping = try object(try w8.run("import", file, "--skip-invalid", "--json").json())
        #expect(skipping["added"] as? Int == 5)
        #expect(skipping["skipped_lines"] as? [Int] == [3])
    }

    // The unit is each row's: --unit is refused for the format.
    @Test func unitIsRefusedForTheFormat() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let result = try w8.run(
            "import", "--format", "w8trackr-ios", "--unit", "kg", ImportExportTests.fixture("w8trackr-ios.csv"))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--unit kg does not apply to w8trackr-ios: its rows carry their unit"))
    }
}
