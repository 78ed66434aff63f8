import Foundation
import GRDB
import W8Core

/// A notification the rules decided to send, already claimed in the store as sent.
public struct PendingNotification: Sendable, Equatable {
    public var achievementID: Int64
    public var type: MilestoneType
    public var notification: DesktopNotification
}

/// What a change to the data did to the goal journey.
public struct RecordedChange: Sendable {
    /// The entry that was added, edited or removed.
    public var entry: WeightEntry?
    public var evaluation: MilestoneEvaluation
    /// Achievements recorded by this change.
    public var achievements: [MilestoneAchievement]
    public var pending: PendingNotification?
    public var snapshot: ProgressSnapshot
}

/// The goal and the milestone rules, as the store applies them inside its transactions.
extension AppDatabase {
    // MARK: Goal

    public func goal() throws -> Goal? {
        try readChecked { db in try GoalRecord.fetchOne(db)?.goal }
    }

    /// Sets the goal (FR-009): a change of more than 10% begins a new journey with every milestone re-armed;
    /// a smaller one keeps the journey, and achieved milestones are not notified again because of it. With
    /// `anchoring`, a kept journey starts at `date` (`Goal.setting`).
    public func setGoal(_ weight: Weight, at date: Date, anchoring: Bool = false, context: EvaluationContext) throws
        -> (goal: Goal, newJourney: Bool, change: RecordedChange)
    {
        try writeChecked { db in
            let previous = try GoalRecord.fetchOne(db)?.goal
            let (goal, newJourney) = Goal.setting(weight, at: date, previous: previous, anchoring: anchoring)
            try GoalRecord(goal).save(db)
            if newJourney { try MilestoneStateRecord.deleteAll(db) }
            let change = try evaluate(db, context: context, rearm: newJourney, entry: nil)
            return (goal, newJourney, change)
        }
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
        try readChecked { db in try snapshot(db, unit: unit) }
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
            // Plain SQL, as the rest of w8 add's path (see `snapshot`): the query interface read the schema first.
            try db.execute(
                sql: "UPDATE achievement SET notification_sent = ? WHERE id = ?", arguments: [sent, achievementID])
        }
    }

    // MARK: Internals

    /// Read with SQL and by column position, as everything on `w8 add`'s path: GRDB's query interface and
    /// Codable records instantiate generic types at run time, and the Swift runtime scans every conformance record
    /// of the binary for each one, the first time in a process (a fifth of `w8 add`'s CPU time).
    func snapshot(_ db: Database, unit: WeightUnit) throws -> ProgressSnapshot {
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

    /// Evaluates the milestones after a change. With `history` (an import), milestones the current weight reached
    /// before today are recorded at its date and not notified.
    func evaluate(_ db: Database, context: EvaluationContext, rearm: Bool, entry: WeightEntry?, history: Bool = false)
        throws -> RecordedChange
    {
        let snapshot = try snapshot(db, unit: context.settings.unit)
        var achievedAt = context.now
        if history, let current = snapshot.current?.date,
            current < context.calendar.startOfDay(for: context.now)
        {
            achievedAt = current
        }
        let achieved = Set(
            try String.fetchAll(db, sql: "SELECT type FROM milestone_state").compactMap(MilestoneType.init))
        var notifiedToday: MilestoneType?
        if let today = context.calendar.dateInterval(of: .day, for: context.now) {
            notifiedToday = try String.fetchAll(
                db,
                sql:
                    "SELECT type FROM achievement WHERE date_achieved >= ? AND date_achieved < ? AND notification_sent",
                arguments: [StorageDate.text(today.start), StorageDate.text(today.end)]
            ).compactMap(MilestoneType.init).max()
        }
        var evaluation = MilestoneEvaluator.evaluate(
            progress: snapshot.progress, achieved: achieved, preferences: context.settings.notifications,
            notifiedToday: notifiedToday, rearm: rearm)
        if achievedAt != context.now { evaluation.notify = nil }
        for type in evaluation.rearmed {
            try db.execute(sql: "DELETE FROM milestone_state WHERE type = ?", arguments: [type.rawValue])
        }
        var recorded: [MilestoneAchievement] = []
        var pending: PendingNotification?
        if let progress = snapshot.progress {
            for type in evaluation.newlyAchieved {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO milestone_state (type) VALUES (?)", arguments: [type.rawValue])
                // An import never records again what this journey already recorded: a backup restores the
                // milestone state of its day, behind progress made since.
                if history, try isRecorded(db, type, on: progress) { continue }
                // The notification is claimed as sent inside the transaction, so a concurrent evaluation
                // sees it; the caller clears the flag if posting fails.
                let notify = type == evaluation.notify
                var achievement = MilestoneAchievement(
                    type: type, progress: progress, at: achievedAt, notificationSent: notify)
                achievement.id = try AchievementRecord.insert(achievement, db)
                recorded.append(achievement)
                if notify, let id = achievement.id {
                    pending = PendingNotification(
                        achievementID: id, type: type, notification: .milestone(type, progress: progress))
                    context.notificationClaimed()
                }
            }
        }
        return RecordedChange(
            entry: entry, evaluation: evaluation, achievements: recorded, pending: pending, snapshot: snapshot)
    }

    /// Whether an achievement of `type` is recorded for the journey of `progress` (the same start and goal weight).
    private func isRecorded(_ db: Database, _ type: MilestoneType, on progress: GoalProgress) throws -> Bool {
        let rows = try Row.fetchAll(
            db, sql: "SELECT start_weight, goal_weight, unit FROM achievement WHERE type = ?",
            arguments: [type.rawValue])
        return rows.contains { row in
            guard let unit = WeightUnit(rawValue: row[2]) else { return false }
            return progress.isJourney(start: Weight(row[0], unit), goal: Weight(row[1], unit))
        }
    }
}
