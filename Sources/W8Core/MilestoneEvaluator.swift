import Foundation

/// Which goal notifications the person wants (FR-006). Disabled ones still record achievements.
public struct NotificationPreferences: Sendable, Equatable {
    /// The master switch for goal notifications.
    public var enabled: Bool
    public var milestones: Bool
    public var approaching: Bool

    public init(enabled: Bool = true, milestones: Bool = true, approaching: Bool = true) {
        self.enabled = enabled
        self.milestones = milestones
        self.approaching = approaching
    }

    public func allows(_ type: MilestoneType) -> Bool {
        enabled && (type == .approaching ? approaching : milestones)
    }
}

/// What one evaluation of the milestone rules decided.
public struct MilestoneEvaluation: Sendable, Equatable {
    /// Milestones achieved and not re-armed after this evaluation.
    public var achieved: Set<MilestoneType>
    /// Milestones newly achieved by this evaluation, lowest rank first: each is recorded (rule 4).
    public var newlyAchieved: [MilestoneType]
    /// Milestones re-armed by a regression (rule 6).
    public var rearmed: [MilestoneType]
    /// The one event to notify, if any (rule 5).
    public var notify: MilestoneType?
}

/// The milestone rules of the feature spec (rules 3–8 of the core issue), as a pure function.
public enum MilestoneEvaluator {
    /// Evaluates `progress` against the milestones already achieved.
    ///
    /// - Parameters:
    ///   - progress: the current progress, or nil when no goal is set (rule 8: nothing happens).
    ///   - achieved: milestones achieved on this journey and not re-armed since.
    ///   - preferences: which events may notify.
    ///   - notifiedToday: the highest event already notified on the current local day, if any.
    ///   - rearm: whether a weight below a threshold re-arms it; false when only the goal changed (rule 7).
    public static func evaluate(
        progress: GoalProgress?,
        achieved: Set<MilestoneType>,
        preferences: NotificationPreferences,
        notifiedToday: MilestoneType?,
        rearm: Bool = true
    ) -> MilestoneEvaluation {
        guard let progress, progress.percent != nil else {
            return MilestoneEvaluation(achieved: achieved, newlyAchieved: [], rearmed: [], notify: nil)
        }
        var state = achieved
        var newly: [MilestoneType] = []
        var rearmed: [MilestoneType] = []
        for type in MilestoneType.allCases {
            let reached = type == .approaching ? progress.isApproaching : progress.reaches(type)
            // Approaching re-arms only when the weight moves farther than the approaching distance,
            // not when it passes the goal.
            let regressed = type == .approaching ? !progress.isWithinApproachingDistance : !reached
            if reached {
                if state.insert(type).inserted { newly.append(type) }
            } else if regressed, rearm, state.remove(type) != nil {
                rearmed.append(type)
            }
        }
        var notify = newly.filter(preferences.allows).max()
        // Multiple milestones in one day: only an event that outranks today's earlier one goes out.
        if let sent = notifiedToday, let candidate = notify, candidate <= sent { notify = nil }
        return MilestoneEvaluation(achieved: state, newlyAchieved: newly, rearmed: rearmed, notify: notify)
    }
}
