import Foundation
import Testing
import W8Core
import W8TestHarness

/// The day this file's history is told from: the test clock's Monday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let monday = TestClock.daysBack(to: 2)

/// Runs the built `w8` with the wall clock starting at `start` (local time, libfaketime), so the day is fixed.
func intakeRun(_ w8: W8Sandbox, at start: String, _ arguments: [String]) throws -> W8Run {
    try w8.run(clock: "@\(start)", arguments)
}

/// Runs `arguments` at noon on the intake tests' day and expects them refused: exit 65, one stderr line naming
/// `value`, nothing on stdout, and `stored` (what the command could have changed) read the same after.
func expectRefused(
    _ w8: W8Sandbox, _ arguments: [String], naming value: String, stored: () throws -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let before = try stored()
    let run = try intakeRun(w8, at: IntakeCLITests.noon, arguments)
    #expect(run.status == 65, sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(run.stderrLines.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(
        run.stderr.hasPrefix("w8: ") && run.stderr.contains(value), "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(try stored() == before, sourceLocation: sourceLocation)
}

/// The contract of `w8 drink`, `w8 eat`, `w8 today` and `w8 intake` on the built binary, on a fixed day.
@Suite(.ownThread) struct IntakeCLITests {
    static let noon = "\(TestClock.day(monday)) 12:00:00"

    @discardableResult
    func at(_ w8: W8Sandbox, _ arguments: String..., time: String = IntakeCLITests.noon) throws -> W8Run {
        let run = try intakeRun(w8, at: time, arguments)
        #expect(run.status == 0, "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    /// A command's `--json` object at noon.
    func object(_ w8: W8Sandbox, _ arguments: String...) throws -> [String: Any] {
        try #require(try at(w8, arguments + ["--json"]).json() as? [String: Any])
    }

    func at(_ w8: W8Sandbox, _ arguments: [String]) throws -> W8Run {
        let run = try intakeRun(w8, at: IntakeCLITests.noon, arguments)
        #expect(run.status == 0, "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    /// Every event, from well before 1900 to any future date.
    func allEvents(_ w8: W8Sandbox) throws -> String {
        try at(w8, "intake", "--days", "60000", "--json").stdout
    }

    @Test func todayJSONContract() throws {
        let w8 = try W8Sandbox()
        try at(w8, "drink", "500", "--date", "\(TestClock.day(monday))T08:00")
        try at(w8, "drink", "330ml", "--beverage", "--calories", "140", "--date", "\(TestClock.day(monday))T09:00")
        try at(w8, "eat", "meal", "--calories", "600", "--date", "\(TestClock.day(monday))T11:00")
        try at(w8, "eat", "snack", "--date", "\(TestClock.day(monday))T10:00")
        try at(w8, "drink", "1l", "--date", "\(TestClock.day(monday - 1))T20:00")  // yesterday: not today's

        let run = try at(w8, "today", "--json")

        #expect(
            run.stdout == """
                {
                  "date": "\(TestClock.day(monday))",
                  "water_ml": 500,
                  "water_goal_ml": 2000,
                  "beverage_ml": 330,
                  "beverage_goal_ml": null,
                  "meals": 1,
                  "meal_goal": 3,
                  "snacks": 1,
                  "snack_goal": 2,
                  "calories": 740,
                  "calorie_goal": null,
                  "steps": 0,
                  "step_goal": null,
                  "distance_m": 0
                }

                """)
        #expect(run.stderr.isEmpty)
        // Goals set: numbers; a goal switched off: null. Another day by --date.
        try at(w8, "config", "intake.calorie_goal", "1800")
        try at(w8, "config", "intake.beverage_goal_ml", "500")
        try at(w8, "config", "intake.meal_goal", "0")
        let goals = try object(w8, "today")
        #expect(goals["calorie_goal"] as? Int == 1800)
        #expect(goals["beverage_goal_ml"] as? Int == 500)
        #expect(goals["meal_goal"] is NSNull)
        let yesterday = try object(w8, "today", "--date", "\(TestClock.day(monday - 1))")
        #expect(yesterday["date"] as? String == "\(TestClock.day(monday - 1))")
        #expect(yesterday["water_ml"] as? Int == 1000)
    }

    @Test(
        "Bad input exits 65 with one stderr line naming the value, and writes nothing",
        arguments: [
            (["drink", "-5"], "'-5'"), (["drink", "abc"], "'abc'"), (["drink", "20l"], "'20l'"),
            (["eat", "dessert"], "'dessert'"), (["eat", "meal", "--calories", "-1"], "'-1'"),
            (["drink", "--date", "\(TestClock.day(monday + 1))"], "'\(TestClock.day(monday + 1))'"),
            (["drink", "cup", "--date", "\(TestClock.day(monday))T12:06"], "'\(TestClock.day(monday))T12:06'"),
            (["eat", "snack", "--date", "1899-12-31"], "'1899-12-31'"), (["drink", "0"], "'0'"),
        ])
    func badInput(arguments: [String], named: String) throws {
        let w8 = try W8Sandbox()
        try at(w8, "drink", "250", "--date", "\(TestClock.day(monday))T08:00")
        try expectRefused(w8, arguments, naming: named) { try allEvents(w8) }
    }

    @Test func removeAnEvent() throws {
        let w8 = try W8Sandbox()
        try at(w8, "drink", "250", "--date", "\(TestClock.day(monday))T08:00")
        let second = try object(w8, "drink", "500")
        let id = try #require((second["event"] as? [String: Any])?["id"] as? Int)

        let removed = try at(w8, "intake", "rm", "\(id)")

        #expect(
            removed.stdout
                == "Removed 500 ml water on \(TestClock.shown(monday)) 12:00 (id \(id)). Water 250 of 2000 ml today (12%).\n"
        )
        let left = try #require(try at(w8, "intake", "--json").json() as? [[String: Any]])
        #expect(left.map { $0["volume_ml"] as? Int } == [250])
        // An unknown id, or the same one again: refused with the id named, nothing changed.
        for unknown in ["\(id)", "999"] {
            let run = try intakeRun(w8, at: IntakeCLITests.noon, ["intake", "rm", unknown])
            #expect(run.status == 65)
            #expect(run.stderr == "w8: no intake event with id \(unknown); 'w8 intake' lists the ids\n")
        }
        #expect(try allEvents(w8).contains("\"volume_ml\": 250"))
    }

