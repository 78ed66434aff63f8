import Foundation
import Testing
import W8Core
import W8TestHarness

/// The day this file's history is told from: the test clock's Monday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let monday = TestClock.daysBack(to: 2)

/// The contract of `w8 steps`, `w8 activity`, `activity.step_goal` and the steps of `w8 today`, on the built
/// binary at noon on a fixed day.
@Suite(.ownThread) struct ActivityCLITests {
    @discardableResult
    func at(_ w8: W8Sandbox, _ arguments: String...) throws -> W8Run {
        let run = try intakeRun(w8, at: IntakeCLITests.noon, arguments)
        #expect(run.status == 0, "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    /// Every shown day, from 1900 on.
    func allDays(_ w8: W8Sandbox) throws -> String { try at(w8, "activity", "--days", "60000", "--json").stdout }

    @Test func aNewManualTotalForTheDayReplacesTheOld() throws {
        let w8 = try W8Sandbox()
        #expect(try at(w8, "steps", "6500").stdout == "Recorded 6500 steps for \(TestClock.shown(monday)).\n")

        let again = try at(w8, "steps", "7200", "--date", "\(TestClock.day(monday))")

        #expect(again.stdout == "Recorded 7200 steps for \(TestClock.shown(monday)) (replacing 6500).\n")
        #expect(again.stderr.isEmpty)
        try at(w8, "steps", "300", "--date", "\(TestClock.day(monday - 2))")
        #expect(
            try at(w8, "activity").stdout == """
                \(TestClock.shown(monday))  7200 steps
                \(TestClock.shown(monday - 2))  300 steps

                """)
        // On the same clock as the rest: `w8 activity` counts its 7 days back from the clock's day.
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(at(w8, "activity", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["steps"] as? Int } == [7200, 300])
        // The day as `activity --json` shows it, and what it replaced.
        let json = try at(w8, "steps", "8000", "--json").stdout
        #expect(
            json == """
                {
                  "date": "\(TestClock.day(monday))",
                  "steps": 8000,
                  "distance_m": 0,
                  "replaced_steps": 7200
                }

                """)
    }

    @Test func theActivityLogGoesOutAsCSVAndThroughTheBackupIntoAnotherHome() throws {
        let w8 = try W8Sandbox()
        try at(w8, "steps", "7200", "--date", "\(TestClock.day(monday - 2))")
        try at(w8, "steps", "300", "--date", "\(TestClock.day(monday))")
        #expect(
            try at(w8, "export", "--activity").stdout == """
                date,source,steps,distance_m
                \(TestClock.day(monday - 2)),manual,7200,0
                \(TestClock.day(monday)),manual,300,0

                """)
        let backup = w8.root.appendingPathComponent("backup.json").path
        try at(w8, "export", "--format", "json", "--output", backup)
        let other = try W8Sandbox()
        let imported = try at(other, "import", backup)
        #expect(imported.stdout.contains("Activity log: 2 days of steps added, 0 days already present."))
        #expect(try at(other, "activity", "--json").stdout == at(w8, "activity", "--json").stdout)
        let again = try at(other, "import", backup, "--json")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["activity_days_added"] as? Int == 0 && summary["activity_days_present"] as? Int == 2)
        let refused = try intakeRun(w8, at: IntakeCLITests.noon, ["export", "--activity", "--intake"])
        #expect(refused.status == 64 && refused.stderr.contains("--intake and --activity"))
    }

    @Test func activityJSONIsAnArrayOfDateStepsAndDistanceInThatOrder() throws {
        let w8 = try W8Sandbox()
        #expect(try at(w8, "activity", "--json").stdout == "[]\n")
        #expect(
            try at(w8, "activity").stdout
                == "No steps recorded in those days. Record a day's total with 'w8 steps 8000'.\n")
        try at(w8, "steps", "12000", "--date", "\(TestClock.day(monday - 7))")  // 8 days back: outside the default 7
        try at(w8, "steps", "4000", "--date", "\(TestClock.day(monday - 6))")
        try at(w8, "steps", "9001")

        let run = try at(w8, "activity", "--json")

        #expect(
            run.stdout == """
                [
                  {
                    "date": "\(TestClock.day(monday))",
                    "steps": 9001,
                    "distance_m": 0
                  },
                  {
                    "date": "\(TestClock.day(monday - 6))",
                    "steps": 4000,
                    "distance_m": 0
                  }
                ]

                """)
        let month = try #require(try at(w8, "activity", "--days", "30", "--json").json() as? [[String: Any]])
        #expect(
            month.map { $0["date"] as? String } == [
                "\(TestClock.day(monday))", "\(TestClock.day(monday - 6))", "\(TestClock.day(monday - 7))",
            ])
        #expect(try at(w8, "activity", "--days", "1").stdout == "\(TestClock.shown(monday))  9001 steps\n")
    }

    @Test func todayJSONAddsStepsStepGoalAndDistanceAfterTheIntakeKeys() throws {
        let w8 = try W8Sandbox()
        let empty = try #require(try at(w8, "today", "--json").json() as? [String: Any])
        #expect(empty["steps"] as? Int == 0)
        #expect(empty["step_goal"] is NSNull)
        #expect(empty["distance_m"] as? Int == 0)

        try at(w8, "steps", "6000")
        try at(w8, "config", "activity.step_goal", "8000")
        let run = try at(w8, "today", "--json")

        let keys = run.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "\"", maxSplits: 2).dropFirst().first.map(String.init)
        }
        #expect(
            keys == [
                "date", "water_ml", "water_goal_ml", "beverage_ml", "beverage_goal_ml", "meals", "meal_goal", "snacks",
                "snack_goal", "calories", "calorie_goal", "steps", "step_goal", "distance_m",
            ])
        #expect(run.stdout.hasSuffix("  \"steps\": 6000,\n  \"step_goal\": 8000,\n  \"distance_m\": 0\n}\n"))
        // Another day: its own steps, none here.
        let yesterday = try #require(
            try at(w8, "today", "--date", "\(TestClock.day(monday - 1))", "--json").json() as? [String: Any])
        #expect(yesterday["steps"] as? Int == 0)
    }

    @Test func todayShowsAStepsBarWhenAGoalIsSet() throws {
        let w8 = try W8Sandbox()
        try at(w8, "steps", "6000")
        #expect(try at(w8, "today").stdout.contains("\nSteps        6000 steps (no goal)\n"))

        try at(w8, "config", "activity.step_goal", "8000")

        let today = try at(w8, "today").stdout
        #expect(today.contains("\nSteps        ███████████████░░░░░  6000 steps of 8000 steps  75%\n"), "\(today)")
        try at(w8, "steps", "8000")
        #expect(try at(w8, "today").stdout.contains("  8000 steps of 8000 steps  100% ✓\n"))
        #expect(try at(w8, "steps", "4000").stdout.hasSuffix("(replacing 8000). 4000 of 8000 steps (50%).\n"))
    }

    /// `w8 summary`: the average steps a day over the 7 local days up to today; null when none were recorded.
    @Test func summaryAveragesTheWeeksSteps() throws {
        let w8 = try W8Sandbox()
        let empty = try #require(try at(w8, "summary", "--json").json() as? [String: Any])
        #expect(empty["avg_steps_per_day"] is NSNull)

        try at(w8, "steps", "9000", "--date", "\(TestClock.day(monday - 7))")  // the 8th day back: not in the week
        try at(w8, "steps", "7000", "--date", "\(TestClock.day(monday - 6))")
        try at(w8, "steps", "7000")
        let summary = try #require(try at(w8, "summary", "--json").json() as? [String: Any])

        #expect(summary["avg_steps_per_day"] as? Int == 2000)  // 14000 / 7
        #expect((summary["body"] as? String)?.hasSuffix(" Steps: 2000 a day.") == true)
    }

    @Test func widgetTooltipShowsTodaysStepsWhenAGoalIsSet() throws {
        let w8 = try W8Sandbox()
        try at(w8, "steps", "6000")
        func tooltip() throws -> String {
            let line = try at(w8, "widget", "--format", "waybar").stdout
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(object?["tooltip"] as? String)
        }
        #expect(!(try tooltip()).contains("Steps"))

        try at(w8, "config", "activity.step_goal", "8000")

        #expect(try tooltip().hasSuffix("\nSteps 6000 of 8000 today (75%)"))
    }

    @Test(
        "Bad input exits 65 with one stderr line naming the value, and writes nothing",
        arguments: [
            (["steps", "-5"], "'-5'"), (["steps", "abc"], "'abc'"), (["steps", "200001"], "'200001'"),
            (["steps", "8000.5"], "'8000.5'"),
            (["steps", "100", "--date", "\(TestClock.day(monday + 1))"], "'\(TestClock.day(monday + 1))'"),
            (["steps", "100", "--date", "1899-12-31"], "'1899-12-31'"),
            (["steps", "100", "--date", "yesterday"], "'yesterday'"),
        ])
    func badInput(arguments: [String], named: String) throws {
        let w8 = try W8Sandbox()
        try at(w8, "steps", "5000")
        try expectRefused(w8, arguments, naming: named) { try allDays(w8) }
    }

    @Test("activity.step_goal takes 0 to 100000; another value is refused with the value named, the file unchanged")
    func stepGoalRange() throws {
        let w8 = try W8Sandbox()
        #expect(try at(w8, "config", "activity.step_goal").stdout.contains("0"))
        try at(w8, "config", "activity.step_goal", "100000")
        try at(w8, "config", "activity.step_goal", "0")
        try at(w8, "config", "activity.step_goal", "8000")
        let file = try String(contentsOfFile: w8.configPath, encoding: .utf8)

        for bad in ["100001", "-1", "abc", "8000.5"] {
            let run = try intakeRun(w8, at: IntakeCLITests.noon, ["config", "activity.step_goal", bad])
            #expect(run.status != 0)
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("'\(bad)'") && run.stderr.contains("activity.step_goal"), "\(run.stderr)")
        }

        #expect(try String(contentsOfFile: w8.configPath, encoding: .utf8) == file)
        let json = try #require(try w8.json("config", "activity.step_goal", "--json") as? [String: Any])
        #expect(json["activity.step_goal"] as? Int == 8000)
    }

    @Test func helpSaysWhatStepsAndActivityDo() throws {
        let w8 = try W8Sandbox()
        // As one line: the help is wrapped to the terminal's width.
        func help(_ command: String) throws -> String {
            try at(w8, command, "--help").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let steps = try help("steps")
        #expect(steps.contains("Record a day's steps by hand; a new total for the day replaces the old one."))
        #expect(steps.contains("USAGE: w8 steps <steps> [--date <date>] [--json]"))
        let activity = try help("activity")
        #expect(activity.contains("List the days' steps and distance, newest first."))
        #expect(activity.contains("--days"))
    }
}
