import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// A day of weigh-ins against a real SQLite file, through the tracker, with the clock and calendar pinned.
struct Journey {
    let db: TemporaryDatabase
    var settings = Settings()
    var calendar = PinnedCalendar.berlin
    var now: Date

    init(now: Date = PinnedCalendar.berlin.date(2026, 6, 1, 8)) throws {
        db = try TemporaryDatabase()
        self.now = now
    }

    /// A journey that starts at `start` lb, an hour from the default moment, and has the goal `target` lb.
    init(from start: Double, goal target: Double) throws {
        try self.init()
        try add(start)
        try goal(target)
    }

    var context: EvaluationContext { EvaluationContext(now: now, calendar: calendar, settings: settings) }

    /// The tracker of one command at `now`, posting to a sink that shows nothing.
    var tracker: Tracker {
        Tracker(
            database: db.database, sink: InMemoryNotificationSink(), context: context, statusBar: CountingStatusBar())
    }

    @discardableResult
    mutating func add(_ value: Double, _ unit: WeightUnit = .lb, hoursLater: Double = 1) throws -> RecordedChange {
        now += hoursLater * 3600
        return try tracker.add(WeightEntry(weight: Weight(value, unit), date: now)).change
    }

    @discardableResult
    mutating func goal(_ value: Double, _ unit: WeightUnit = .lb) throws -> (
        goal: Goal, newJourney: Bool, change: RecordedChange
    ) {
        now += 60
        let (goal, newJourney, outcome) = try tracker.setGoal(Weight(value, unit), at: now)
        return (goal, newJourney, outcome.change)
    }
}

@Suite struct AcceptanceScenarioTests {
    // US1-1: goal 160, current 180, log 175 → a celebration.
    @Test func us1_1_quarterCelebration() throws {
        var j = try Journey(from: 180, goal: 160)
        let change = try j.add(175)
        #expect(change.achievements.map(\.type) == [.quarter])
        #expect(change.pending?.type == .quarter)
        #expect(change.pending?.notification.title.contains("25%") == true)
    }

    // US1-2, US1-3, US1-4 on consecutive days.
    @Test func us1_2to4_halfThreeQuartersAndGoal() throws {
        var j = try Journey(from: 200, goal: 160)
        #expect(try j.add(180, hoursLater: 24).pending?.type == .half)
        #expect(try j.add(170, hoursLater: 24).pending?.type == .threeQuarters)
        let done = try j.add(160, hoursLater: 24)
        #expect(done.pending?.type == .complete)
        #expect(done.pending?.notification.expiry == .never)
    }

    // US1-5: notifications disabled: recorded, nothing to send.
    @Test func us1_5_disabledStillRecords() throws {
        var j = try Journey()
        j.settings.notifications.enabled = false
        try j.add(180)
        try j.goal(160)
        let change = try j.add(175)
        #expect(change.pending == nil)
        let stored = try j.db.database.achievements()
        #expect(stored.map(\.type) == [.quarter])
        #expect(stored.first?.notificationSent == false)
    }

    // US2-1, US2-2: within 5 lb → one alert; still within → none.
    @Test func us2_1and2_approachingOnce() throws {
        var j = try Journey(from: 170, goal: 160)
        #expect(try j.add(163, hoursLater: 24).pending?.type == .approaching)
        let again = try j.add(162, hoursLater: 24)
        #expect(!again.achievements.contains { $0.type == .approaching })
        #expect(again.pending?.type != .approaching)
    }

    // US2-3: regress above the range, re-enter → alert again.
    @Test func us2_3_reEnteringAfterRegression() throws {
        var j = try Journey(from: 200, goal: 160)
        try j.add(163, hoursLater: 24)
        let away = try j.add(168, hoursLater: 24)
        #expect(away.evaluation.rearmed.contains(.approaching))
        let back = try j.add(164, hoursLater: 24)
        #expect(back.achievements.map(\.type) == [.approaching])
        #expect(back.pending?.type == .approaching)
    }

    // US2-4: gaining toward a higher goal, in kg.
    @Test func us2_4_gainingInKilograms() throws {
        var j = try Journey()
        j.settings.unit = .kg
        try j.add(50, .kg)
        try j.goal(60, .kg)
        let change = try j.add(58, .kg, hoursLater: 24)
        #expect(change.pending?.type == .approaching)
        #expect(change.pending?.notification.body.contains("2.0 kg to go to 60.0 kg") == true)
    }

