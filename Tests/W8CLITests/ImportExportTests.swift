import Foundation
import Testing
import W8TestHarness

/// `w8 export` and `w8 import`, run as built, on the fixture files of `Tests/Fixtures/import`.
@Suite(.ownThread) struct ImportExportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// A copy of `fixture` in `w8`'s sandbox, named `name`, with `text` replaced by `replacement` once at least.
    static func brokenCopy(
        _ fixture: String, in w8: W8Sandbox, as name: String, replacing text: String, with replacement: String
    )
        throws -> String
    {
        let original = try String(contentsOfFile: Self.fixture(fixture), encoding: .utf8)
        let broken = original.replacingOccurrences(of: text, with: replacement)
        #expect(broken != original)
        let file = w8.root.appendingPathComponent(name).path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The database as SQL text: equal dumps mean nothing was written.
    static func dump(_ w8: W8Sandbox) throws -> String {
        let out = try W8Sandbox.running(w8, through: ["sqlite3", w8.databasePath, ".dump"])
        #expect(out.status == 0, "\(out.stderr)")
        return out.stdout
    }

    static func log(_ w8: W8Sandbox) throws -> [[String: Any]] {
        try #require(try w8.json("log") as? [[String: Any]])
    }

    /// Runs `w8 ARGS < file` through the shell: standard input as a pipe would give it.
    static func withInput(_ w8: W8Sandbox, _ file: String, _ arguments: String...) throws -> W8Run {
        try W8Sandbox.running(
            w8, through: ["sh", "-c", "exec \"$0\" \"$@\" < \"$W8_INPUT\"", w8.executable] + arguments,
            environment: ["W8_INPUT": file])
    }

    // Each row: fixture, format name shown, rows, and the oldest entry as `w8 log --json` shows it (entered weight
    // and unit, date in Europe/Berlin, note, body fat). Every row of the app fixtures: AppImportCLITests.
    static let formats: [(String, String, Int, Double, String, String, String?, Double?)] = [
        ("openscale-2.csv", "openScale 2.x CSV", 3, 81.3, "kg", "2021-04-18T11:51:00+02:00", nil, 23.4),
        ("openscale-3-lb.csv", "openScale 3.x CSV", 3, 183.6, "lb", "2026-05-31T22:10:44+02:00", nil, nil),
        ("libra-v6.csv", "Libra export (version 6)", 4, 70.0, "kg", "2023-10-16T07:19:20+02:00", nil, 11.0),
        (
            "trendweight-raw.csv", "TrendWeight export (raw view)", 8, 194.2, "lb", "2025-03-01T07:12:00+01:00", nil,
            22.1
        ),
        ("generic.csv", "date,weight CSV", 3, 82.5, "lb", "2024-03-26T00:00:00+01:00", nil, nil),
        ("generic-semicolon.csv", "date,weight CSV", 3, 82.5, "kg", "2024-03-26T00:00:00+01:00", nil, nil),
    ]

    @Test(arguments: formats)
    func eachFormatIsDetectedImportedAndIdempotent(
        row: (String, String, Int, Double, String, String, String?, Double?)
    ) throws {
        let (name, shown, count, weight, unit, date, note, fat) = row
        let w8 = try W8Sandbox()
        let first = try w8.run("import", Self.fixture(name))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        #expect(first.stdout.contains("as \(shown), detected from its first lines; weights "), "\(first.stdout)")
        #expect(first.stdout.contains("Imported: \(count) added, 0 already present, 0 skipped."), "\(first.stdout)")
        let log = try Self.log(w8)
        #expect(log.count == count)
        let oldest = try #require(log.last)
        #expect(oldest["entered_weight"] as? Double == weight)
        #expect(oldest["entered_unit"] as? String == unit)
        #expect(oldest["date"] as? String == date)
        #expect(oldest["note"] as? String == note)
        #expect(oldest["body_fat_percent"] as? Double == fat)
        let again = try w8.run("import", Self.fixture(name))
        #expect(again.stdout.contains("Imported: 0 added, \(count) already present, 0 skipped."), "\(again.stdout)")
        #expect(try Self.log(w8).count == count)
    }

    @Test func notesWithQuotesAndSeparatorsSurviveOpenScale() throws {
        let w8 = try W8Sandbox()
        try w8.run("import", Self.fixture("openscale-2.csv"))
        let notes = try Self.log(w8).compactMap { $0["note"] as? String }
        #expect(notes == ["after holiday, \"heavy\""])
        let three = try W8Sandbox()
        try three.run("import", Self.fixture("openscale-3-kg.csv"))
        let morning = try Self.log(three)
        #expect(morning.compactMap { $0["note"] as? String } == ["morning, before coffee", "said \"late dinner\""])
        // An empty cell is "not measured".
        #expect(morning.map { $0["body_fat_percent"] is NSNull } == [false, true, true, false])
    }

    // A bad row: each is named with its line and reason, and nothing at all is written.
    @Test func aBadRowMeansNothingIsImported() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        let before = try Self.dump(w8)
        let file = Self.fixture("malformed.csv")
        let result = try w8.run("import", file, "--unit", "kg")
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                "w8: \(file):3: weight 'abc' is not a number; try 182.4 or 82,5kg",
                "w8: \(file):4: date '2024-02-30' is not a date; use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or ISO 8601 with an offset",
                "w8: \(file):5: no weight",
                "w8: \(file):6: date '2999-01-01' is in the future",
                "w8: \(file):7: weight '19' is outside the range 20–700 kg",
                "w8: nothing imported: 5 bad rows in \(file); fix them or give --skip-invalid",
            ])
        #expect(try Self.dump(w8) == before)
    }

    @Test func skipInvalidImportsTheRestAndListsTheSkipped() throws {
        let w8 = try W8Sandbox()
        let file = Self.fixture("malformed.csv")
        let result = try w8.run("import", file, "--unit", "kg", "--skip-invalid", "--json")
        #expect(result.status == 0)
        let summary = try object(try result.json())
        #expect(summary["added"] as? Int == 2)
        #expect(summary["skipped"] as? Int == 5)
        #expect(summary["skipped_lines"] as? [Int] == [3, 4, 5, 6, 7])
        #expect(result.stderrLines.count == 5)
        #expect(result.stderrLines.first == "w8: \(file):3: skipped: weight 'abc' is not a number; try 182.4 or 82,5kg")
        #expect(try Self.log(w8).compactMap { $0["entered_weight"] as? Double } == [81.4, 82.5])
    }

    @Test func dryRunCountsButWritesNothing() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "81.3kg", "--date", "2021-04-18T11:51")
        let before = try Self.dump(w8)
        let result = try w8.run("import", "--dry-run", Self.fixture("openscale-2.csv"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Dry run, nothing written: 2 to add, 1 already present, 0 skipped."),
            "\(result.stdout)")
        #expect(try Self.dump(w8) == before)

        // Without a database, a dry run does not create one.
        let fresh = try W8Sandbox()
        let dry = try fresh.run("import", "--dry-run", Self.fixture("libra-v6.csv"))
        #expect(dry.stdout.contains("4 to add"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: (fresh.databasePath as NSString).deletingLastPathComponent))
    }

    @Test func slashedDatesNeedADateFormat() throws {
        let w8 = try W8Sandbox()
        let refused = try w8.run("import", Self.fixture("generic-us.csv"))
        #expect(refused.status == 65)
        #expect(refused.stderrLines.first?.contains("date '03/26/2024' is ambiguous; give --date-format") == true)
        let read = try w8.run("import", Self.fixture("generic-us.csv"), "--date-format", "MM/DD/YYYY", "--unit", "lb")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            try Self.log(w8).compactMap { $0["date"] as? String } == [
                "2024-03-27T00:00:00+01:00", "2024-03-26T00:00:00+01:00",
            ])
        let bad = try w8.run("import", Self.fixture("generic-us.csv"), "--date-format", "MM/DD")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'MM/DD'"))
    }

    @Test func emptyAndHeaderOnlyFilesImportNothing() throws {
        let w8 = try W8Sandbox()
        for name in ["empty.csv", "header-only.csv"] {
            let result = try w8.run("import", Self.fixture(name))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Imported: 0 added, 0 already present, 0 skipped."), "\(result.stdout)")
        }
        #expect(
            try w8.run("import", Self.fixture("empty.csv")).stdout.hasPrefix(
                "Read \(Self.fixture("empty.csv")): it holds no rows."))
    }

    @Test func unreadableOrUnknownInputIsRefusedInOneLine() throws {
        let w8 = try W8Sandbox()
        let missing = try w8.run("import", "/nonexistent/weights.csv")
        #expect(missing.status == 66)
        #expect(missing.stderr == "w8: cannot read '/nonexistent/weights.csv': No such file or directory\n")
        let unknown = w8.root.appendingPathComponent("other.csv").path
        try "name,height\nann,170\n".write(toFile: unknown, atomically: true, encoding: .utf8)
        let refused = try w8.run("import", unknown)
        #expect(refused.status == 65)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("'name,height'"))
        let conflict = try w8.run("import", Self.fixture("libra-v6.csv"), "--unit", "lb")
        #expect(conflict.status == 65)
        #expect(conflict.stderr == "w8: the file says its weights are in kg but --unit is lb\n")
        let written = FileManager.default.fileExists(atPath: w8.databasePath) ? try Self.log(w8).count : 0
        #expect(written == 0)
    }

    // The CSV round trip: export, import into an empty database, export again: the same text.
    @Test func csvRoundTripsThroughAnEmptyDatabase() throws {
        let a = try W8Sandbox()
        try a.run("add", "182.4", "--date", "2026-11-01T07:30")
        try a.run(
            "add", "82,55kg", "--date", "2026-11-02T07:31:05", "--note", "after run, \"fast\"\nline two", "--body-fat",
            "22.5")
        try a.run("add", "181")  // now: a date with milliseconds
        let file = a.root.appendingPathComponent("weights.csv").path
        let wrote = try a.run("export", "--output", file)
        #expect(wrote.status == 0)
        #expect(wrote.stderr == "w8: wrote \(file)\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            exported.hasPrefix("id,date,weight,unit,note,body_fat_percent\n1,2026-11-01T07:30:00+01:00,182.4,lb,,\n"))
        #expect(
            exported.contains("\n2,2026-11-02T07:31:05+01:00,82.55,kg,\"after run, \"\"fast\"\"\nline two\",22.5\n"))

        let b = try W8Sandbox()
        let imported = try Self.withInput(b, file, "import", "-")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Read standard input as W8Trackr CSV"))
        #expect(imported.stdout.contains("Imported: 3 added, 0 already present, 0 skipped."))
        #expect(try b.run("export").stdout == exported)

        // `w8 export | w8 import -` into the same database adds nothing.
        let piped = try W8Sandbox.running(a, through: ["sh", "-c", "\"$0\" export | \"$0\" import -", a.executable])
        #expect(
            piped.stdout.contains("Imported: 0 added, 3 already present, 0 skipped."), "\(piped.stdout)\(piped.stderr)")
    }

    // The JSON backup restores entries, goal, milestones and settings.
    @Test func jsonBackupRestoresEverything() throws {
        let a = try W8Sandbox()
        try a.run("config", "unit", "kg")
        try a.run("config", "summary.day", "mon")
        try a.run("add", "100", "--date", "2026-10-01")
        try a.run("goal", "80", "--date", "2026-10-01T12:00")
        try a.run("add", "94", "--date", "2026-10-10")  // 30%: 25% achieved
        try a.run("add", "89", "--date", "2026-10-20", "--note", "half")  // 55%: 50% achieved
        let file = a.root.appendingPathComponent("backup.json").path
        #expect(try a.run("export", "--format", "json", "-o", file).status == 0)
        let backup = try object(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(backup["format"] as? String == "w8trackr-backup")
        #expect((backup["entries"] as? [Any])?.count == 3)
        #expect(backup["milestones_achieved"] as? [String] == ["25", "50"])

        let b = try W8Sandbox()
        let restored = try b.run("import", file)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("as W8Trackr JSON backup"))
        #expect(
            restored.stdout.contains(
                "3 added, 0 already present, 0 skipped, 2 achievements restored, 2 settings restored"),
            "\(restored.stdout)")
        for command in ["config", "goal", "milestones", "log", "status"] {
            let left = try a.run(command, "--json").stdout
            let right = try b.run(command, "--json").stdout
            #expect(left == right, "\(command)")
        }
        let again = try b.run("export", "--format", "json").stdout.split(separator: "\n").filter {
            !$0.contains("exported_at")
        }
        let original = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter {
            !$0.contains("exported_at")
        }
        #expect(again == original)
        // Restoring again changes nothing.
        let twice = try b.run("import", file)
        #expect(twice.stdout.contains("Imported: 0 added, 3 already present, 0 skipped."), "\(twice.stdout)")
    }

    /// The backup is read as a stream: one cut short in its entries, or broken in one, is refused in one line naming
    /// the problem, after the entries before it were read, and nothing is written.
    @Test(arguments: [
        ("truncated", "it is not valid JSON"), ("wrong type", "entries[2].weight has a value of the wrong type"),
    ])
    func aBrokenBackupWritesNothing(damage: String, reason: String) throws {
        let a = try W8Sandbox()
        for day in 1...4 { try a.run("add", "\(190 - day)", "--date", "2026-10-0\(day)") }
        let text = try #require(try a.run("export", "--format", "json").stdout)
        let broken =
            damage == "truncated"
            ? String(text.prefix(upTo: try #require(text.range(of: "189.0")?.upperBound)))
            : text.replacingOccurrences(of: "\"weight\":187.0", with: "\"weight\":\"187\"")
        let file = a.root.appendingPathComponent("broken.json").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)

        let b = try W8Sandbox()
        try b.run("add", "200", "--date", "2026-09-01")
        let run = try b.run("import", file)
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "w8: not a W8Trackr backup that can be restored: \(reason)\n")
        #expect(try Self.log(b).count == 1)
    }

    // An import killed in the middle of its transaction (blocked reading a pipe) leaves the database as it was.
    @Test func aKilledImportWritesNothing() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        let rows = w8.root.appendingPathComponent("rows.csv").path
        var text = "date,weight\n"
        for minute in 0..<20_000 {  // a minute apart over two weeks of January 2020
            text += String(format: "2020-01-%02dT%02d:%02d,80.5\n", minute / 1440 + 1, minute / 60 % 24, minute % 60)
        }
        try text.write(toFile: rows, atomically: true, encoding: .utf8)
        let script = """
            mkfifo "$W8_INPUT.fifo"
            "$0" import - --unit kg < "$W8_INPUT.fifo" >/dev/null 2>&1 &
            w8=$!
            exec 3>"$W8_INPUT.fifo"  # held open: once the rows are read, w8 waits for more inside its transaction
            cat "$W8_INPUT" >&3
            sleep 2
            kill -KILL $w8
            wait $w8
            echo "status=$?"
            exit 0
            """
        let killed = try W8Sandbox.running(
            w8, through: ["bash", "-c", script, w8.executable], environment: ["W8_INPUT": rows])
        #expect(killed.stdout == "status=137\n", "\(killed.stdout)\(killed.stderr)")
        #expect(try Self.log(w8).count == 1)
        let check = try W8Sandbox.running(w8, through: ["sqlite3", w8.databasePath, "PRAGMA integrity_check"])
        #expect(check.stdout == "ok\n")
        let again = try w8.run("import", rows, "--unit", "kg")
        #expect(again.stdout.contains("Imported: 20000 added, 0 already present"), "\(again.stdout)\(again.stderr)")
    }

    @Test func withTrendAddsTheTrendWeight() throws {
        let w8 = try W8Sandbox()
        try w8.run("import", Self.fixture("trendweight-raw.csv"))
        let clock = "2025-03-15 12:00:00"
        let csv = try w8.run(clock: clock, ["export", "--with-trend"]).stdout
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "id,date,weight,unit,note,body_fat_percent,trend_weight,trend_unit")
        #expect(lines[1].hasSuffix(",194.2,lb"))  // the first trend is the first weight
        let status = try object(try w8.run(clock: clock, ["status", "--json"]).json())
        let trend = try #require(status["trend_weight"] as? Double)
        #expect(lines.last?.hasSuffix(",\(trend),lb") == true, "\(csv) \(trend)")
    }
}

