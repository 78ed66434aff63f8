import Foundation
import Testing
import W8App
import W8Core
import W8Formats
import W8Store
import W8TestSupport

/// Export, import and the backup round trip, on real databases and files in a temporary directory.
@Suite struct TransferTests {
    let calendar = PinnedCalendar.berlin
    let now: Date
    let directory: TemporaryDirectory

    init() throws {
        now = calendar.date(2026, 11, 23, 12)
        directory = try TemporaryDirectory()
    }

    func database(_ name: String) throws -> AppDatabase {
        try AppDatabase.open(at: directory.appending("\(name).sqlite"))
    }

    func exporter(_ database: AppDatabase, settings: Settings = Settings()) -> Exporter {
        Exporter(
            database: database, settings: settings, calendar: calendar, now: now, w8Version: "test")
    }

    func tracker(_ database: AppDatabase) -> Tracker {
        Tracker(
            database: database, sink: InMemoryNotificationSink(),
            context: EvaluationContext(now: now, calendar: calendar, settings: Settings()),
            statusBar: CountingStatusBar())
    }

    func importer(_ database: AppDatabase, config: String = "config.toml") -> Importer {
        Importer(tracker: tracker(database), config: ConfigFile(path: directory.appending(config)))
    }

    var options: ImportOptions { ImportOptions(preferredUnit: .lb, now: now, calendar: calendar) }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: directory.appending(name), encoding: .utf8)
    }

    /// A database with a goal, three weigh-ins (one in kg, one with a note that needs quoting), a drink and a meal.
    func seeded() throws -> AppDatabase {
        let db = try database("a")
        let tracker = tracker(db)
        _ = try tracker.add(
            WeightEntry(weight: Weight(200, .lb), date: calendar.date(2026, 11, 1, 7)))
        _ = try tracker.setGoal(Weight(160, .lb), at: calendar.date(2026, 11, 1, 8))
        _ = try tracker.add(
            WeightEntry(weight: Weight(86.5, .kg), date: calendar.date(2026, 11, 10, 7), note: "a, \"b\"\nc"))
        _ = try tracker.add(
            WeightEntry(weight: Weight(189.2, .lb), date: calendar.date(2026, 11, 20, 7), bodyFatPercent: 24.5))
        _ = try db.addIntake(
            IntakeEvent(kind: .water, date: calendar.date(2026, 11, 20, 9), volume: 250), goals: IntakeSettings(),
            notify: false, now: now, calendar: calendar)
        _ = try db.addIntake(
            IntakeEvent(kind: .meal, date: calendar.date(2026, 11, 20, 13), calories: 700, note: "soup"),
            goals: IntakeSettings(), notify: false, now: now, calendar: calendar)
        return db
    }

    @Test("CSV: the header, then each entry oldest first, as entered, quoted where needed")
    func csv() throws {
        defer { directory.remove() }
        try exporter(try seeded()).export(
            .csv, withTrend: false, to: TextOutput.replacing(directory.appending("out.csv")))
        let lines = try read("out.csv").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "id,date,weight,unit,note,body_fat_percent")
        #expect(lines[1] == "1,2026-11-01T07:00:00+01:00,200.0,lb,,")
        #expect(lines[2] == "2,2026-11-10T07:00:00+01:00,86.5,kg,\"a, \"\"b\"\"")
        #expect(lines[4] == "3,2026-11-20T07:00:00+01:00,189.2,lb,,24.5")
    }

    @Test("CSV: notes with blanks at either end and every line break come back from export and import as written")
    func notesRoundTripThroughCSV() throws {
        defer { directory.remove() }
        let notes = [" x ", "a\rb", "a\r\nb", "c\n", "\td"]
        let db = try database("notes")
        let tracker = tracker(db)
        for (day, note) in notes.enumerated() {
            _ = try tracker.add(
                WeightEntry(weight: Weight(180, .lb), date: calendar.date(2026, 11, 1 + day, 7), note: note))
        }
        try exporter(db).export(.csv, withTrend: false, to: TextOutput.replacing(directory.appending("notes.csv")))
        let restored = try database("restored")
        _ = try importer(restored).run(
            try InputFile(directory.appending("notes.csv")), format: .auto, options: options, dryRun: false,
            skipInvalid: false, problem: { Issue.record("problem: \($0)") })
        var read: [[UInt32]] = []
        try restored.forEachEntry { read.append(($0.note ?? "").unicodeScalars.map(\.value)) }
        #expect(read == notes.map { $0.unicodeScalars.map(\.value) })
    }

    @Test("The intake CSV lists every event with its columns; the activity CSV every source's row of every day")
    func logCSVs() throws {
        defer { directory.remove() }
        let db = try seededWithActivity()
        try exporter(db).exportIntake(to: TextOutput.replacing(directory.appending("intake.csv")))
        try exporter(db).exportActivity(to: TextOutput.replacing(directory.appending("activity.csv")))
        #expect(
            try read("intake.csv") == """
                id,date,kind,volume_ml,calories,note
                1,2026-11-20T09:00:00+01:00,water,250,0,
                2,2026-11-20T13:00:00+01:00,meal,,700,soup
                3,2026-11-20T19:00:00+01:00,calories,,450,

                """)
        #expect(
            try read("activity.csv") == """
                date,source,steps,distance_m
                2026-11-19,gadgetbridge,4200,3100
                2026-11-20,apple-health,7950,6012
                2026-11-20,manual,8100,0

                """)
    }

    @Test("The JSON backup restores entries, goal, achievements, intake and settings; its re-export is the same")
    func backupRoundTrip() throws {
        defer { directory.remove() }
        var settings = Settings()
        settings.unit = .kg
        settings.intake.waterGoal = 2500
        try exporter(try seeded(), settings: settings).export(
            .json, withTrend: false, to: TextOutput.replacing(directory.appending("backup.json")))

        let restored = try database("b")
        let summary = try importer(restored).run(
            try InputFile(directory.appending("backup.json")), format: .auto, options: options, dryRun: false,
            skipInvalid: false, problem: { Issue.record("problem: \($0)") })
        let again = try ConfigFile(path: directory.appending("config.toml")).load()
        try exporter(restored, settings: again).export(
            .json, withTrend: false, to: TextOutput.replacing(directory.appending("again.json")))

        #expect(summary.result.added == 3 && summary.result.intakeRestored == 2)
        #expect(summary.settingsRestored == 2)
        #expect(again.unit == .kg && again.intake.waterGoal == 2500)
        #expect(try read("again.json") == read("backup.json"))
        // And a second import adds nothing.
        let second = try importer(restored).run(
            try InputFile(directory.appending("backup.json")), format: .w8JSON, options: options, dryRun: false,
            skipInvalid: false, problem: { _ in })
        #expect(second.result.added == 0 && second.result.present == 3 && second.result.intakeRestored == 0)
    }

    /// `seeded()` with days of steps from two sources and calories eaten that are no meal.
    func seededWithActivity() throws -> AppDatabase {
        let db = try seeded()
        let day = CalendarDay(year: 2026, month: 11, day: 20)!
        try db.write { transaction in
            try transaction.saveActivity(ActivityDay(day: day, steps: 8100, source: .manual), updatedAt: now)
            try transaction.saveActivity(
                ActivityDay(day: day, steps: 7950, distance: 6012, source: ActivitySource(rawValue: "apple-health")),
                updatedAt: now)
            try transaction.saveActivity(
                ActivityDay(
                    day: day.adding(days: -1, calendar: calendar), steps: 4200, distance: 3100,
                    source: ActivitySource(rawValue: "gadgetbridge")), updatedAt: now)
        }
        _ = try db.addIntake(
            IntakeEvent(kind: .calories, date: calendar.date(2026, 11, 20, 19), calories: 450),
            goals: IntakeSettings(), notify: false, now: now, calendar: calendar)
        return db
    }

    @Test("Backup version 3 carries the activity log and calories eaten; a re-import adds nothing")
    func backupCarriesActivity() throws {
        defer { directory.remove() }
        try exporter(try seededWithActivity()).export(
            .json, withTrend: false, to: TextOutput.replacing(directory.appending("backup.json")))
        #expect(try read("backup.json").contains("\"version\": 3,"))
        let restored = try database("b")
        let first = try importer(restored).run(
            try InputFile(directory.appending("backup.json")), format: .auto, options: options, dryRun: false,
            skipInvalid: false, problem: { Issue.record("problem: \($0)") })
        #expect(first.result.activityAdded == 3 && first.result.intakeRestored == 3)
        let days = try restored.activityDays(
            from: CalendarDay(year: 2026, month: 11, day: 1)!, to: CalendarDay(year: 2026, month: 11, day: 30)!)
        #expect(
            days.map { "\($0.day) \($0.source.rawValue) \($0.steps) \($0.distance)" } == [
                "2026-11-20 apple-health 7950 6012", "2026-11-20 manual 8100 0", "2026-11-19 gadgetbridge 4200 3100",
            ])
        #expect(try restored.allIntake().map(\.kind) == [.water, .meal, .calories])
        try exporter(restored).export(
            .json, withTrend: false, to: TextOutput.replacing(directory.appending("again.json")))
        #expect(try read("again.json") == read("backup.json"))
        let second = try importer(restored).run(
            try InputFile(directory.appending("backup.json")), format: .w8JSON, options: options, dryRun: false,
            skipInvalid: false, problem: { _ in })
        #expect(second.result.activityAdded == 0 && second.result.activityPresent == 3)
    }

    @Test("A version 2 backup, without activity, is still read")
    func versionTwoIsRead() throws {
        defer { directory.remove() }
        let file = directory.appending("v2.json")
        try """
        {"format": "w8trackr-backup", "version": 2, "intake": [{"kind": "water", "date": "2026-11-20T09:00:00+01:00",
          "volume_ml": 250, "calories": 0}], "entries": [{"date": "2026-11-01T07:00:00+01:00", "weight": 200.0,
          "unit": "lb"}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let db = try database("v2")
        let summary = try importer(db).run(
            try InputFile(file), format: .auto, options: options, dryRun: false, skipInvalid: false,
            problem: { Issue.record("problem: \($0)") })
        #expect(summary.result.added == 1 && summary.result.intakeRestored == 1 && summary.result.activityAdded == 0)
    }

    @Test("A backup's bad activity day is refused by its place, and nothing is written")
    func badActivityInBackup() throws {
        defer { directory.remove() }
        let file = directory.appending("bad.json")
        try """
        {"format": "w8trackr-backup", "version": 3, "activity": [{"day": "2026-11-20", "source": "manual",
          "steps": 5, "distance_m": 0}, {"day": "2026-11-20", "source": "manual", "steps": 250001, "distance_m": 0}],
          "entries": [{"date": "2026-11-01T07:00:00+01:00", "weight": 200.0, "unit": "lb"}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let db = try database("bad")
        #expect {
            try importer(db).run(
                try InputFile(file), format: .auto, options: options, dryRun: false, skipInvalid: false,
                problem: { _ in })
        } throws: {
            "\($0.localizedDescription)".contains("activity 2:") && "\($0.localizedDescription)".contains("250001")
        }
        #expect(try db.entryCount() == 0)
    }

    @Test("A bad row is told as FILE:LINE and nothing is written; --skip-invalid imports the rest")
    func badRows() throws {
        defer { directory.remove() }
        let file = directory.appending("in.csv")
        try "date,weight\n2026-11-01,180\n2026-11-02,abc\n2026-11-03,179\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let db = try database("c")
        var problems: [String] = []

        #expect(throws: AppError.self) {
            try importer(db).run(
                try InputFile(file), format: .auto, options: options, dryRun: false, skipInvalid: false,
                problem: { problems.append($0) })
        }
        #expect(problems == ["\(file):3: weight 'abc' is not a number; try 182.4 or 82,5kg"])
        #expect(try db.entryCount() == 0)

        let summary = try importer(db).run(
            try InputFile(file), format: .auto, options: options, dryRun: false, skipInvalid: true, problem: { _ in })
        #expect(summary.result.added == 2 && summary.report.skipped.map(\.line) == [3])
    }

    @Test("A dry run counts exactly and writes nothing")
    func dryRun() throws {
        defer { directory.remove() }
        let file = directory.appending("in.csv")
        try "date,weight\n2026-11-01,180\n2026-11-02,179\n".write(toFile: file, atomically: true, encoding: .utf8)
        let db = try database("d")
        let summary = try importer(db).run(
            try InputFile(file), format: .generic, options: options, dryRun: true, skipInvalid: false, problem: { _ in }
        )
        #expect(summary.result.added == 2)
        #expect(try db.entryCount() == 0)
    }
}