    // Edge case: goal achieved, regress, re-achieve → shown again.
    @Test func goalReachievedAfterRegression() throws {
        var j = try Journey(from: 180, goal: 160)
        #expect(try j.add(159, hoursLater: 24).pending?.type == .complete)
        #expect(try j.add(159.5, hoursLater: 24).pending == nil)
        try j.add(163, hoursLater: 24)
        #expect(try j.add(160, hoursLater: 24).pending?.type == .complete)
        #expect(try j.db.database.achievements().filter { $0.type == .complete }.count == 2)
    }

    // Edge case: several milestones on one local day → only ever-higher ones notify.
    @Test func multipleMilestonesInOneDay() throws {
        var j = try Journey()
        try j.add(180, hoursLater: -24)
        try j.goal(160)
        #expect(try j.add(170, hoursLater: 1).pending?.type == .half)
        try j.add(176, hoursLater: 1)  // regress below 25%
        let quarterAgain = try j.add(174, hoursLater: 1)
        #expect(quarterAgain.achievements.map(\.type) == [.quarter])
        #expect(quarterAgain.pending == nil)  // ranks below today's 50
        #expect(try j.add(165, hoursLater: 1).pending?.type == .approaching)
        // The next local day starts afresh.
        try j.add(176, hoursLater: 24)
        #expect(try j.add(174, hoursLater: 1).pending?.type == .quarter)
    }

    // No goal: entries work, nothing is recorded.
    @Test func noGoal() throws {
        var j = try Journey()
        try j.add(180)
        let change = try j.add(150)
        #expect(change.achievements.isEmpty)
        #expect(change.snapshot.progress == nil)
        #expect(try j.db.database.entryCount() == 2)
    }
}

@Suite struct StartWeightAndGoalChangeTests {
    // Rule 2: the latest entry at or before the goal, not the first after it.
    @Test func startIsTheLatestEntryBeforeTheGoal() throws {
        var j = try Journey()
        try j.add(190)
        try j.add(185)
        try j.goal(165)
        try j.add(180)
        let snap = try j.db.database.snapshot(unit: .lb)
        #expect(snap.start?.weight == Weight(185, .lb))
        #expect(abs(try #require(snap.progress?.percent) - 25) < 1e-9)
    }

    @Test func withoutEarlierEntriesStartIsTheFirstAfter() throws {
        var j = try Journey()
        try j.goal(160)
        try j.add(180)
        try j.add(175)
        #expect(try j.db.database.snapshot(unit: .lb).start?.weight == Weight(180, .lb))
    }

    // Rule 7: a small change keeps the start weight and does not notify achieved milestones again.
    @Test func smallGoalChangeKeepsTheJourney() throws {
        var j = try Journey(from: 180, goal: 160)
        try j.add(170)  // 50%: 25 and 50 achieved
        let (_, newJourney, change) = try j.goal(158)  // 1.25% change: progress now 45.5%
        #expect(!newJourney)
        #expect(change.snapshot.start?.weight == Weight(180, .lb))
        #expect(abs(try #require(change.snapshot.progress?.percent) - 45.4545) < 1e-3)
        #expect(change.achievements.isEmpty)
        #expect(change.evaluation.rearmed.isEmpty)
        #expect(change.pending == nil)
        // Still achieved: back over 50% on the new goal is not celebrated again.
        #expect(try j.add(168, hoursLater: 24).achievements.isEmpty)
    }

    // Rule 7: a big change starts over: start at the moment of change, every milestone re-armed.
    @Test func bigGoalChangeStartsANewJourney() throws {
        var j = try Journey(from: 180, goal: 160)
        try j.add(170)
        let (_, newJourney, change) = try j.goal(140)  // 12.5% change
        #expect(newJourney)
        #expect(change.snapshot.start?.weight == Weight(170, .lb))
        #expect(change.snapshot.progress?.percent == 0)
        let quarter = try j.add(162.5, hoursLater: 24)
        #expect(quarter.pending?.type == .quarter)
    }

    // Removing an entry is a regression that re-arms.
    @Test func removalReArms() throws {
        var j = try Journey(from: 180, goal: 160)
        try j.add(172)
        let bad = try j.add(160)
        #expect(bad.pending?.type == .complete)
        let removed = try j.tracker.remove(id: try #require(bad.entry?.id)).change
        #expect(Set(removed.evaluation.rearmed) == [.half, .threeQuarters, .complete])  // back to 40%
        #expect(throws: StoreError.entryNotFound(999)) { try j.tracker.remove(id: 999) }
    }

    @Test func clearingTheGoalStopsMilestones() throws {
        var j = try Journey(from: 180, goal: 160)
        #expect(try j.db.database.clearGoal())
        #expect(try j.add(170).achievements.isEmpty)
        #expect(try j.goal(160).newJourney)
    }
}
