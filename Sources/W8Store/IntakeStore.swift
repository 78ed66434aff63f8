import Foundation
import GRDB
import W8Core

/// A row of `intake_event`; its columns are named by `CodingKeys`, without GRDB's per-row snake-case conversion.
struct IntakeRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "intake_event"
    var id: Int64?
    var kind: IntakeKind
    var date: Date
    var volume: Int?
    var calories: Int
    var note: String?
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, kind, date
        case volume = "volume_ml"
        case calories, note
        case createdAt = "created_at"
    }

    init(_ event: IntakeEvent, createdAt: Date) {
        (id, kind, date, volume, calories, note) =
            (event.id, event.kind, event.date, event.volume, event.calories, event.note)
        self.createdAt = createdAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var event: IntakeEvent {
        IntakeEvent(id: id, kind: kind, date: date, volume: volume, calories: calories, note: note)
    }
}

extension IntakeKind: DatabaseValueConvertible {}

/// What logging a drink or a meal did: the event with its id, the day's totals after it, and whether it took the
/// water goal across and won the day's one "goal reached" notification.
public struct IntakeChange: Sendable {
    public var event: IntakeEvent
    public var day: IntakeDay
    /// The claim key to mark sent (or give back) once the notification was tried; nil when none is due.
    public var waterGoalClaim: String?
}

extension AppDatabase {
    /// Logs one event in one transaction. When it is a drink on the local day of `now` that takes the water goal
    /// across, and `notify` is on, it also claims that day's water-goal notification, which only one drink a day
    /// ever wins: removing drinks and crossing again claims nothing.
    public func addIntake(
        _ event: IntakeEvent, goals: IntakeSettings, notify: Bool, now: Date, calendar: Calendar
    ) throws -> IntakeChange {
        try writeChecked { db in
            let interval = calendar.dateInterval(of: .day, for: event.date)!
            let before = IntakeDay(
                containing: event.date, events: try Self.events(db, from: interval.start, to: interval.end),
                goals: goals, calendar: calendar)
            var record = IntakeRecord(event, createdAt: now)
            try record.insert(db)
            var after = before
            if event.kind == .water { after.water += event.volume ?? 0 }
            if event.kind == .beverage { after.beverage += event.volume ?? 0 }
            if event.kind == .meal { after.meals += 1 }
            if event.kind == .snack { after.snacks += 1 }
            after.calories += event.calories
            var claim: String?
            let today = calendar.dateInterval(of: .day, for: now)!
            if notify, today.start == interval.start,
                IntakeRules.crossesWaterGoal(before: before.water, after: after.water, goal: goals.waterGoal)
            {
                let key = IntakeRules.waterGoalKey(after, calendar: calendar)
                try db.execute(
                    sql: "INSERT OR IGNORE INTO schedule_claim (occurrence, claimed_at, sent) VALUES (?, ?, 0)",
                    arguments: [key, StorageDate.text(now)])
                if db.changesCount == 1 { claim = key }
            }
            return IntakeChange(event: record.event, day: after, waterGoalClaim: claim)
        }
    }

    /// Removes one event and returns it.
    public func removeIntake(id: Int64) throws -> IntakeEvent {
        try writeChecked { db in
            guard let record = try IntakeRecord.fetchOne(db, key: id) else { throw StoreError.intakeNotFound(id) }
            _ = try IntakeRecord.deleteOne(db, key: id)
            return record.event
        }
    }

    /// The events from `start` (included) to `end` (excluded), newest first.
    public func intakeEvents(from start: Date, to end: Date) throws -> [IntakeEvent] {
        try readChecked { db in try Self.events(db, from: start, to: end).reversed() }
    }

    /// The totals of the local day of `date`.
    public func intakeDay(containing date: Date, goals: IntakeSettings, calendar: Calendar) throws -> IntakeDay {
        let interval = calendar.dateInterval(of: .day, for: date)!
        return IntakeDay(
            containing: date, events: try intakeEvents(from: interval.start, to: interval.end), goals: goals,
            calendar: calendar)
    }

    /// The latest event of one of `kinds` at or before `date`.
    public func lastIntake(of kinds: [IntakeKind], atOrBefore date: Date) throws -> IntakeEvent? {
        try readChecked { db in
            try IntakeRecord.fetchOne(
                db,
                sql: """
                    SELECT * FROM intake_event WHERE date <= ? AND kind IN (\(kinds.map { _ in "?" }.joined(separator: ",")))
                    ORDER BY date DESC, id DESC LIMIT 1
                    """,
                arguments: StatementArguments([date] + kinds.map(\.rawValue))!)?.event
        }
    }

    /// Every event, oldest first, for the backup.
    public func allIntake() throws -> [IntakeEvent] {
        try readChecked { db in
            try IntakeRecord.fetchAll(db, sql: "SELECT * FROM intake_event ORDER BY date, id").map(\.event)
        }
    }

    static func events(_ db: Database, from start: Date, to end: Date) throws -> [IntakeEvent] {
        try IntakeRecord.fetchAll(
            db, sql: "SELECT * FROM intake_event WHERE date >= ? AND date < ? ORDER BY date, id",
            arguments: [StorageDate.text(start), StorageDate.text(end)]
        ).map(\.event)
    }
}
