import Foundation
import Testing
import W8Core
import W8Store
import W8TestSupport

/// The activity log in a real SQLite file: one row per day and source.
@Suite struct ActivityStoreTests {
    let monday = CalendarDay(year: 2026, month: 11, day: 23)!
    let imported = ActivitySource(rawValue: "gadgetbridge")

    @Test func aNewTotalReplacesTheSameSourcesRowForTheDayAndLeavesTheOthers() throws {
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        let now = Date()
        try store.database.write { transaction in
            try transaction.saveActivity(
                ActivityDay(day: monday, steps: 9000, distance: 6400, source: imported), updatedAt: now)
        }
        let first = try store.database.write { transaction in
            try transaction.saveActivity(ActivityDay(day: monday, steps: 6500, source: .manual), updatedAt: now)
        }

        let second = try store.database.write { transaction in
            try transaction.saveActivity(ActivityDay(day: monday, steps: 7200, source: .manual), updatedAt: now)
        }

        #expect(first == nil)
        #expect(second?.steps == 6500)
        let rows = try store.database.activityDays(from: monday, to: monday)
        #expect(rows.map(\.source) == [imported, .manual])
        #expect(rows.map(\.steps) == [9000, 7200])
        #expect(rows.first?.distance == 6400)
    }

    @Test func daysInTheRangeBothEndsIncludedNewestFirst() throws {
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        try store.database.write { transaction in
            for (day, steps) in [(20, 100), (21, 200), (23, 400), (24, 500)] {
                try transaction.saveActivity(
                    ActivityDay(day: CalendarDay(year: 2026, month: 11, day: day)!, steps: steps, source: .manual),
                    updatedAt: Date())
            }
        }

        let rows = try store.database.activityDays(from: CalendarDay(year: 2026, month: 11, day: 21)!, to: monday)

        #expect(rows.map(\.steps) == [400, 200])
        #expect(rows.map(\.day.description) == ["2026-11-23", "2026-11-21"])
    }

    @Test func aWriteThatThrowsLeavesNothing() throws {
        struct Interrupted: Error {}
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        #expect(throws: Interrupted.self) {
            try store.database.write { transaction in
                try transaction.saveActivity(ActivityDay(day: monday, steps: 10, source: .manual), updatedAt: Date())
                throw Interrupted()
            }
        }
        #expect(try store.database.activityDays(from: monday, to: monday).isEmpty)
    }
}