    @Test func amountsInOuncesCupsAndBottles() throws {
        let w8 = try W8Sandbox()
        let ounces = try object(w8, "drink", "12oz")
        #expect((ounces["event"] as? [String: Any])?["volume_ml"] as? Int == 355)
        try at(w8, "config", "intake.bottle_ml", "750")
        #expect(
            try at(w8, "drink", "bottle").stdout == "Logged 750 ml water (id 2). Water 1105 of 2000 ml today (55%).\n")
        try at(w8, "config", "intake.cup_ml", "300")
        #expect(try at(w8, "drink", "2cups").stdout.hasPrefix("Logged 600 ml water (id 3)."))
    }

    @Test func volumesShownInOunces() throws {
        let w8 = try W8Sandbox()
        try at(w8, "config", "intake.volume_unit", "oz")
        // Amounts are still read in any unit and kept in ml; only the display changes.
        #expect(
            try at(w8, "drink", "250").stdout
                == "Logged 8.5 oz water (id 1). Water 8.5 oz of 67.6 oz today (12%).\n")
        let today = try at(w8, "today").stdout
        #expect(today.contains("Water        ██░░░░░░░░░░░░░░░░░░  8.5 oz of 67.6 oz  12%"), "\(today)")
        let json = try object(w8, "today")
        #expect(json["water_ml"] as? Int == 250)
        #expect(try at(w8, "intake").stdout.hasSuffix("8.5 oz water\n"))
    }

    /// `w8 summary --json`: the week's averages per day over its 7 days, null when nothing was logged.
    @Test func summaryAveragesTheWeek() throws {
        let w8 = try W8Sandbox()
        let empty = try object(w8, "summary")
        #expect(empty["avg_water_ml_per_day"] is NSNull)
        #expect(empty["avg_meals_per_day"] is NSNull)

        // The window is the 7 days up to now: from 2026-11-16 12:00.
        try at(w8, "drink", "2l", "--date", "\(TestClock.day(monday - 7))T11:59")  // before the window
        try at(w8, "drink", "1l", "--date", "\(TestClock.day(monday - 7))T12:01")
        try at(w8, "drink", "2500ml", "--date", "\(TestClock.day(monday - 3))T09:00")
        try at(w8, "drink", "500", "--beverage", "--date", "\(TestClock.day(monday - 2))T09:00")  // not water
        for day in [
            "\(TestClock.day(monday - 6))T12:00", "\(TestClock.day(monday - 5))T12:00",
            "\(TestClock.day(monday - 5))T19:00",
        ] {
            try at(w8, "eat", "meal", "--date", day)
        }
        try at(w8, "eat", "snack", "--date", "\(TestClock.day(monday - 4))T15:00")  // not a meal
        let summary = try object(w8, "summary")

        #expect(summary["avg_water_ml_per_day"] as? Int == 500)  // 3500 ml / 7
        #expect(summary["avg_meals_per_day"] as? Double == 0.4)  // 3 / 7
        #expect((summary["body"] as? String)?.hasSuffix(" Daily average: 500 ml water, 0.4 meals.") == true)
    }
}

