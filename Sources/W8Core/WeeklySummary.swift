import Foundation
import W8Text

/// The 7-day direction of weight (`004_*`): stable under 0.5 units, unknown with fewer than 2 entries.
public enum WeightTrend: String, Sendable, Codable {
    case up, down, stable, unknown
}

/// The weekly progress summary (US3, FR-010), in the preferred unit.
public struct WeeklySummary: Sendable, Equatable {
    public var unit: WeightUnit
    public var weekStart: Date
    public var weekEnd: Date
    /// Entries dated within the week, oldest first.
    public var entries: [WeightEntry]
    /// What the week's change is measured from: the latest entry before the week, or else its first entry.
    public var baseline: WeightEntry?
    public var progress: GoalProgress?
    /// The trend weight, weekly rate and forecast at the end of the week, when known.
    public var trendAnalysis: TrendAnalysis?
    /// The week's drinks and meals; nil when nothing was logged in the intake log that week.
    public var intake: WeekIntake?
    /// The average steps a day over the 7 local days up to the week's end (that day included); nil when none
    /// were recorded.
    public var averageSteps: Int?

    public static let window: TimeInterval = 7 * 24 * 3600

    /// The summary of the 7 days up to `now`, from the week's entries and the latest one before it.
    public init(unit: WeightUnit, now: Date, entries: [WeightEntry], before: WeightEntry?, progress: GoalProgress?) {
        self.unit = unit
        weekEnd = now
        weekStart = now.addingTimeInterval(-WeeklySummary.window)
        self.entries = entries.sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
        baseline = before ?? self.entries.first
        self.progress = progress
    }

    public var latest: WeightEntry? { entries.last }

    /// Latest minus baseline, in the preferred unit; nil without two weights to compare.
    public var change: Double? {
        guard trend != .unknown, let latest, let baseline else { return nil }
        return latest.weight.value(in: unit) - baseline.weight.value(in: unit)
    }

    /// The 7-day direction of the latest weight against the baseline.
    public var trend: WeightTrend {
        guard let latest, let baseline, entries.count + (baseline == entries.first ? 0 : 1) >= 2 else {
            return .unknown
        }
        let delta = latest.weight.value(in: unit) - baseline.weight.value(in: unit)
        if abs(delta) < unit.stableThreshold { return .stable }
        return delta > 0 ? .up : .down
    }

    /// The notification: a summary with entries, or a gentle reminder without (US3-2).
    public var notification: DesktopNotification {
        func w(_ v: Double) -> String { Weight(v, unit).formatted }
        // TRANSLATORS: a sentence of the weekly summary notification (and `w8 summary`); {steps} is a whole number.
        let stepsLine = averageSteps.map { " " + tr("Steps: {steps} a day.", ["steps": $0]) } ?? ""
        let dailyLine = (intake.map { " " + $0.sentence } ?? "") + stepsLine
        guard let latest else {
            return DesktopNotification(
                // TRANSLATORS: the weekly summary notification when the week has no weigh-in: its title, its body.
                key: "summary", title: tr("Time for a weigh-in?"),
                body: tr("No weigh-ins this week. A quick one today keeps your progress on track.") + dailyLine,
                category: .summary)
        }
        let current = latest.weight.value(in: unit)
        let title: String
        switch (trend, change) {
        // TRANSLATORS: the title of the weekly summary notification (at most 50 characters); {weight} is a weight
        // with its unit: the week's change, or the latest weight.
        case (.down, let c?): title = tr("Your week: down {weight}", ["weight": w(abs(c))])
        case (.up, let c?): title = tr("Your week: up {weight}", ["weight": w(abs(c))])
        case (.stable, _): title = tr("Your week: steady at {weight}", ["weight": w(current)])
        default: title = tr("Your week: {weight}", ["weight": w(current)])
        }
        var body = trn(
            // TRANSLATORS: the first sentence of the weekly summary; {weight} is the latest weight with its unit.
            "{count} weigh-in, latest {weight}.", "{count} weigh-ins, latest {weight}.", entries.count,
            ["count": entries.count, "weight": w(current)])
        if let progress, let percent = progress.percent {
            let percentText = Localization.localDecimal(GoalProgress.shown(max(percent, 0)))
            body +=
                " "
                + (progress.reaches(.complete)
                    // TRANSLATORS: {goal} is the goal weight with its unit.
                    ? tr("Goal of {goal} reached. Well done!", ["goal": w(progress.goal)])
                    : tr(
                        // TRANSLATORS: {percent} has one decimal ("25.6"), {goal} is the goal weight, {distance} what
                        // is left to it, each with its unit.
                        // xgettext:no-c-format
                        "{percent}% of the way to {goal}, {distance} to go.",
                        ["percent": percentText, "goal": w(progress.goal), "distance": w(progress.distanceToGoal)]))
        } else {
            // TRANSLATORS: keep 'w8 goal' as written: it is the command.
            body += " " + tr("Set a goal with 'w8 goal' to see your progress.")
        }
        if let line = trendAnalysis?.summaryLine { body += " " + line }
        body += dailyLine
        return DesktopNotification(key: "summary", title: title, body: body, category: .summary)
    }
}

/// The week's drinks and meals in the weekly summary, averaged over the 7 days of its window (days with nothing
/// logged count as zero).
public struct WeekIntake: Sendable, Equatable {
    /// Millilitres of water in the week.
    public var water: Int
    public var meals: Int
    public var volumeUnit: VolumeUnit

    /// The days averaged over: the summary's whole window.
    public static let days = 7.0

    /// The totals of the week's `events`; nil when there are none.
    public init?(events: [IntakeEvent], volumeUnit: VolumeUnit) {
        guard !events.isEmpty else { return nil }
        water = events.filter { $0.kind == .water }.reduce(0) { $0 + ($1.volume ?? 0) }
        meals = events.filter { $0.kind == .meal }.count
        self.volumeUnit = volumeUnit
    }

    public var averageWaterPerDay: Double { Double(water) / WeekIntake.days }
    public var averageMealsPerDay: Double { Double(meals) / WeekIntake.days }

    /// "Daily average: 1071 ml water, 2.4 meals."
    public var sentence: String {
        let water = volumeUnit.format(millilitres: Int(averageWaterPerDay.rounded()))
        return tr(
            // TRANSLATORS: a sentence of the weekly summary: {water} is a volume with its unit ("1071 ml"), {meals}
            // a number with one decimal ("2.4").
            "Daily average: {water} water, {meals} meals.",
            ["water": water, "meals": averageMealsPerDay.localDecimalText])
    }
}
