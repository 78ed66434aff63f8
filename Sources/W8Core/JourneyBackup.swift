import Foundation

/// What a backup restores besides the entries: the goal, the milestones achieved on it, every achievement, and
/// the intake log and the activity log.
public struct JourneyBackup: Sendable, Equatable {
    public var goal: Goal?
    /// Milestones achieved on the current journey and not re-armed since.
    public var milestonesAchieved: [MilestoneType]
    public var achievements: [MilestoneAchievement]
    public var intake: [IntakeEvent]
    /// Every source's row of every day, oldest day first.
    public var activity: [ActivityDay]

    public init(
        goal: Goal?, milestonesAchieved: [MilestoneType], achievements: [MilestoneAchievement],
        intake: [IntakeEvent] = [], activity: [ActivityDay] = []
    ) {
        self.goal = goal
        self.milestonesAchieved = milestonesAchieved
        self.achievements = achievements
        self.intake = intake
        self.activity = activity
    }
}
