import Foundation
import W8Core
import W8Store
import W8Text

/// What a change did, after its notification (if any) was posted.
public struct TrackerOutcome: Sendable {
    public var change: RecordedChange
    /// The milestone whose notification really went out.
    public var notified: MilestoneType?
    /// Why a notification that should have gone out did not: one line for stderr.
    public var warning: String?
}

/// Something to tell after every committed change, such as the person's status bar.
public protocol StatusBar: Sendable {
    func refresh()
}

/// Ties the store, the milestone rules and the notification sink together for one command.
public struct Tracker: Sendable {
    public let database: AppDatabase
    public let sink: any NotificationSink
    public let context: EvaluationContext
    /// Told after each committed change (`WaybarRefresh` with the `widget.signal` setting).
    public let statusBar: any StatusBar
    /// Called inside a change's transaction when the rules claimed a notification, before the commit: the one
    /// start-up trick kept here (bench/README.md, "Start-up tricks"). The composition root starts libnotify's
    /// connection, which then overlaps the commit's fsyncs.
    let claimed: @Sendable () -> Void

    public init(
        database: AppDatabase, sink: any NotificationSink, context: EvaluationContext, statusBar: any StatusBar,
        claimed: @escaping @Sendable () -> Void = {}
    ) {
        self.database = database
        self.sink = sink
        self.context = context
        self.statusBar = statusBar
        self.claimed = claimed
    }

    /// The key of the daily weigh-in reminder, whose server id is kept so that logging a weight can close it.
    public static let weighInReminderKey = "reminder.weigh-in"

    /// Runs `change` in one write transaction, the milestone rules included: the entry and its achievements
    /// commit together, or neither does.
    func record<T>(commit: Bool = true, _ change: (StoreTransaction) throws -> T) throws -> T {
        try database.write(commit: commit, change)
    }

    /// The milestone rules after a change, inside its `transaction`; `claimed` hears of a notification they claim,
    /// unless the change will not commit.
    func recordMilestones(
        _ transaction: StoreTransaction, rearm: Bool, entry: WeightEntry?, history: Bool = false, commits: Bool = true
    ) throws -> RecordedChange {
        let change = try transaction.recordMilestones(context: context, rearm: rearm, entry: entry, history: history)
        if change.pending != nil, commits { claimed() }
        return change
    }

    public func add(_ entry: WeightEntry) throws -> TrackerOutcome {
        let change = try record { transaction in
            let added = try transaction.saveEntry(entry, createdAt: context.now)
            return try recordMilestones(transaction, rearm: true, entry: added)
        }
        var outcome = deliver(change)
        if let warning = closeWeighInReminder(), outcome.warning == nil { outcome.warning = warning }
        return outcome
    }

    /// Closes the weigh-in reminder on screen, if one was posted by any process; the person has just weighed in.
    func closeWeighInReminder() -> String? {
        guard let id = try? database.notificationID(forKey: Tracker.weighInReminderKey) else { return nil }
        try? database.setNotificationID(nil, forKey: Tracker.weighInReminderKey, at: context.now)
        do {
            try sink.close(id: id)
            return nil
        } catch {
            // TRANSLATORS: a warning after `w8 add`; {reason} is the notification server's.
            return Localization.inUsersLanguage {
                tr("weigh-in reminder not closed ({reason})", ["reason": error.localizedDescription])
            }
        }
    }

    /// Imports entries in one transaction: `produce` adds them through the importer, then the milestones are
    /// evaluated once against the current weight. If `produce` throws, nothing is written; in a dry run the
    /// transaction is rolled back at the end, so the counts are exactly what a real import would give.
    ///
    /// `produce` may also restore a backup's goal, milestone state and achievements (`EntryImporter.restore`).
    /// After a real import, the status bar is refreshed and the one milestone notification the import earned, if
    /// any, is posted; a dry run touches nothing outside its rolled-back transaction.
    public func importEntries(
        dryRun: Bool, _ produce: (inout EntryImporter) throws -> Void
    ) throws -> (result: ImportResult, outcome: TrackerOutcome) {
        let result = try record(
            commit: !dryRun,
            { transaction in
                var importer = transaction.importer(
                    now: context.now, today: context.calendar.startOfDay(for: context.now))
                try produce(&importer)
                let change = try recordMilestones(
                    transaction, rearm: true, entry: nil, history: true, commits: !dryRun)
                var result = ImportResult(
                    added: importer.added, present: importer.present,
                    achievementsRestored: importer.achievementsRestored,
                    intakeRestored: importer.intakeRestored, addedToday: importer.addedToday, change: change)
                (result.activityAdded, result.activityPresent) = (importer.activityAdded, importer.activityPresent)
                (result.intakeAdded, result.intakePresent) = (importer.intakeAdded, importer.intakePresent)
                return result
            })
        guard !dryRun else { return (result, TrackerOutcome(change: result.change, notified: nil, warning: nil)) }
        var outcome = deliver(result.change)
        if result.addedToday, let warning = closeWeighInReminder(), outcome.warning == nil { outcome.warning = warning }
        return (result, outcome)
    }

