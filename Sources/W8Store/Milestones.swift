import Foundation
import GRDB
import W8Core

/// The goal, progress and achievements, read and changed outside a workflow's transaction.
extension AppDatabase {
    // MARK: Goal

    public func goal() throws -> Goal? {
        try readChecked { db in try GoalRecord.fetchOne(db)?.goal }
    }

    /// Removes the goal; milestones stop until a goal is set again (rule 8).
    @discardableResult
    public func clearGoal() throws -> Bool {
        try writeChecked { db in
            try MilestoneStateRecord.deleteAll(db)
            return try GoalRecord.deleteAll(db) > 0
        }
    }

    // MARK: Progress and milestones

    /// The current, start and goal weights that progress is computed from. Indexed look-ups only.
    public func snapshot(unit: WeightUnit) throws -> ProgressSnapshot {
        try readChecked { db in try AppDatabase.snapshot(db, unit: unit) }
    }

    /// Every achievement, newest first.
    public func achievements() throws -> [MilestoneAchievement] {
        try readChecked { db in
            try AchievementRecord.order(AchievementRecord.Columns.dateAchieved.desc, AchievementRecord.Columns.id.desc)
                .fetchAll(db).map(\.achievement)
        }
    }

    /// Records whether the notification claimed for an achievement really went out.
    public func markNotification(achievementID: Int64, sent: Bool) throws {
        try writeChecked { db in
            // Plain SQL, as the rest of w8 add's path (StartUpTricks.swift).
            try db.execute(
                sql: "UPDATE achievement SET notification_sent = ? WHERE id = ?", arguments: [sent, achievementID])
        }
    }

    // MARK: Internals

    /// Read with plain SQL by position, for the bench row "w8 add: 100,000 entries / 10 entries" (StartUpTricks.swift).
    static func snapshot(_ db: Database, unit: WeightUnit) throws -> ProgressSnapshot {
        let current = try EntryRecord.one(db, "ORDER BY date DESC, id DESC")
        let goal = try GoalRecord.current(db)
        var start: WeightEntry?
        if let goal {
            // Dates are compared as the text GRDB stores (`StorageDate`), without GRDB's DateFormatter.
            let t = StorageDate.text(goal.journeyStartedAt)
            let before = try EntryRecord.one(db, "WHERE date <= ? ORDER BY date DESC, id DESC", [t])
            let after = before == nil ? try EntryRecord.one(db, "WHERE date > ? ORDER BY date, id", [t]) : nil
            start = Goal.startEntry(latestAtOrBefore: before, firstAfter: after)
        }
        return ProgressSnapshot(unit: unit, current: current, start: start, goal: goal)
    }
}
