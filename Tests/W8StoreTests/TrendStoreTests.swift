import Foundation
import Testing
import W8Core
import W8Store
import W8TestSupport

/// `AppDatabase.trend` reads the earliest entry of each day, the latest date and the week's count instead of the
/// whole year: it must give exactly the analysis of every entry of the year, as `TrendAnalysis(entries:)` makes it.
@Suite struct TrendStoreTests {
    /// The analysis of every entry the year holds (or the latest before it), as `trend` computed it before.
    static func everyEntry(_ database: AppDatabase, now: Date, calendar: Calendar, goal: Double?) throws
        -> TrendAnalysis
    {
        let (entries, before) = try database.week(from: now.addingTimeInterval(-AppDatabase.trendHistory), to: now)
        return TrendAnalysis(
            entries: entries.isEmpty ? before.map { [$0] } ?? [] : entries, unit: .lb, goal: goal, now: now,
            calendar: calendar)
    }

    static func importing(_ entries: [WeightEntry], into database: AppDatabase, now: Date) throws {
        try database.write { transaction in
            var importer = transaction.importer(now: now, today: PinnedCalendar.utc.startOfDay(for: now))
            for entry in entries { try importer.add(entry) }
        }
    }

    /// Zones with DST at midnight (Santiago, Havana), half-hour DST (Lord Howe), a 45-minute offset (Kathmandu), DST
    /// suspended for Ramadan (Casablanca).
    @Test(arguments: [
        "UTC", "Europe/Berlin", "America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe",
        "Asia/Kathmandu", "Africa/Casablanca",
    ])
    func equalsTheAnalysisOfEveryEntry(zone: String) throws {
        let calendar = PinnedCalendar.gregorian(zone)
        var generator = SeededRandom.fromEnvironment("trend in \(zone)")
        let db = try TemporaryDatabase()
        defer { db.directory.remove() }
        // A moment between milliseconds, as Date() gives.
        let now = calendar.date(2026, 11, 20, 9, 30).addingTimeInterval(0.000_4)
        let start = now.addingTimeInterval(-AppDatabase.trendHistory)
        let weekStart = now.addingTimeInterval(-7 * 86400)
        var entries: [WeightEntry] = []
        func add(_ date: Date, _ weight: Double? = nil) {
            let value = weight ?? Double.random(in: 150...200, using: &generator)
            entries.append(WeightEntry(weight: Weight((value * 10).rounded() / 10, .lb), date: date))
        }
        // Days with 0 to 25 weigh-ins, a few before the year.
        var day = calendar.startOfDay(for: start.addingTimeInterval(-5 * 86400))
        while day < now {
            let count = [0, 0, 1, 2, 3, 25].randomElement(using: &generator)!
            for _ in 0..<count { add(day.addingTimeInterval(Double.random(in: 0..<86400, using: &generator))) }
            // The edges of a local day: its first moment, and a millisecond either side.
            if Bool.random(using: &generator) {
                let midnight = calendar.dateInterval(of: .day, for: day)!.end
                for offset in [-0.001, 0, 0.001] { add(midnight.addingTimeInterval(offset)) }
            }
            day = calendar.dateInterval(of: .day, for: day)!.end
        }
        // The same moment twice (the earlier id is the day's first), and the edges of the year and the week.
        let twice = calendar.date(2026, 11, 18, 0)
        add(twice, 181)
        add(twice, 182)
        for edge in [start, weekStart] {
            for offset in [-0.001, -0.000_4, 0, 0.000_4, 0.001] { add(edge.addingTimeInterval(offset)) }
        }
        entries = entries.filter { $0.date <= now }
        try Self.importing(entries.shuffled(using: &generator), into: db.database, now: now)

        for at in [now, now.addingTimeInterval(-3 * 86400), weekStart, start.addingTimeInterval(86400)] {
            for goal in [nil, 160.0] {
                let trend = try db.database.trend(
                    unit: .lb, goal: goal.map { Weight($0, .lb) }, now: at, calendar: calendar)
                #expect(trend == (try Self.everyEntry(db.database, now: at, calendar: calendar, goal: goal)), "\(at)")
            }
        }
        let dense = try db.database.trend(unit: .kg, goal: nil, now: now, calendar: calendar)
        #expect(dense.points.count > 100)
    }

    @Test func anEmptyYearTakesTheLatestEntryBeforeIt() throws {
        let calendar = PinnedCalendar.berlin
        let db = try TemporaryDatabase()
        defer { db.directory.remove() }
        let now = calendar.date(2026, 11, 20, 9)
        #expect(try db.database.trend(unit: .lb, goal: nil, now: now, calendar: calendar).points.isEmpty)
        try Self.importing(
            [
                WeightEntry(weight: Weight(190, .lb), date: calendar.date(2024, 1, 1)),
                WeightEntry(weight: Weight(185, .lb), date: calendar.date(2024, 6, 1)),
            ], into: db.database, now: now)
        let trend = try db.database.trend(unit: .lb, goal: Weight(160, .lb), now: now, calendar: calendar)
        #expect(trend == (try Self.everyEntry(db.database, now: now, calendar: calendar, goal: 160)))
        #expect(trend.points.map(\.weight) == [185])
        #expect(trend.weeklyRate == nil)
    }
}
