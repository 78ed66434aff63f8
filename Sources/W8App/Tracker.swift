import Foundation
import W8Core
import W8Store

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

    public init(
        database: AppDatabase, sink: any NotificationSink, context: EvaluationContext, statusBar: any StatusBar
    ) {
        self.database = database
        self.sink = sink
        // A change that claims a notification lets the sink start connecting while the commit is fsynced.
        var context = context
        context.notificationClaimed = { [sink] in sink.prepare() }
        self.context = context
        self.statusBar = statusBar
    }

    /// The key of the daily weigh-in reminder, whose server id is kept so that logging a weight can close it.
    public static let weighInReminderKey = "reminder.weigh-in"

    public func add(_ entry: WeightEntry) throws -> TrackerOutcome {
        var outcome = deliver(try database.addEntry(entry, context: context))
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
            return "weigh-in reminder not closed (\(error.localizedDescription))"
        }
    }

    /// Imports entries in one transaction (see `AppDatabase.importEntries`). After a real import, the status bar
    /// is refreshed and the one milestone notification the import earned, if any, is posted; a dry run touches
    /// nothing outside its rolled-back transaction.
    public func importEntries(
        dryRun: Bool, _ produce: (inout EntryImporter) throws -> Void
    ) throws -> (result: ImportResult, outcome: TrackerOutcome) {
        let result = try database.importEntries(context: context, dryRun: dryRun, produce)
        guard !dryRun else { return (result, TrackerOutcome(change: result.change, notified: nil, warning: nil)) }
        var outcome = deliver(result.change)
        if result.addedToday, let warning = closeWeighInReminder(), outcome.warning == nil { outcome.warning = warning }
        return (result, outcome)
    }

    public func edit(id: Int64, _ edit: (inout WeightEntry) throws -> Void) throws -> TrackerOutcome {
        deliver(try database.updateEntry(id: id, context: context, edit))
    }

    public func remove(id: Int64) throws -> TrackerOutcome {
        deliver(try database.removeEntry(id: id, context: context))
    }

    public func setGoal(_ weight: Weight, at date: Date, anchoring: Bool = false) throws -> (
        goal: Goal, newJourney: Bool, outcome: TrackerOutcome
    ) {
        let (goal, newJourney, change) = try database.setGoal(
            weight, at: date, anchoring: anchoring, context: context)
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
            return TrackerOutcome(
                change: change, notified: nil,
                warning: "notification not shown (\(error.localizedDescription)); the milestone was recorded")
        }
    }
}
