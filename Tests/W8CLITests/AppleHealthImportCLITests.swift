import Foundation
import Testing
import W8TestHarness

/// Apple Health's export (`Tests/Fixtures/import/apple-health/export.xml`, and the same in an export.zip made here)
/// imported by the built `w8`, checked against `w8 log`, `w8 activity` and `w8 intake` and against a second
/// reader, `Tests/Support/apple_health_totals.py`.
@Suite struct AppleHealthImportCLITests {
    static let fixture = ImportExportTests.fixture("apple-health/export.xml")
    static let secondReader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/apple_health_totals.py").path

    /// The fixture as Health shares it: `apple_health_export/export.xml` (after an `export_cda.xml`, which is no
    /// match) in a deflated export.zip, ZIP64 records included when `zip64`.
    static func zip(_ w8: W8Sandbox, zip64: Bool) throws -> String {
        let path = w8.root.appendingPathComponent(zip64 ? "export64.zip" : "export.zip").path
        let script = """
            import sys, zipfile
            if sys.argv[3] == "1":
                # Past these limits zipfile writes ZIP64 records: the central directory's extra field and the
                # ZIP64 end of central directory, as an export past 4 GB has them.
                zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 64, 1
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("apple_health_export/export_cda.xml", "<ClinicalDocument/>")
                with z.open("apple_health_export/export.xml", "w", force_zip64=sys.argv[3] == "1") as f:
                    f.write(open(sys.argv[2], "rb").read())
            """
        let out = try W8Sandbox.running(w8, through: ["python3", "-c", script, path, fixture, zip64 ? "1" : "0"])
        #expect(out.status == 0, "\(out.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data([0x50, 0x4B, 0x06, 0x06])) != nil || !zip64, "a ZIP64 end of central directory")
        return path
    }

