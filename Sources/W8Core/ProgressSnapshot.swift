import Foundation

/// The entries and goal that progress is computed from, as the store found them.
public struct ProgressSnapshot: Sendable, Equatable {
    public var unit: WeightUnit
    /// The entry with the latest date (rule 1).
    public var current: WeightEntry?
    /// The start entry of the current journey (rule 2).
    public var start: WeightEntry?
    public var goal: Goal?

    public init(unit: WeightUnit, current: WeightEntry?, start: WeightEntry?, goal: Goal?) {
        self.unit = unit
        self.current = current
        self.start = start
        self.goal = goal
    }

    /// Progress toward the goal in the preferred unit; nil without a goal or without entries (rule 8).
    public var progress: GoalProgress? {
        guard let current, let start, let goal else { return nil }
        return GoalProgress(start: start.weight, current: current.weight, goal: goal.weight, unit: unit)
    }
}
