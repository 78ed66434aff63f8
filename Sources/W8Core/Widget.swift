import Foundation

/// The status-bar glance: the iOS widget's `WeightWidgetEntry` (`004_*`) plus the goal progress, in the
/// preferred unit. Its text and tooltip are a machine format (`w8 widget`, waybar's JSON): English, with a point,
/// whatever the locale.
public struct WidgetEntry: Sendable, Equatable {
    /// When the entry was made (WidgetKit's timeline date).
    public var date: Date
    /// The latest weight; nil in the empty state.
    public var currentWeight: Double?
    public var unit: WeightUnit
    /// Nil when no goal is set: the progress part is hidden.
    public var goalWeight: Double?
    /// When the latest weight was logged.
    public var entryDate: Date?
    /// The 7-day direction, by the weekly summary's rule.
    public var trend: WeightTrend
    /// Progress toward the goal, uncapped (negative when moving away); nil without a goal.
    public var progressPercent: Double?
    /// Today's intake totals, for the water line; nil leaves it out.
    public var intake: IntakeDay?
    /// Today's steps and `activity.step_goal`, for the steps line; a goal of 0 leaves it out.
    public var steps = 0
    public var stepGoal = 0

    public init(
        date: Date, currentWeight: Double?, unit: WeightUnit, goalWeight: Double?, entryDate: Date?,
        trend: WeightTrend, progressPercent: Double?, intake: IntakeDay? = nil
    ) {
        self.date = date
        self.currentWeight = currentWeight
        self.unit = unit
        self.goalWeight = goalWeight
        self.entryDate = entryDate
        self.trend = trend
        self.progressPercent = progressPercent
        self.intake = intake
    }

    /// The entry for `now`, from the progress snapshot, the summary of the 7 days up to `now` and today's intake.
    public init(now: Date, snapshot: ProgressSnapshot, week: WeeklySummary, intake: IntakeDay? = nil) {
        let unit = snapshot.unit
        self.init(
            date: now, currentWeight: snapshot.current?.weight.value(in: unit), unit: unit,
            goalWeight: snapshot.goal?.weight.value(in: unit), entryDate: snapshot.current?.date,
            trend: snapshot.current == nil ? .unknown : week.trend, progressPercent: snapshot.progress?.percent,
            intake: intake)
    }

    /// "Water 750 of 2000 ml today (37%)", when a water goal is set or water was logged today.
    public var waterLine: String? {
        guard let intake, intake.goals.waterGoal > 0 || intake.water > 0 else { return nil }
        return intake.waterLine(for: .machine)
    }

    /// "Steps 6000 of 8000 today (75%)", when a step goal is set.
    public var stepsLine: String? {
        guard stepGoal > 0 else { return nil }
        let percent = GoalProgress.displayPercent(Double(steps) / Double(stepGoal) * 100)
        return "Steps \(steps) of \(stepGoal) today (\(percent)%)"
    }

    /// The text of the empty state.
    public static let emptyText = "no weigh-ins yet"

    /// The trend as an arrow; nothing when unknown.
    public var arrow: String? {
        switch trend {
        case .up: "↑"
        case .down: "↓"
        case .stable: "→"
        case .unknown: nil
        }
    }

    /// Progress for a bar: whole, cut as `GoalProgress.displayPercent` cuts it, capped to 0…100; nil without a goal.
    public var percentage: Int? {
        progressPercent.map { Int(GoalProgress.displayPercent(min(100, max(0, $0))))! }
    }

    /// One short line: "175.0 lb ↓ 25.6%", "175.0 lb ↓" without a goal, or "no weigh-ins yet".
    public var text: String {
        guard let currentWeight else { return WidgetEntry.emptyText }
        var parts = [Weight(currentWeight, unit).formatted(for: .machine)]
        if let arrow { parts.append(arrow) }
        if let progressPercent { parts.append("\(GoalProgress.shown(progressPercent))%") }
        return parts.joined(separator: " ")
    }

    /// A few lines for a tooltip: the latest weight and when, the week's direction, the goal and progress.
    /// The water and steps lines come last, also in the empty state.
    public func tooltip(formatDate: (Date) -> String) -> String {
        guard let currentWeight, let entryDate else {
            return
                (["W8Trackr: no weigh-ins yet. Log one with 'w8 add 182.4'."]
                + [waterLine, stepsLine].compactMap { $0 })
                .joined(separator: "\n")
        }
        var lines = ["W8Trackr: \(Weight(currentWeight, unit).formatted(for: .machine)) on \(formatDate(entryDate))"]
        switch trend {
        case .unknown: lines.append("7-day trend: not enough weigh-ins")
        default: lines.append("7-day trend: \(trend.rawValue)")
        }
        if let goalWeight {
            let progress = progressPercent.map { "\(GoalProgress.shown($0))%" } ?? "at the goal"
            lines.append("Goal \(Weight(goalWeight, unit).formatted(for: .machine)): \(progress)")
        }
        if let waterLine { lines.append(waterLine) }
        if let stepsLine { lines.append(stepsLine) }
        return lines.joined(separator: "\n")
    }
}