/// The intake log through a real dunst: "Water goal reached!", and the reminders the daemon skips or moves.
@Suite(.serialized, .ownThread) struct IntakeDunstTests {
    @Test func eightCupsPostOneWaterGoalReached() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        var notified: [Bool] = []
        for minute in 0..<9 {
            let run = try intakeRun(
                w8, at: String(format: "\(TestClock.day(monday)) 10:%02d:00", minute), ["drink", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let change = try #require(try run.json() as? [String: Any])
            notified.append(change["water_goal_notified"] as? Bool ?? false)
        }

        #expect(notified == [false, false, false, false, false, false, false, true, false])
        let shown = try dunst.history()
        #expect(shown.map(\.summary) == ["Water goal reached!"])
        #expect(shown.first?.category == "x-w8trackr.intake")
        #expect(shown.first?.displayedBody == "2000 ml today, your goal is 2000 ml. Well done!")
    }

    func hydrationOn(_ w8: W8Sandbox) throws {
        for (key, value) in [("reminders.hydration", "true"), ("summary.enabled", "false")] {
            #expect(try w8.run("config", key, value).status == 0)
        }
    }

    @Test func hydrationReminderSkippedAfterTheGoalIsMet() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try hydrationOn(w8)
        for _ in 0..<8 { #expect(try intakeRun(w8, at: "\(TestClock.day(monday)) 06:00:00", ["drink"]).status == 0) }

        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(monday)) 08:59:58")
        defer { daemon.stop() }
        try daemon.waitForLog(
            "hydration@\(TestClock.day(monday))T09:00: skipped: the day's water goal is met (2000 ml of 2000 ml)",
            timeout: 6)

        #expect(daemon.stop() == 0)
        // Only the goal's own notification, from the eighth drink: no reminder.
        #expect(try dunst.history().map(\.summary) == ["Water goal reached!"])
    }

    @Test func hydrationReminderCountedFromTheLastDrink() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try hydrationOn(w8)
        #expect(try intakeRun(w8, at: "\(TestClock.day(monday)) 09:30:00", ["drink"]).status == 0)

        // The 11:00 reminder moves to 09:30 + 120 minutes.
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(monday)) 11:29:58")
        defer { daemon.stop() }
        try daemon.waitForLog(
            "next: hydration@\(TestClock.day(monday))T11:00 at 11:30, counted from the last drink", timeout: 5)
        #expect(try dunst.displayedCount() == 0)
        try daemon.waitForLog("hydration@\(TestClock.day(monday))T11:00: sent", timeout: 6)

        #expect(daemon.stop() == 0)
        let shown = try dunst.history()
        #expect(shown.map(\.summary) == ["Drink some water"])
        #expect(shown.first?.category == "x-w8trackr.reminder")
    }

    @Test func mealReminderSkippedAfterALoggedMeal() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        for (key, value) in [("reminders.lunch", "true"), ("summary.enabled", "false")] {
            #expect(try w8.run("config", key, value).status == 0)
        }
        let meal = try intakeRun(
            w8, at: "\(TestClock.day(monday)) 12:00:00", ["eat", "meal", "--date", "\(TestClock.day(monday))T12:00"])
        #expect(meal.status == 0)

        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(monday)) 13:29:58")
        defer { daemon.stop() }
        try daemon.waitForLog(
            "lunch@\(TestClock.day(monday))T13:30: skipped: a meal was logged 90 minutes before", timeout: 6)

        #expect(daemon.stop() == 0)
        #expect(try dunst.history().isEmpty)
    }
}
