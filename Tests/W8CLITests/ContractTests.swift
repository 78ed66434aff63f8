import Foundation
import Testing
import W8TestHarness

typealias Object = [String: Any]

func object(_ any: Any) throws -> Object { try #require(any as? Object) }

@Suite(.ownThread) struct CLIContractTests {
    @Test func addReportsEntryAchievementsAndNotified() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")
        let added = try object(try w8.json("add", "175", "--note", "après <run> & \"fun\""))
        #expect(Set(added.keys) == ["entry", "achieved", "notified"])
        let entry = try object(added["entry"] as Any)
        #expect(Set(entry.keys).isSuperset(of: ["id", "weight", "unit", "date", "note", "body_fat_percent"]))
        #expect(entry["weight"] as? Double == 175)
        #expect(entry["unit"] as? String == "lb")
        #expect(entry["note"] as? String == "après <run> & \"fun\"")
        #expect(added["achieved"] as? [String] == ["25"])
        // No session bus in this sandbox: recorded, not notified.
        #expect(added["notified"] is NSNull)
    }

    /// `w8 add WEIGHT [--json]` is made without ArgumentParser (`W8.Add.quick`); the same add spelled so that
    /// ArgumentParser parses it (`--` before the weight) must print, store and exit the same, for good and bad
    /// weights alike.
    @Test(arguments: [["175"], ["175", "--json"], ["82,5kg", "--json"], ["175lb"], ["0"], ["9999"], ["1x"]])
    func addsTypedQuicklyAreAddsParsed(arguments: [String]) throws {
        func run(_ spelled: [String]) throws -> (W8Run, [String]) {
            let w8 = try W8Sandbox()
            try w8.run("add", "180", "--date", "2026-11-01")
            try w8.run("goal", "160")
            let run = try w8.run(["add"] + spelled)
            let stored = try W8Sandbox.running(
                w8,
                through: [
                    "sqlite3", w8.databasePath,
                    "SELECT weight, unit, note, body_fat_percent FROM entry; SELECT type FROM achievement",
                ])
            return (run, stored.stdout.split(separator: "\n").map(String.init))
        }
        let (quick, quickRows) = try run(arguments)
        let (parsed, parsedRows) = try run(
            arguments.count == 2 ? ["--json", "--", arguments[0]] : ["--", arguments[0]])
        #expect(quick.status == parsed.status)
        #expect(quick.stderr == parsed.stderr)
        #expect(quickRows == parsedRows)
        // The entry's time differs by the moments the two ran: compared without it.
        func withoutTimes(_ text: String) -> String {
            text.replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9:]{5}|on .*[0-9]{2}:[0-9]{2}/, with: "")
                .replacing(/"id": [0-9]+/, with: "")
        }
        #expect(withoutTimes(quick.stdout) == withoutTimes(parsed.stdout), "\(quick.stdout)\n\(parsed.stdout)")
    }

    @Test func statusKeysAreNullWithoutAGoal() throws {
        let w8 = try W8Sandbox()
        let keys = [
            "unit", "current_weight", "start_weight", "goal_weight", "progress_percent", "next_milestone",
            "distance_to_goal", "approaching", "trend_weight", "weekly_rate", "forecast_date",
        ]
        let empty = try object(try w8.json("status"))
        #expect(Set(empty.keys) == Set(keys))
        #expect(keys.dropFirst().allSatisfy { empty[$0] is NSNull })
        try w8.run("add", "82,5kg")
        let noGoal = try object(try w8.json("status"))
        #expect(noGoal["current_weight"] as? Double == 181.9)
        #expect(noGoal["goal_weight"] is NSNull)
    }

    @Test func statusWithAGoalInKilograms() throws {
        let w8 = try W8Sandbox()
        #expect(try w8.run("config", "unit", "kg").status == 0)
        try w8.run("add", "90", "--date", "2026-10-01T08:00")
        try w8.run("goal", "70", "--date", "2026-10-01T09:00")
        try w8.run("add", "175lb")  // 79.38 kg
        let status = try object(try w8.json("status"))
        #expect(status["unit"] as? String == "kg")
        #expect(status["current_weight"] as? Double == 79.4)
        #expect(status["start_weight"] as? Double == 90)
        #expect(status["goal_weight"] as? Double == 70)
        #expect(status["progress_percent"] as? Double == 53.1)
        #expect(status["next_milestone"] as? String == "75")
        #expect(status["distance_to_goal"] as? Double == 9.4)
        #expect(status["approaching"] as? Bool == false)
    }

    @Test func logIsNewestFirstWithLimit() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01", "--body-fat", "25,5")
        try w8.run("add", "179", "--date", "2026-11-03T07:00:00+01:00")
        try w8.run("add", "181", "--date", "2026-11-02")
        let log = try #require(try w8.json("log") as? [Object])
        #expect(log.map { $0["weight"] as? Double } == [179, 181, 180])
        #expect(log.last?["body_fat_percent"] as? Double == 25.5)
        #expect(log.first?["date"] as? String == "2026-11-03T07:00:00+01:00")
        #expect(try #require(try w8.json("log", "--limit", "1") as? [Object]).count == 1)
    }

    @Test func milestonesAndEditAndRemove() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")
        let added = try object(try w8.json("add", "170"))
        #expect(added["achieved"] as? [String] == ["25", "50"])
        let milestones = try #require(try w8.json("milestones") as? [Object])
        #expect(milestones.count == 2)
        #expect(
            Set(milestones[0].keys) == [
                "id", "type", "date_achieved", "weight", "goal_weight", "start_weight", "unit", "progress_percent",
                "notification_sent",
            ])
        #expect(milestones.map { $0["type"] as? String } == ["50", "25"])
        #expect(milestones.allSatisfy { $0["notification_sent"] as? Bool == false })
        let id = try #require(try object(added["entry"] as Any)["id"] as? Int)
        // An edit back up is a regression; a removal too.
        #expect(try w8.run("edit", String(id), "--weight", "176").status == 0)
        #expect(try object(try w8.json("status"))["progress_percent"] as? Double == 20)
        try w8.run("edit", String(id), "--weight", "170")
        let reachieved = try #require(try w8.json("milestones") as? [Object])
        #expect(reachieved.count == 4)
        #expect(try w8.run("rm", String(id)).status == 0)
        #expect(try object(try w8.json("status"))["current_weight"] as? Double == 180)
        let missing = try w8.run("rm", String(id))
        #expect(missing.status == 65)
        #expect(missing.stderr == "w8: no entry with id \(id); 'w8 log' lists the ids\n")
    }

    @Test func goalShowChangeAndClear() throws {
        let w8 = try W8Sandbox()
        #expect(try object(try w8.json("goal"))["goal_weight"] is NSNull)
        try w8.run("add", "180", "--date", "2026-11-01")
        let set = try object(try w8.json("goal", "160"))
        #expect(set["new_journey"] as? Bool == true)
        let small = try object(try w8.json("goal", "155"))
        #expect(small["new_journey"] as? Bool == false)
        let shown = try object(try w8.json("goal"))
        #expect(shown["goal_weight"] as? Double == 155)
        #expect(shown["start_weight"] as? Double == 180)
        #expect(try w8.run("goal", "--clear").stdout == "Goal cleared.\n")
        #expect(try object(try w8.json("status"))["goal_weight"] is NSNull)
    }

    @Test func configListGetSetAndFile() throws {
        let w8 = try W8Sandbox()
        let all = try object(try w8.json("config"))
        #expect(
            Set(all.keys).isSuperset(of: [
                "unit", "notifications.enabled", "notifications.milestones", "notifications.approaching",
                "summary.enabled", "summary.day", "summary.hour", "reminders.weigh_in", "reminders.hydration_interval",
                "quiet_hours.start", "quiet_hours.end",
            ]))
        #expect(all["reminders.hydration_interval"] as? Int == 120)
        #expect(all["quiet_hours.start"] as? String == "22:00")
        #expect(all["summary.day"] as? String == "sun")
        #expect(all["summary.hour"] as? Int == 9)
        #expect(try w8.run("config", "summary.day", "Friday").stdout == "fri\n")
        #expect(try w8.run("config", "summary.day").stdout == "fri\n")
        let text = try String(contentsOfFile: w8.configPath, encoding: .utf8)
        #expect(text.contains("day = \"fri\""))
        #expect(text.contains("# "))
        let bad = try w8.run("config", "summary.hour", "25")
        #expect(bad.status == 65)
        #expect(bad.stderr == "w8: value '25' for summary.hour is not valid; expected a whole hour from 0 to 23\n")
        #expect(try w8.run("config", "nope").status == 65)
    }

    @Test(arguments: ["add", "goal", "status", "log", "edit", "rm", "milestones", "config"])
    func everySubcommandHasHelp(command: String) throws {
        let help = try W8Sandbox().run(command, "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: w8 \(command)"))
    }

    /// `w8 COMMAND` is parsed by that command alone (`W8.parseRouted`), which leaves a completion script request to
    /// the root: asked after a command, the script is still all of w8's.
    @Test(arguments: [["status"], ["sync", "status"], ["add"]])
    func completionScriptIsTheRootsWhereverAsked(command: [String]) throws {
        let w8 = try W8Sandbox()
        let root = try w8.run("--generate-completion-script", "bash")
        #expect(root.status == 0 && root.stdout.contains("_w8()"))
        let asked = try w8.run(command + ["--generate-completion-script", "bash"])
        #expect(asked.status == 0)
        #expect(asked.stdout == root.stdout)
    }

    @Test func version() throws {
        let result = try W8Sandbox().run("--version")
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    /// A preloaded library that calls `setenv` in its constructor (libfaketime, here) moves `environ` off the stack,
    /// where Swift on Linux looks for `argv`: the runtime then reports no arguments, and `w8 add 80` printed the help
    /// and exited 0 having added nothing. Every run must still see its arguments.
    @Test func argumentsSurviveAPreloadThatMovesTheEnvironment() throws {
        let w8 = try W8Sandbox()
        // Exec'd straight, not through `env`: a process that inherits FAKETIME_SHARED does not call setenv.
        func preloaded(_ arguments: String...) throws -> W8Run {
            try W8Sandbox.running(w8, through: [w8.executable] + arguments, environment: W8Sandbox.fakeClock("+0"))
        }
        let days = (1...20).map { String(format: "2026-11-%02d", $0) }
        for day in days {
            let run = try preloaded("add", "80", "--date", day)
            #expect(run.status == 0 && run.stdout.hasPrefix("Logged 80.0 lb"), "\(day): \(run.stdout.prefix(80))")
        }
        #expect((try w8.json("log", "--limit", "100") as? [Any])?.count == days.count)
        #expect(try preloaded("--version").stdout == "0.1.0\n")
    }
}
