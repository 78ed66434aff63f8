import Foundation
import Testing
import W8TestHarness

/// The day this file's history is told from: the test clock's Tuesday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let tuesday = TestClock.daysBack(to: 3)

/// Rules that must agree with themselves (issue 26): a goal's journey, repeated imports, one progress figure.
@Suite(.ownThread) struct CLIAgreementTests {
    /// 92.4 kg on 1 January toward 85 kg, then 90.5 on the 10th: progress 25.67…%, the 25% milestone reached.
    func journey() throws -> W8Sandbox {
        try journeyAndLastAdd().w8
    }

    func journeyAndLastAdd() throws -> (w8: W8Sandbox, lastAdd: W8Run) {
        let w8 = try W8Sandbox()
        try w8.run("config", "unit", "kg")
        try w8.run("add", "92.4", "--date", TestClock.day(tuesday - 19))
        try w8.run("goal", "85", "--date", TestClock.day(tuesday - 19))
        return (w8, try w8.run("add", "90.5", "--date", TestClock.day(tuesday - 10)))
    }

    @Test func goalWithADateReanchorsTheJourneyAMistypedGoalRestarted() throws {
        // Given a journey that the typo `goal 70`, then `goal 85`, restarted at today's weight
        let w8 = try journey()
        try w8.run("goal", "70")
        try w8.run("goal", "85")
        #expect(try object(try w8.json("goal"))["start_weight"] as? Double == 90.5)
        // When the same goal is given again with the journey's first day
        let repaired = try w8.run("goal", "85", "--date", TestClock.day(tuesday - 19))
        // Then the journey starts there again, with its start weight and progress
        #expect(repaired.status == 0)
        #expect(repaired.stdout.contains("same journey, now starting \(TestClock.shown(tuesday - 19)) 00:00"))
        let goal = try object(try w8.json("goal"))
        #expect(goal["start_weight"] as? Double == 92.4)
        #expect(goal["journey_started_at"] as? String == "\(TestClock.day(tuesday - 19))T00:00:00+01:00")
        #expect(try w8.run("status").stdout.contains("Progress 25.6%"))
    }

    @Test func aSmallGoalChangeWithoutADateKeepsTheJourneysStart() throws {
        let w8 = try journey()
        let changed = try object(try w8.json("goal", "84"))
        #expect(changed["new_journey"] as? Bool == false)
        #expect(
            try object(try w8.json("goal"))["journey_started_at"] as? String
                == "\(TestClock.day(tuesday - 19))T00:00:00+01:00")
    }

    @Test func reimportingABackupAfterNewProgressRecordsNoMilestoneAgain() throws {
        // Given a backup taken at 25%, then progress past 50%
        let w8 = try journey()
        let backup = w8.root.appendingPathComponent("backup.json").path
        try w8.run("export", "--format", "json", "--output", backup)
        try w8.run("add", "88", "--date", TestClock.day(tuesday))
        let before = try #require(try w8.json("milestones") as? [Any]).count
        // When the backup is imported twice
        for _ in 1...2 {
            let imported = try w8.run("import", backup)
            #expect(imported.status == 0)
            #expect(!imported.stdout.contains("Reached"))
        }
        // Then no achievement was recorded again
        #expect(try #require(try w8.json("milestones") as? [Any]).count == before)
        #expect(try object(try w8.json("status"))["next_milestone"] as? String == "75")
    }

    @Test func everyViewShowsTheSameProgress() throws {
        // Given start 92.4, goal 85 and weight 90.5: 25.675…%, shown 25.6 everywhere
        let (w8, add) = try journeyAndLastAdd()
        let clock = "@\(TestClock.day(tuesday - 9)) 12:00:00"
        let text: [(String, String)] = [
            ("add", add.stdout), ("status", try w8.run("status").stdout), ("goal", try w8.run("goal").stdout),
            ("milestones", try w8.run("milestones").stdout),
            ("widget", try w8.run(clock: clock, ["widget"]).stdout),
            ("waybar", try w8.run(clock: clock, ["widget", "--format", "waybar"]).stdout),
            ("summary", try w8.run(clock: clock, ["summary"]).stdout),
        ]
        for (view, output) in text {
            #expect(output.contains("25.6%"), "\(view): \(output)")
            #expect(!output.contains("25.7"), "\(view): \(output)")
        }
        func progress(_ arguments: [String]) throws -> Double? {
            let run = try w8.run(clock: clock, arguments)
            let json = try #require(try run.json() as? [String: Any])
            let summary = json["summary"] as? [String: Any]
            return (summary ?? json)["progress_percent"] as? Double
        }
        #expect(try progress(["status", "--json"]) == 25.6)
        #expect(try progress(["widget", "--format", "json"]) == 25.6)
        #expect(try progress(["summary", "--json"]) == 25.6)
        let quarter = try #require(try w8.json("milestones") as? [[String: Any]]).first {
            $0["type"] as? String == "25"
        }
        #expect(quarter?["progress_percent"] as? Double == 25.6)
    }
}
