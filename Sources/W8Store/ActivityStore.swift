import Foundation
import GRDB
import W8Core

/// A row of `activity_day`; its columns are named by `CodingKeys`.
struct ActivityRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "activity_day"
    var day, source: String
    var steps, distance: Int
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case day, source, steps
        case distance = "distance_m"
        case updatedAt = "updated_at"
    }

    init(_ activity: ActivityDay, updatedAt: Date) {
        (day, source, steps, distance) =
            (activity.day.description, activity.source.rawValue, activity.steps, activity.distance)
        self.updatedAt = updatedAt
    }

    /// The row as the domain has it; nil for a day that is not `YYYY-MM-DD` (written by hand with sqlite3).
    var activity: ActivityDay? {
        CalendarDay(day).map {
            ActivityDay(day: $0, steps: steps, distance: distance, source: ActivitySource(rawValue: source))
        }
    }
}

extension StoreTransaction {
    /// Saves the day's total from `activity.source`, replacing that source's earlier total for the day (a new
    /// `w8 steps` for a day, or the same day imported again), and returns the one it replaced. Other sources'
    /// rows for the day stay: which one the day shows is `ActivityDay.shown`'s rule, not the store's.
    @discardableResult
    public func saveActivity(_ activity: ActivityDay, updatedAt: Date) throws -> ActivityDay? {
        let replaced = try ActivityRecord.fetchOne(
            db, sql: "SELECT * FROM activity_day WHERE day = ? AND source = ?",
            arguments: [activity.day.description, activity.source.rawValue])?.activity
        try ActivityRecord(activity, updatedAt: updatedAt).save(db)
        return replaced
    }
}

extension AppDatabase {
    /// Every source's row for the days from `first` to `last`, both included, newest day first.
    public func activityDays(from first: CalendarDay, to last: CalendarDay) throws -> [ActivityDay] {
        try readChecked { db in
            try ActivityRecord.fetchAll(
                db, sql: "SELECT * FROM activity_day WHERE day >= ? AND day <= ? ORDER BY day DESC, source",
                arguments: [first.description, last.description]
            ).compactMap(\.activity)
        }
    }
}
