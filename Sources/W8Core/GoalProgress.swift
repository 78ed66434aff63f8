import Foundation

/// Progress toward a goal, computed in the preferred unit (FR-001, FR-002, FR-011). Never persisted.
public struct GoalProgress: Sendable, Equatable {
    public let unit: WeightUnit
    public let start: Double
    public let current: Double
    public let goal: Double

    /// Tolerance for comparisons, so that 25% computed through a unit conversion still counts as 25%.
    static let epsilon = 1e-9

    public init(start: Weight, current: Weight, goal: Weight, unit: WeightUnit) {
        self.unit = unit
        self.start = start.value(in: unit)
        self.current = current.value(in: unit)
        self.goal = goal.value(in: unit)
    }

    /// (start − current) / (start − goal) × 100, the same for losing and gaining; nil when start equals goal.
    public var percent: Double? {
        let total = start - goal
        guard abs(total) > GoalProgress.epsilon else { return nil }
        return (start - current) / total * 100
    }

    /// A percentage cut toward zero to `decimals`, never rounded up, so that 24.96% never reads as the 25% milestone
    /// it has not reached: 25.675… is 25.6.
    public static func cutPercent(_ percent: Double, decimals: Int = 1) -> Double {
        let scale = decimals == 0 ? 1.0 : pow(10, Double(decimals))
        let nudged = percent * scale + (percent < 0 ? -epsilon : epsilon) * scale
        let cut = nudged.rounded(.towardZero) / scale
        return cut == 0 ? 0 : cut
    }

    /// A percentage for people to read, whole (`6`) or to one decimal (`6.7`), cut as `cutPercent` cuts it.
    public static func displayPercent(_ percent: Double, decimals: Int = 0) -> String {
        cutPercent(percent, decimals: decimals).fixedPointText(decimals: decimals)
    }

    /// Goal progress as every view shows it, text or JSON (`w8 add`, `status`, `goal`, `milestones`, `summary`,
    /// the widget): cut to one decimal, "25.6" for 25.675…%. Only a status bar's whole `percentage` is cut further.
    public static func shown(_ percent: Double) -> String { displayPercent(percent, decimals: 1) }

    /// Whether `start` and `goal` are this progress's start and goal weights, to half a gram: the same journey.
    public func isJourney(start: Weight, goal: Weight) -> Bool {
        let gram = 0.0005
        return abs(start.value(in: .kg) - Weight(self.start, unit).value(in: .kg)) < gram
            && abs(goal.value(in: .kg) - Weight(self.goal, unit).value(in: .kg)) < gram
    }

    /// Whether the journey is toward a lower weight.
    public var isLosing: Bool { goal < start }

    /// How far the current weight is from the goal, always positive.
    public var distanceToGoal: Double { abs(current - goal) }

    /// How much has been lost (or gained, for a gain goal) since the start; negative when moving away.
    public var changeSoFar: Double { isLosing ? start - current : current - start }

    /// Within 5 lb / 2.5 kg of the goal and not there yet (FR-004).
    public var isApproaching: Bool {
        guard let percent else { return false }
        return isWithinApproachingDistance && percent < 100 - GoalProgress.epsilon
    }

    public var isWithinApproachingDistance: Bool {
        distanceToGoal <= unit.approachingDistance + GoalProgress.epsilon
    }

    /// Whether the progress milestone `type` is reached by this progress.
    public func reaches(_ type: MilestoneType) -> Bool {
        guard let threshold = type.threshold, let percent else { return false }
        return percent >= threshold - GoalProgress.epsilon
    }

    /// The next progress milestone not yet reached by the numbers, or nil when the goal is reached.
    public var nextMilestone: MilestoneType? {
        guard percent != nil else { return nil }
        return MilestoneType.progressMilestones.first { !reaches($0) }
    }
}
