import Foundation
import W8Core
import W8Store
import W8Text

/// A notification the rules decided to send, already claimed in the store as sent.
public struct PendingNotification: Sendable, Equatable {
    public var achievementID: Int64
    public var type: MilestoneType
    /// The progress that reached it, which the notification tells.
    public var progress: GoalProgress

    /// The notification, written when it is asked for (after the commit): a notification is for people, so it is
    /// in the user's language, under --json too.
    public var notification: DesktopNotification {
        Localization.inUsersLanguage { DesktopNotification.milestone(type, progress: progress) }
    }
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

/// What an import did, or would have done in a dry run.
public struct ImportResult: Sendable {
    public var added: Int
    /// Rows whose date and weight an entry already has.
    public var present: Int
    public var achievementsRestored: Int
    /// Intake events a backup added (those already there are not added again).
    public var intakeRestored: Int
    /// Days of steps imported (new or changed) and already there with the same total.
    public var activityAdded = 0
    public var activityPresent = 0
    /// Drinks and calories imported from another app's log, and those already there.
    public var intakeAdded = 0
    public var intakePresent = 0
    /// Whether an added entry is dated today: logging today closes the weigh-in reminder.
    public var addedToday: Bool
    /// The one milestone evaluation at the end.
    public var change: RecordedChange
}

/// What an evaluation needs from outside, fixed for one command: the moment, the person's calendar and their
/// settings.
public struct EvaluationContext: Sendable {
    public let now: Date
    public let calendar: Calendar
    public let settings: Settings

    /// `settings` are a new person's unless given.
    public init(now: Date, calendar: Calendar, settings: Settings = Settings()) {
        self.now = now
        self.calendar = calendar
        self.settings = settings
    }
}

extension StoreTransaction {
    /// Runs the milestone rules after a change, inside the change's transaction: reads what they need, records
    /// what they decided, and claims the notification they chose. With `history` (an import), milestones the
    /// current weight reached before today are recorded at its date and not notified.
    ///
    /// With `silent` (a merge of another machine's events), milestones are recorded as achieved and none is
    /// notified: the machine that recorded the crossing entry announces it.
    func recordMilestones(
        context: EvaluationContext, rearm: Bool, entry: WeightEntry?, history: Bool = false, silent: Bool = false
    ) throws -> RecordedChange {
        let snapshot = try snapshot(unit: context.settings.unit)
        var achievedAt = context.now
        if history, let current = snapshot.current?.date,
            current < context.calendar.startOfDay(for: context.now)
        {
            achievedAt = current
        }
        let notifiedToday = try context.calendar.dateInterval(of: .day, for: context.now)
            .flatMap { try notifiedMilestones(during: $0).max() }
        var evaluation = MilestoneEvaluator.evaluate(
            progress: snapshot.progress, achieved: try achievedMilestones(),
            preferences: context.settings.notifications, notifiedToday: notifiedToday, rearm: rearm)
        if achievedAt != context.now || silent { evaluation.notify = nil }
        for type in evaluation.rearmed { try rearmMilestone(type) }
        var recorded: [MilestoneAchievement] = []
        var pending: PendingNotification?
        if let progress = snapshot.progress {
            for type in evaluation.newlyAchieved {
                try markMilestoneAchieved(type)
                // An import never records again what this journey already recorded: a backup restores the
                // milestone state of its day, behind progress made since.
                if history, try hasAchievement(type, onJourneyOf: progress) { continue }
                // The notification is claimed as sent inside the transaction, so a concurrent evaluation
                // sees it; the caller clears the flag if posting fails.
                let notify = type == evaluation.notify
                let achievement = try recordAchievement(
                    MilestoneAchievement(type: type, progress: progress, at: achievedAt, notificationSent: notify))
                recorded.append(achievement)
                if notify, let id = achievement.id {
                    pending = PendingNotification(achievementID: id, type: type, progress: progress)
                }
            }
        }
        return RecordedChange(
            entry: entry, evaluation: evaluation, achievements: recorded, pending: pending, snapshot: snapshot)
    }
}
