import Foundation
import Testing
import W8TestHarness

/// Apple Health's export (`Tests/Fixtures/import/apple-health/export.xml`, and the same in an export.zip made here)
/// imported by the built `w8`, checked against `w8 log`, `w8 activity` and `w8 intake` and against a second
/// reader, `Tests/Support/apple_health_totals.py`.
@Suite(.ownThread) struct AppleHealthImportCLITests {
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
        #expect(
            empty.stderrLines == [
                "w8: \(other) holds no Apple Health export: no XML file in it has the root HealthData"
            ], "\(empty.stderr)")
        #expect(try (w8.json("log") as? [Any])?.count == 0)
    }

    /// The fixture in an archive laid out as `members` says (`(name, "export")` for the export, `(name, "cda")` for
    /// the clinical document), in that order, each stored or deflated.
    static func archive(_ w8: W8Sandbox, _ members: [(String, String)], deflated: Bool = true) throws -> String {
        let path = w8.root.appendingPathComponent("archive-\(UUID().uuidString).zip").path
        let script = """
            import sys, zipfile
            method = zipfile.ZIP_DEFLATED if sys.argv[3] == "1" else zipfile.ZIP_STORED
            export = open(sys.argv[2], "rb").read()
            # The clinical document beside every export: a ClinicalDocument root (HL7 CDA), never HealthData.
            cda = b'<?xml version="1.0"?>\\n<ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>\\n'
            with zipfile.ZipFile(sys.argv[1], "w", method) as z:
                for name, kind in zip(sys.argv[4::2], sys.argv[5::2]):
                    z.writestr(name, export if kind == "export" else cda)
            """
        let arguments = members.flatMap { [$0.0, $0.1] }
        let out = try W8Sandbox.running(
            w8, through: ["python3", "-c", script, path, fixture, deflated ? "1" : "0"] + arguments)
        try #require(out.status == 0, "\(out.stderr)")
        return path
    }

    // An iPhone names the export in its language (dogsheep/healthkit-to-sqlite#11: Spanish `exportar.zip` holding
    // `apple_health_export/exportar.xml`; mganjoo/apple-health-exporter#7: Norwegian `eksport.xml`, Finnish
    // `vienti.xml`), and `export_cda.xml` keeps its English name; iOS 9 put `exportación.xml` and
    // `exportación_cda.xml` at the archive's top, the accent decomposed (NFD) as Apple's file systems write it.
    // The clinical document comes first in each archive: a reader that took the first XML would read it. w8 finds the
    // export by its HealthData root, reads the same totals as from export.xml, and says which member it read.
    @Test(
        arguments: [
            ["apple_health_export/export_cda.xml", "apple_health_export/exportar.xml"],
            ["apple_health_export/export_cda.xml", "apple_health_export/eksport.xml"],
            ["apple_health_export/export_cda.xml", "apple_health_export/vienti.xml"],
            ["exportacio\u{301}n_cda.xml", "exportacio\u{301}n.xml"],
        ])
    func aLocalizedExportIsFoundByWhatItHolds(names: [String]) throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let zip = try Self.archive(w8, [(names[0], "cda"), (names[1], "export")])
        let result = try w8.run("import", zip)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Read \(zip) as Apple Health export (\(names[1]) in the ZIP)"), "\(result.stdout)")
        let held = try Self.held(w8)
        let expected = try Self.expected(w8, Self.fixture)
        #expect(NSDictionary(dictionary: held).isEqual(to: expected), "held \(held), expected \(expected)")
    }

    /// Runs `w8 import` on `bytes` written to a file: it must refuse them in one line naming the file, exit 65 and
    /// write nothing.
    static func refuses(_ w8: W8Sandbox, _ bytes: [UInt8], _ name: String, saying reason: String) throws {
        let path = w8.root.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try w8.run("import", path)
        #expect(run.status == 65, "\(name): \(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains(path), "\(name): \(run.stderr)")
        #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
        #expect(try (w8.json("log") as? [Any])?.count == 0)
    }

    /// Little-endian bytes of `value`, `count` of them.
    static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// An archive of nothing but a local header's signature and the three end records: a ZIP64 end of central
    /// directory with `entries`, `size` and `offset`, its locator pointing at `record`, and the end of central
    /// directory with every field at its ZIP64 marker (APPNOTE.TXT 4.3.14 to 4.3.16).
    static func zip64End(entries: UInt64, size: UInt64, offset: UInt64, record: UInt64? = nil) -> [UInt8] {
        let head = ZipBytes.localMagic + [UInt8](repeating: 0, count: 98)
        let end64: [UInt8] =
            [0x50, 0x4B, 0x06, 0x06] + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4) + le(entries, 8)
            + le(entries, 8) + le(size, 8) + le(offset, 8)
        let locator = [0x50, 0x4B, 0x06, 0x07] + le(0, 4) + le(record ?? UInt64(head.count), 8) + le(1, 4)
        let end = [0x50, 0x4B, 0x05, 0x06] + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF, 2)
        return head + end64 + locator + end + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
    }

    // Archives from an attacker: every number the reader takes from them is checked before it is used. Each is
    // refused in one line, exit 65, where a 200-byte archive whose ZIP64 record claims 2^64 − 1 entries ended w8
    // with SIGILL (exit 132).
    @Test func hostileArchivesAreRefusedInOneLine() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let damaged = "is not a ZIP archive w8 can read: its central directory is damaged"
        let entries = Self.zip64End(entries: .max, size: 0, offset: 100)
        #expect(entries.count == 200)
        try Self.refuses(w8, entries, "entries.zip", saying: damaged)
        try Self.refuses(w8, Self.zip64End(entries: 1 << 40, size: 0, offset: 100), "many.zip", saying: damaged)
        try Self.refuses(
            w8, Self.zip64End(entries: 1, size: .max, offset: 100), "size.zip",
            saying: "is not a ZIP archive w8 can read: its central directory is damaged")
        try Self.refuses(
            w8, Self.zip64End(entries: 1, size: 46, offset: .max - 20), "offset.zip",
            saying: "is not a ZIP archive w8 can read: its central directory is damaged")
        try Self.refuses(
            w8, Self.zip64End(entries: 1, size: 46, offset: 1 << 62), "past.zip",
            saying: "its central directory lies outside the file")
        try Self.refuses(
            w8, Self.zip64End(entries: 1, size: 0, offset: 0, record: .max), "locator.zip",
            saying: "its ZIP64 end of central directory is missing")

        // A real archive whose member's ZIP64 extra field says its local header is at 2^64 − 1.
        let path = try Self.zip(w8, zip64: true)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let central = try #require(ZipBytes.lastCentralEntry(bytes))
        let extra = try #require(ZipBytes.zip64Extra(bytes, entry: central))
        // Its fields: those set to 0xFFFFFFFF in the entry, in the order uncompressed, compressed, local offset.
        let fields = [24, 20, 42].filter { ZipBytes.u32(bytes, central + $0) == 0xFFFF_FFFF }
        let local = try #require(fields.firstIndex(of: 42), "zipfile wrote no ZIP64 local offset")
        bytes.replaceSubrange((extra + 4 + 8 * local)..<(extra + 12 + 8 * local), with: Self.le(.max, 8))
        try Self.refuses(w8, bytes, "local.zip", saying: damaged)
    }

    // A member whose bytes changed after it was written: the CRC-32 the directory states no longer matches, and a
    // member that inflates to more or fewer bytes than its directory says. Refused at its end, nothing written.
    @Test func aDamagedMemberIsRefusedByItsChecksumAndItsSize() throws {
        let w8 = try W8Sandbox(timeZone: "Europe/Berlin")
        let stored = try Self.archive(w8, [("apple_health_export/export.xml", "export")], deflated: false)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stored)))
        let central = try #require(ZipBytes.lastCentralEntry(bytes))
        let crc = ZipBytes.u32(bytes, central + 16)
        // One byte of a record's value, in the member's second half: "1" becomes "2", anything else "1".
        let value = try #require(ZipBytes.find(Array(#"value=""#.utf8), in: bytes, from: bytes.count / 2))
        bytes[value + 7] = bytes[value + 7] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        let hex = { (n: UInt32) in String(n, radix: 16) }
        try Self.refuses(w8, bytes, "crc.zip", saying: "export.xml is damaged: its CRC-32 is ")
        #expect(try w8.run("import", w8.root.appendingPathComponent("crc.zip").path).stderr.contains(hex(crc)))

        // The same member, its stated size one byte short: the reader stops at the size, and says so.
        var short = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stored)))
        let size = ZipBytes.u32(short, central + 24)
        short.replaceSubrange((central + 24)..<(central + 28), with: Self.le(UInt64(size - 1), 4))
        try Self.refuses(
            w8, short, "size.zip",
            saying: "export.xml is damaged: it holds \(size) bytes or more, its directory says \(size - 1)")
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

/// Reading a ZIP's bytes in the tests, by APPNOTE.TXT's layout, to damage them on purpose.
enum ZipBytes {
    static let localMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }

    /// Where `needle` first starts in `bytes` at or after `from`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int = 0) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (from...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The last central directory entry (`PK\1\2`).
    static func lastCentralEntry(_ bytes: [UInt8]) -> Int? {
        (0...(bytes.count - 4)).reversed().first { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) }
    }

    /// The ZIP64 extended information (id 0x0001) in the extra field of the central entry at `entry`.
    static func zip64Extra(_ bytes: [UInt8], entry: Int) -> Int? {
        var at = entry + 46 + u16(bytes, entry + 28)
        let end = at + u16(bytes, entry + 30)
        while at + 4 <= end {
            if u16(bytes, at) == 1 { return at }
            at += 4 + u16(bytes, at + 2)
        }
        return nil
    }
}
