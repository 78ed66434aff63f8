import Foundation

/// What a backup restores besides the entries: the goal, the milestones achieved on it, every achievement, and
/// the intake log.
public struct JourneyBackup: Sendable, Equatable {
    public var goal: Goal?
    /// Milestones achieved on the current journey and not re-armed since.
    public var milestonesAchieved: [MilestoneType]
    public var achievements: [MilestoneAchievement]
    public var intake: [IntakeEvent]

    public init(
        goal: Goal?, milestonesAchieved: [MilestoneType], achievements: [MilestoneAchievement],
        intake: [IntakeEvent] = []
    ) {
        self.goal = goal
        self.milestonesAchieved = milestonesAchieved
        self.achievements = achievements
        self.intake = intake
    }
}

extension Weight {
    /// A number as text that reads back as the same Double: `182.4`, never `182.40000000000001`.
    public static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }
}
