import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// The intake log on a temporary database, the in-memory sink and a Berlin calendar.
@Suite struct IntakeLogTests {
    let calendar = PinnedCalendar.berlin
    let store: TemporaryDatabase
    let sink = InMemoryNotificationSink()
    let statusBar = CountingStatusBar()
    let now: Date

    init() throws {
        store = try TemporaryDatabase()
        now = calendar.date(2026, 11, 23, 18)
    }

    func log(_ settings: Settings = Settings(), sink: InMemoryNotificationSink? = nil, now: Date? = nil) -> IntakeLog {
        IntakeLog(
            database: store.database, sink: sink ?? self.sink, settings: settings, now: now ?? self.now,
            calendar: calendar, statusBar: statusBar)
    }

    @Test("Eight cups reach 2,000 ml and post exactly one 'Water goal reached'; a ninth posts nothing")
    func eightCups() throws {
        defer { store.directory.remove() }
        var outcomes: [IntakeOutcome] = []
        for hour in 8..<17 {
            outcomes.append(try log().drink(250, at: calendar.date(2026, 11, 23, hour)))
        }
        #expect(outcomes.map(\.notifiedWaterGoal) == [false, false, false, false, false, false, false, true, false])
        #expect(outcomes.last?.day.water == 2250)
        #expect(sink.posted.map(\.title) == ["Water goal reached!"])
        #expect(sink.posted.first?.category == .intake)
        #expect(statusBar.count == 9)
    }

    @Test("No second 'goal reached' that day, even after a removal and another crossing")
    func oncePerDay() throws {
        defer { store.directory.remove() }
        let crossing = try log().drink(2000, at: calendar.date(2026, 11, 23, 9))
        _ = try log().remove(id: try #require(crossing.event.id))
        let again = try log().drink(2000, at: calendar.date(2026, 11, 23, 10))

        #expect(crossing.notifiedWaterGoal)
        #expect(!again.notifiedWaterGoal)
        #expect(sink.posted.count == 1)
        // The next day is a new day.
        let tomorrow = calendar.date(2026, 11, 24, 9)
        #expect(try log(now: tomorrow).drink(2000, at: tomorrow).notifiedWaterGoal)
    }

    @Test("A failed post gives the claim back: the next crossing that day posts")
    func failedPostRetries() throws {
        defer { store.directory.remove() }
        let failed = try log(sink: InMemoryNotificationSink(failure: NoServer())).drink(
            2000, at: calendar.date(2026, 11, 23, 9))
        #expect(!failed.notifiedWaterGoal)
        #expect(failed.warning?.hasSuffix("the drink was logged") == true)
        _ = try log().remove(id: try #require(failed.event.id))
        #expect(try log().drink(2000, at: calendar.date(2026, 11, 23, 10)).notifiedWaterGoal)
    }

    @Test("Switched off (notifications.intake_goals = false), or a drink on another day: nothing is posted")
    func quietCases() throws {
        defer { store.directory.remove() }
        var off = Settings()
        off.intakeGoalNotifications = false
        #expect(!(try log(off).drink(2500, at: calendar.date(2026, 11, 23, 9))).notifiedWaterGoal)
        #expect(!(try log().drink(2500, at: calendar.date(2026, 11, 22, 9))).notifiedWaterGoal)
        #expect(sink.posted.isEmpty)
    }

    @Test("Meals and snacks count the configured calories unless given; totals are the day's")
    func eat() throws {
        defer { store.directory.remove() }
        var settings = Settings()
        settings.intake.mealCalories = 600
        _ = try log(settings).eat(.meal, at: calendar.date(2026, 11, 23, 8))
        _ = try log(settings).eat(.snack, at: calendar.date(2026, 11, 23, 10))
        let dinner = try log(settings).eat(.meal, calories: 850, at: calendar.date(2026, 11, 23, 19), note: "pasta")
        _ = try log(settings).drink(330, beverage: true, calories: 140, at: calendar.date(2026, 11, 23, 12))

        let day = try log(settings).day(containing: now)
        #expect(dinner.event.note == "pasta" && dinner.event.calories == 850)
        #expect(day.meals == 2 && day.snacks == 1 && day.beverage == 330 && day.water == 0)
        #expect(day.calories == 600 + 0 + 850 + 140)
    }

    @Test("The list covers the last N local days, newest first; removing an unknown id names it")
    func listAndRemove() throws {
        defer { store.directory.remove() }
        for day in 20...23 { _ = try log().drink(250, at: calendar.date(2026, 11, day, 9)) }

        let two = try log().events(days: 2)
        #expect(two.map(\.date) == [calendar.date(2026, 11, 23, 9), calendar.date(2026, 11, 22, 9)])
        #expect(throws: StoreError.intakeNotFound(99)) { try log().remove(id: 99) }
    }
}
