import Foundation
import Testing
import W8App
import W8Store
import W8TestSupport

@testable import W8Core

/// The hydration and meal reminders read the intake log: a temporary database, the in-memory sink, Berlin.
@Suite final class IntakeReminderTests: SchedulingSuite {
    /// Hydration every 120 minutes from the end of quiet hours (07:00), lunch at 13:30; no summary.
    func settings() -> Settings {
        var settings = Settings()
        settings.summary.enabled = false
        settings.reminders.hydration = true
        settings.reminders[enabled: .lunch] = true
        return settings
    }

    func runner(_ settings: Settings? = nil) -> EventRunner {
        EventRunner(database: store.database, sink: sink, settings: settings ?? self.settings(), calendar: calendar)
    }

    func log(_ kind: IntakeKind, _ millilitres: Int? = nil, at date: Date) throws {
        _ = try store.database.addIntake(
            IntakeEvent(kind: kind, date: date, volume: millilitres), goals: IntakeSettings(), notify: false,
            now: date, calendar: calendar)
    }

    func hydration(at hour: Int, _ minute: Int = 0) -> Occurrence {
        Occurrence(
            kind: .hydration, date: calendar.date(2026, 11, 23, hour, minute),
            key: String(format: "hydration@2026-11-23T%02d:%02d", hour, minute))
    }

    @Test("The hydration reminder is skipped once the day's water goal is met; one cup short, it is posted")
    func skippedAfterGoalMet() throws {
        // Given eight cups early in the morning, long before the 11:00 reminder's interval.
        for minute in 0..<8 { try log(.water, 250, at: calendar.date(2026, 11, 23, 6, minute)) }

        let outcome = try runner().fire(hydration(at: 11), at: calendar.date(2026, 11, 23, 11))

        #expect(outcome == .skipped("the day's water goal is met (2000 ml of 2000 ml)"))
        #expect(sink.posted.isEmpty)
        // The next day starts from zero: its reminder is posted.
        let tomorrow = Occurrence(
            kind: .hydration, date: calendar.date(2026, 11, 24, 11), key: "hydration@2026-11-24T11:00")
        #expect(try runner().fire(tomorrow, at: tomorrow.date) == .sent(1))
    }

    @Test("Seven cups are short of the goal: the reminder is posted")
    func postedShortOfGoal() throws {
        for minute in 0..<7 { try log(.water, 250, at: calendar.date(2026, 11, 23, 6, minute)) }

        #expect(try runner().fire(hydration(at: 11), at: calendar.date(2026, 11, 23, 11)) == .sent(1))
        #expect(sink.posted.map(\.title) == ["Drink some water"])
    }

    @Test(
        "Within its interval after a drink (water or another), the hydration reminder is skipped",
        arguments: [IntakeKind.water, .beverage])
    func skippedWithinTheInterval(kind: IntakeKind) throws {
        try log(kind, 330, at: calendar.date(2026, 11, 23, 10, 30))

        let outcome = try runner().fire(hydration(at: 11), at: calendar.date(2026, 11, 23, 11))

        #expect(outcome == .skipped("a drink was logged 30 minutes ago"))
        #expect(sink.posted.isEmpty)
    }

    @Test("The next hydration reminder is counted from the last drink, keeps its key, and fires once")
    func nextCountedFromTheLastDrink() throws {
        let runner = runner()
        // No drink: the grid (07:00, 09:00, 11:00, …).
        let after = calendar.date(2026, 11, 23, 10, 31)
        #expect(try runner.next(.hydration, after: after)?.date == calendar.date(2026, 11, 23, 11))

        try log(.water, 250, at: calendar.date(2026, 11, 23, 10, 30))
        let next = try #require(try runner.next(.hydration, after: after))

        // Then: 10:30 + 120 minutes, under the 11:00 occurrence's key; the daemon's next wake-up is that.
        #expect(next.date == calendar.date(2026, 11, 23, 12, 30))
        #expect(next.key == "hydration@2026-11-23T11:00")
        #expect(try runner.upcoming(after: after).first == next)
        // Not due yet at 12:29: the latest is the one before the drink, which the daemon has passed.
        let early = try runner.latest(.hydration, atOrBefore: calendar.date(2026, 11, 23, 12, 29))
        #expect(early?.key == "hydration@2026-11-23T09:00")
        #expect(try runner.latest(.hydration, atOrBefore: next.date) == next)
        #expect(try runner.fire(next, at: next.date) == .sent(1))
        #expect(try runner.fire(next, at: next.date.addingTimeInterval(5)) == .alreadyClaimed)
        // After it, the grid again.
        #expect(try runner.next(.hydration, after: next.date)?.date == calendar.date(2026, 11, 23, 13))
    }

    /// A drink at `drink` (hour, minute on 23 Nov), the next reminder asked for after `asked`, and what it is.
    struct DrinkThenNext: Sendable, CustomTestStringConvertible {
        var drink: (Int, Int)
        var asked: (Int, Int)
        var next: (day: Int, hour: Int)
        var testDescription: String { "drink at \(drink.0):\(drink.1), next on the \(next.day)th at \(next.hour):00" }
    }

    // A drink long enough before the next occurrence moves nothing. A time moved inside quiet hours (20:30 + 120
    // minutes is 22:30, inside 22:00–07:00) gives way to the next allowed occurrence, after the quiet hours.
    @Test(
        "A drink that moves nothing, or moves the reminder into quiet hours: the next allowed time stands",
        arguments: [
            DrinkThenNext(drink: (8, 30), asked: (10, 31), next: (23, 11)),
            DrinkThenNext(drink: (20, 30), asked: (20, 31), next: (24, 7)),
        ])
    func drinkThenNextOutsideItsReach(case: DrinkThenNext) throws {
        try log(.water, 250, at: calendar.date(2026, 11, 23, `case`.drink.0, `case`.drink.1))

        let next = try runner().next(.hydration, after: calendar.date(2026, 11, 23, `case`.asked.0, `case`.asked.1))

        #expect(next?.date == calendar.date(2026, 11, `case`.next.day, `case`.next.hour))
        #expect(next?.key == String(format: "hydration@2026-11-%02dT%02d:00", `case`.next.day, `case`.next.hour))
    }

    @Test(
        "A meal reminder is skipped when a meal was logged up to 2 hours before it, not at 2 h 01 or for a snack",
        arguments: [
            (IntakeKind.meal, 11, 30, String?("a meal was logged 120 minutes before")),
            (.meal, 13, 0, "a meal was logged 30 minutes before"),
            (.meal, 11, 29, nil),
            (.snack, 13, 0, nil),
        ])
    func mealSkip(kind: IntakeKind, hour: Int, minute: Int, skip: String?) throws {
        let runner = runner()
        let lunch = try #require(runner.schedule.latest(.meal(.lunch), atOrBefore: calendar.date(2026, 11, 23, 14)))
        #expect(lunch.date == calendar.date(2026, 11, 23, 13, 30))
        try log(kind, at: calendar.date(2026, 11, 23, hour, minute))

        let outcome = try runner.fire(lunch, at: lunch.date)

        #expect(outcome == (skip.map { .skipped($0) } ?? .sent(1)))
        #expect(sink.posted.map(\.title) == (skip == nil ? ["Lunch time"] : []))
    }
}
