import Foundation
import GRDB
import W8Core

/// One write transaction of `AppDatabase.write`: what a workflow may read and change inside it, named after what
/// it does. Everything done through it commits together, or nothing does. The store applies no rule here: the
/// workflow reads what the rules need, runs them, and writes what they decided.
public struct StoreTransaction {
    let db: Database

    // MARK: Entries

    /// Inserts `entry` and returns it with its id.
    public func saveEntry(_ entry: WeightEntry, createdAt: Date) throws -> WeightEntry {
        var saved = entry
        saved.id = try EntryRecord.insert(entry, createdAt: createdAt, db)
        return saved
    }

    /// Changes the entry `id` with `edit` and returns it as stored; `StoreError.entryNotFound` when there is none.
    public func updateEntry(id: Int64, _ edit: (inout WeightEntry) throws -> Void) throws -> WeightEntry {
        guard let found = try EntryRecord.fetchOne(db, key: id) else { throw StoreError.entryNotFound(id) }
        var entry = found.entry
        try edit(&entry)
        entry.id = id
        var record = EntryRecord(entry, createdAt: found.createdAt)
        try record.update(db)
        record.id = id
        return record.entry
    }

    /// Removes the entry `id` and returns it; `StoreError.entryNotFound` when there is none.
    public func removeEntry(id: Int64) throws -> WeightEntry {
        guard let found = try EntryRecord.fetchOne(db, key: id) else { throw StoreError.entryNotFound(id) }
        try found.delete(db)
        return found.entry
    }

    /// An importer that adds rows inside this transaction, each created at `now`; rows from `today` on are
    /// counted as logged today.
    public func importer(now: Date, today: Date) -> EntryImporter {
        EntryImporter(db: db, now: now, createdAt: StorageDate.text(now), today: today)
    }

    // MARK: Goal and progress

    public func goal() throws -> Goal? {
        try GoalRecord.fetchOne(db)?.goal
    }

    public func saveGoal(_ goal: Goal) throws {
        try GoalRecord(goal).save(db)
    }

    /// The current, start and goal weights, as `AppDatabase.snapshot(unit:)` reads them.
    public func snapshot(unit: WeightUnit) throws -> ProgressSnapshot {
        try AppDatabase.snapshot(db, unit: unit)
    }

    // MARK: Milestones

    /// The milestones achieved on the current journey and not re-armed since.
    public func achievedMilestones() throws -> Set<MilestoneType> {
        Set(try String.fetchAll(db, sql: "SELECT type FROM milestone_state").compactMap(MilestoneType.init))
    }

    /// Forgets every achieved milestone: a new journey re-arms them all.
    public func rearmAllMilestones() throws {
        try MilestoneStateRecord.deleteAll(db)
    }

    public func rearmMilestone(_ type: MilestoneType) throws {
        try db.execute(sql: "DELETE FROM milestone_state WHERE type = ?", arguments: [type.rawValue])
    }

    public func markMilestoneAchieved(_ type: MilestoneType) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO milestone_state (type) VALUES (?)", arguments: [type.rawValue])
    }

    /// The milestones whose notification was claimed as sent for an achievement dated within `interval`.
    public func notifiedMilestones(during interval: DateInterval) throws -> [MilestoneType] {
        try String.fetchAll(
            db,
            sql: "SELECT type FROM achievement WHERE date_achieved >= ? AND date_achieved < ? AND notification_sent",
            arguments: [StorageDate.text(interval.start), StorageDate.text(interval.end)]
        ).compactMap(MilestoneType.init)
    }

    /// Whether an achievement of `type` is recorded for the journey of `progress` (the same start and goal weight).
    public func hasAchievement(_ type: MilestoneType, onJourneyOf progress: GoalProgress) throws -> Bool {
        let rows = try Row.fetchAll(
            db, sql: "SELECT start_weight, goal_weight, unit FROM achievement WHERE type = ?",
            arguments: [type.rawValue])
        return rows.contains { row in
            guard let unit = WeightUnit(rawValue: row[2]) else { return false }
            return progress.isJourney(start: Weight(row[0], unit), goal: Weight(row[1], unit))
        }
    }

    /// Records `achievement` and returns it with its id.
    public func recordAchievement(_ achievement: MilestoneAchievement) throws -> MilestoneAchievement {
        var recorded = achievement
        recorded.id = try AchievementRecord.insert(achievement, db)
        return recorded
    }
}

extension AppDatabase {
    /// Runs `body` in one immediate write transaction, the workflow's: committed when it returns, rolled back when
    /// it throws, or at the end when `commit` is false (a dry run, whose counts are exactly a real run's).
    public func write<T>(commit: Bool = true, _ body: (StoreTransaction) throws -> T) throws -> T {
        commit
            ? try writeChecked { db in try body(StoreTransaction(db: db)) }
            : try transaction(commit: false) { db in try body(StoreTransaction(db: db)) }
    }
}
