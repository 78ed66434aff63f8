import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// The activity log on a temporary database and a Berlin calendar.
@Suite struct ActivityLogTests {
    let calendar = PinnedCalendar.berlin
    let store: TemporaryDatabase
    let statusBar = CountingStatusBar()
    let now: Date

    init() throws {
        store = try TemporaryDatabase()
        now = calendar.date(2026, 11, 23, 18)
    }

    func log(stepGoal: Int = 0) -> ActivityLog {
        var settings = Settings()
        settings.stepGoal = stepGoal
        return ActivityLog(
            database: store.database, context: EvaluationContext(now: now, calendar: calendar, settings: settings),
            statusBar: statusBar)
    }

    @Test func aNewManualTotalForTheDayReplacesTheOld() throws {
        defer { store.directory.remove() }
        let first = try log().record(steps: "6500", date: nil)
        let second = try log(stepGoal: 8000).record(steps: "7200", date: "2026-11-23")
        let otherDay = try log().record(steps: "300", date: "2026-11-22T23:30")

        #expect(first.replaced == nil)
        #expect(second.replaced?.steps == 6500)
        #expect(second.shown.steps == 7200)
        #expect(second.stepGoal == 8000)
        #expect(otherDay.recorded.day.description == "2026-11-22")
        #expect(try log().days(7).map(\.steps) == [7200, 300])
        #expect(statusBar.count == 3)
    }

    @Test func theManualTotalWinsOverAnImportedOne() throws {
        defer { store.directory.remove() }
        let today = CalendarDay(now, calendar: calendar)
        try store.database.write { transaction in
            try transaction.saveActivity(
                ActivityDay(day: today, steps: 11_000, distance: 7800, source: ActivitySource(rawValue: "import")),
                updatedAt: now)
        }
        #expect(try log().total(containing: now).steps == 11_000)
        #expect(try log().total(containing: now).distance == 7800)

        _ = try log().record(steps: "9000", date: nil)

        let total = try log(stepGoal: 10_000).total(containing: now)
        #expect(total == ActivityTotal(day: today, steps: 9000, distance: 0, stepGoal: 10_000))
        #expect(try log().days(1).map(\.steps) == [9000])
    }

    @Test(
        "Bad input is refused before anything is written",
        arguments: [
            ("-1", nil), ("abc", nil), ("200001", nil), ("100", "2026-11-24"), ("100", "1899-12-31"), ("100", "23.11."),
        ])
    func badInput(steps: String, date: String?) throws {
        defer { store.directory.remove() }
        #expect(throws: W8CoreError.self) { try log().record(steps: steps, date: date) }
        #expect(try log().days(100_000).isEmpty)
        #expect(statusBar.count == 0)
    }

    @Test func aDayWithNothingHasNoSteps() throws {
        defer { store.directory.remove() }
        let total = try log().total(containing: now)
        #expect(total.steps == 0 && total.distance == 0 && total.stepGoal == 0)
        #expect(total.day.description == "2026-11-23")
    }
}