/// History brought in by an import does not set off a storm of notifications: through dunst, under a frozen clock.
@Suite(.serialized, .ownThread) struct ImportNotificationTests {
    static let now = "2026-11-21 12:00:00"

    @Test func historyIsRecordedQuietlyAndTodayNotifiesOnce() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let clock = Self.now
        try w8.run(clock: clock, ["add", "200", "--date", "2026-10-01T07:00"])
        try w8.run(clock: clock, ["goal", "160", "--date", "2026-10-01T12:00"])
        let history = w8.root.appendingPathComponent("history.csv").path
        try "date,weight\n2026-10-05,190\n2026-10-10,180\n2026-10-15,170\n".write(
            toFile: history, atomically: true, encoding: .utf8)
        let quiet = try w8.run(clock: clock, ["import", history, "--unit", "lb", "--json"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        let summary = try object(try quiet.json())
        #expect(summary["achieved"] as? [String] == ["25", "50", "75"])
        #expect(summary["notified"] is NSNull)
        let milestones = try #require(try w8.json("milestones") as? [[String: Any]])
        #expect(milestones.allSatisfy { $0["notification_sent"] as? Bool == false })
        #expect(Set(milestones.compactMap { $0["date_achieved"] as? String }) == ["2026-10-15T00:00:00+02:00"])

        let today = w8.root.appendingPathComponent("today.csv").path
        try "date,weight\n2026-11-20T07:00,163\n2026-11-21T07:00,159\n".write(
            toFile: today, atomically: true, encoding: .utf8)
        let loud = try w8.run(clock: clock, ["import", today, "--unit", "lb", "--json"])
        #expect(loud.status == 0, "\(loud.stderr)")
        #expect(try object(try loud.json())["notified"] as? String == "100")
        let shown = try dunst.history()
        #expect(shown.map(\.summary) == ["Goal achieved! You reached 160.0 lb"])
    }
}