    /// What the second reader finds in `file`, read in Berlin.
    static func expected(_ w8: W8Sandbox, _ file: String) throws -> [String: Any] {
        let out = try W8Sandbox.running(w8, through: ["python3", secondReader, file, "Europe/Berlin"])
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    /// The same totals, from what w8 holds.
    static func held(_ w8: W8Sandbox) throws -> [String: Any] {
        let log = try #require(try w8.json("log") as? [[String: Any]])
        let kg = log.map { entry in
            let weight = entry["entered_weight"] as? Double ?? 0
            return entry["entered_unit"] as? String == "lb" ? weight * 0.45359237 : weight
        }
        let days = try #require(try w8.json("activity", "--days", "5000") as? [[String: Any]])
        var activity: [String: [Int]] = [:]
        for day in days {
            activity[day["date"] as? String ?? "?"] = [day["steps"] as? Int ?? -1, day["distance_m"] as? Int ?? -1]
        }
        let intake = try #require(try w8.json("intake", "--days", "5000") as? [[String: Any]])
        let water = intake.filter { $0["kind"] as? String == "water" }
        let calories = intake.filter { $0["kind"] as? String == "calories" }
        return [
            "weights": log.count, "kg_sum": (kg.reduce(0, +) * 1e6).rounded() / 1e6,
            "with_body_fat": log.count { $0["body_fat_percent"] is Double }, "activity": activity,
            "water_ml": water.reduce(0) { $0 + ($1["volume_ml"] as? Int ?? 0) }, "water_events": water.count,
            "calories": calories.reduce(0) { $0 + ($1["calories"] as? Int ?? 0) }, "calorie_events": calories.count,
        ]
    }

    // Given Health's export as XML, as a ZIP and as a ZIP64, when w8 imports it (detected, in Berlin), then what
    // w8 holds has the totals the second reader finds; a second import adds nothing.
    @Test(arguments: ["xml", "zip", "zip64"])
    func whatW8HoldsHasTheSecondReadersTotals(form: String) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let file = form == "xml" ? Self.fixture : try Self.zip(w8, zip64: form == "zip64")
        let result = try w8.run("import", file, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try object(try result.json())
        #expect(summary["format"] as? String == "apple-health")
        #expect(summary["detected"] as? Bool == true)
        #expect(summary["added"] as? Int == 3)
        #expect(summary["activity_days_added"] as? Int == 3)
        #expect(summary["intake_added"] as? Int == 4)
        let expected = try Self.expected(w8, file)
        #expect(NSDictionary(dictionary: try Self.held(w8)) == NSDictionary(dictionary: expected))

        let again = try object(try w8.run("import", file, "--json").json())
        #expect(again["added"] as? Int == 0)
        #expect(again["activity_days_added"] as? Int == 0)
        #expect(again["intake_added"] as? Int == 0)
    }

    // The summary says what was read and which source the steps came from; the XML also comes on standard input.
    @Test func theSummarySaysWhatWasRead() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let zip = try Self.zip(w8, zip64: false)
        let result = try w8.run("import", "--dry-run", zip)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Read \(zip) as Apple Health export (apple_health_export/export.xml in the ZIP)"))
        #expect(result.stdout.contains("weights in lb (1) and kg (2)"))
        #expect(result.stdout.contains("Found 3 weigh-ins, 3 days of steps, 2 drinks of water and 2 calorie entries."))
        #expect(result.stdout.contains("Skipped 1 body fat record with no weight at the same moment: record 6."))
        #expect(result.stdout.contains("Apple Watch over iPhone over other apps; first source: Anna’s iPhone (2 days)"))
        #expect(result.stdout.contains("Dropped 2 exact duplicate records."))
        #expect(!result.stderr.contains("Reading"), "no progress when stderr is no terminal")

        let piped = try W8Sandbox.running(
            w8, through: ["sh", "-c", "\"$0\" import - < \"$1\"", w8.executable, Self.fixture])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("Read standard input as Apple Health export"))
        let zipped = try W8Sandbox.running(w8, through: ["sh", "-c", "\"$0\" import - < \"$1\"", w8.executable, zip])
        #expect(zipped.status == 65)
        #expect(zipped.stderr.contains("standard input is a ZIP archive, which w8 reads only from a file"))
    }

    // --format apple-health on a file that is neither a ZIP nor HealthData XML says so in one line.
    @Test func anotherFileIsNoHealthExport() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let result = try w8.run("import", "--format", "apple-health", ImportExportTests.fixture("generic.csv"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("is not an Apple Health export: neither a ZIP archive nor XML whose root is"))
    }

    // A ZIP cut short, or one without export.xml, is refused in one line that says why, and nothing is written.
    @Test func aDamagedZipIsRefused() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.zip(w8, zip64: false)))
        let cut = w8.root.appendingPathComponent("cut.zip")
        try whole.prefix(whole.count - 30).write(to: cut)
        let refused = try w8.run("import", cut.path)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("cut.zip is not a ZIP archive w8 can read: it has no end of central directory"))
        let other = w8.root.appendingPathComponent("other.zip").path
        let script = "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').writestr('notes/export.txt', 'hi')"
        #expect(try W8Sandbox.running(w8, through: ["python3", "-c", script, other]).status == 0)
        let empty = try w8.run("import", other)
        #expect(empty.status == 65)
        #expect(empty.stderr.contains("other.zip holds no apple_health_export/export.xml"), "\(empty.stderr)")
        #expect(try (w8.json("log") as? [Any])?.count == 0)
    }

    // A bad record is told as FILE: record N and nothing is written, unless --skip-invalid.
    @Test func aBadRecordWritesNothing() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let text = try String(contentsOfFile: Self.fixture, encoding: .utf8)
            .replacingOccurrences(of: "unit=\"fl_oz_us\"", with: "unit=\"gallon\"")
        let bad = w8.root.appendingPathComponent("bad.xml").path
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try w8.run("import", bad)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("bad.xml: record 21: unit 'gallon' is not one w8 reads for this type"))
        #expect(try (w8.json("log") as? [Any])?.count == 0)
        let skipped = try w8.run("import", "--skip-invalid", bad)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(try (w8.json("log") as? [Any])?.count == 3)
    }

    // On a terminal the import shows its progress on one line rewritten with \r, and erases it at the end.
    @Test func progressShowsOnATerminal() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execvp(sys.argv[1], sys.argv[1:])
            out = b""
            while True:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                out += data
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace").replace("\\r", "<CR>").replace("\\x1b[K", "<EL>"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let out = try W8Sandbox.running(w8, through: ["python3", "-c", script, w8.executable, "import", Self.fixture])
        #expect(out.status == 0, "\(out.stdout)")
        #expect(out.stdout.contains("<CR>Reading export.xml: 0 of 0 MB (100 %)<EL>"), "\(out.stdout)")
        #expect(out.stdout.contains("<CR><EL>Read "), "the line is erased before the summary: \(out.stdout)")
    }
}