    /// Changes an entry and re-evaluates: an edit can be a regression.
    public func edit(id: Int64, _ edit: (inout WeightEntry) throws -> Void) throws -> TrackerOutcome {
        deliver(
            try record { transaction in
                let edited = try transaction.updateEntry(id: id, edit)
                return try recordMilestones(transaction, rearm: true, entry: edited)
            })
    }

    /// Removes an entry and re-evaluates: a removal can be a regression.
    public func remove(id: Int64) throws -> TrackerOutcome {
        deliver(
            try record { transaction in
                let removed = try transaction.removeEntry(id: id)
                return try recordMilestones(transaction, rearm: true, entry: removed)
            })
    }

    /// Sets the goal (FR-009): a change of more than 10% begins a new journey with every milestone re-armed;
    /// a smaller one keeps the journey, and achieved milestones are not notified again because of it. With
    /// `anchoring`, a kept journey starts at `date` (`Goal.setting`).
    public func setGoal(_ weight: Weight, at date: Date, anchoring: Bool = false) throws -> (
        goal: Goal, newJourney: Bool, outcome: TrackerOutcome
    ) {
        let (goal, newJourney, change) = try record(
            { transaction -> (goal: Goal, newJourney: Bool, change: RecordedChange) in
                let (goal, newJourney) = Goal.setting(
                    weight, at: date, previous: try transaction.goal(), anchoring: anchoring)
                try transaction.saveGoal(goal)
                if newJourney { try transaction.rearmAllMilestones() }
                let change = try recordMilestones(transaction, rearm: newJourney, entry: nil)
                return (goal: goal, newJourney: newJourney, change: change)
            })
        return (goal, newJourney, deliver(change))
    }

    /// The progress and the trend now, for `w8 status`.
    public func status() throws -> (ProgressSnapshot, TrendAnalysis) {
        let unit = context.settings.unit
        let snapshot = try database.snapshot(unit: unit)
        let trend = try database.trend(
            unit: unit, goal: snapshot.goal?.weight, now: context.now, calendar: context.calendar)
        return (snapshot, trend)
    }

    /// Removes the goal; false when none was set.
    public func clearGoal() throws -> Bool {
        let removed = try database.clearGoal()
        if removed { refreshWidget() }
        return removed
    }

    /// Inside the transaction that merges other machines' events (`SyncFolder.inMerge`): the milestones they
    /// reached are marked achieved and not announced (the machine that recorded the crossing entry did).
    public func recordMergedMilestones(_ transaction: StoreTransaction) throws {
        _ = try transaction.recordMilestones(context: context, rearm: true, entry: nil, silent: true)
    }

    /// What this machine does after merging other machines' events (`SyncFolder`): a weigh-in logged today
    /// elsewhere closes the weigh-in reminder here, and the status bar re-reads the data.
    public func absorbMerge(_ result: SyncMergeResult) {
        let today = context.calendar.startOfDay(for: context.now)
        if result.weighInDates.contains(where: { context.calendar.startOfDay(for: $0) == today }) {
            _ = closeWeighInReminder()
        }
        refreshWidget()
    }

    /// Tells the status bar to re-read the data, after a committed change.
    func refreshWidget() {
        statusBar.refresh()
    }

    /// Refreshes the status bar, then posts the claimed notification; on failure the achievement is kept with
    /// notification sent = false.
    func deliver(_ change: RecordedChange) -> TrackerOutcome {
        refreshWidget()
        guard let pending = change.pending else { return TrackerOutcome(change: change, notified: nil, warning: nil) }
        do {
            _ = try sink.post(pending.notification)
            return TrackerOutcome(change: change, notified: pending.type, warning: nil)
        } catch {
            try? database.markNotification(achievementID: pending.achievementID, sent: false)
            let reason = error.localizedDescription
            // TRANSLATORS: a warning on the terminal; {reason} is the notification server's.
            let warning = Localization.inUsersLanguage {
                tr("notification not shown ({reason}); the milestone was recorded", ["reason": reason])
            }
            return TrackerOutcome(change: change, notified: nil, warning: warning)
        }
    }
}
