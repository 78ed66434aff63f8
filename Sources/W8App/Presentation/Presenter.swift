import Foundation
import W8Core
import W8Store

/// Formats domain values for the terminal and for JSON, in the preferred unit.
public struct Presenter: Sendable {
    public let unit: WeightUnit
    public let dates: DateFormatting

    /// A presenter writing weights in `unit` and dates in `timeZone`.
    public init(unit: WeightUnit, timeZone: TimeZone) {
        self.unit = unit
        dates = DateFormatting(timeZone: timeZone)
    }

    public func weight(_ w: Weight) -> String {
        w.unit == unit ? w.formatted : "\(w.converted(to: unit).formatted) (entered as \(w.formatted))"
    }

    public func amount(_ value: Double) -> String { Weight(value, unit).formatted }

    public func entryJSON(_ entry: WeightEntry) -> JSON {
        .object([
            ("id", entry.id.map { .integer($0) } ?? .null),
            ("weight", .decimal(entry.weight.value(in: unit))),
            ("unit", .string(unit.rawValue)),
            ("date", .string(dates.iso8601(entry.date))),
            ("note", .string(entry.note)),
            ("body_fat_percent", .decimal(entry.bodyFatPercent)),
            ("entered_weight", .number(entry.weight.value)),
            ("entered_unit", .string(entry.weight.unit.rawValue)),
        ])
    }

    public func achievementJSON(_ a: MilestoneAchievement) -> JSON {
        func w(_ v: Double) -> JSON { .decimal(Weight(v, a.unit).value(in: unit)) }
        return .object([
            ("id", a.id.map { .integer($0) } ?? .null),
            ("type", .string(a.type.rawValue)),
            ("date_achieved", .string(dates.iso8601(a.dateAchieved))),
            ("weight", w(a.weight)),
            ("goal_weight", w(a.goalWeight)),
            ("start_weight", w(a.startWeight)),
            ("unit", .string(unit.rawValue)),
            ("progress_percent", .progress(a.progressPercent)),
            ("notification_sent", .bool(a.notificationSent)),
        ])
    }

    public func statusJSON(_ snapshot: ProgressSnapshot, trend: TrendAnalysis) -> JSON {
        let progress = snapshot.progress
        return .object(
            [
                ("unit", .string(unit.rawValue)),
                ("current_weight", .decimal(snapshot.current?.weight.value(in: unit))),
                ("start_weight", .decimal(progress == nil ? nil : snapshot.start?.weight.value(in: unit))),
                ("goal_weight", .decimal(snapshot.goal?.weight.value(in: unit))),
                ("progress_percent", .progress(progress?.percent)),
                ("next_milestone", .string(progress?.nextMilestone?.rawValue)),
                ("distance_to_goal", .decimal(progress?.distanceToGoal)),
                ("approaching", progress.map { .bool($0.isApproaching) } ?? .null),
            ] + trendJSON(trend))
    }

    /// `trend_weight`, `weekly_rate` (units a week, negative when losing) and `forecast_date`; null when unknown.
    public func trendJSON(_ trend: TrendAnalysis?) -> [(String, JSON)] {
        [
            ("trend_weight", .decimal(trend?.trendWeight)),
            ("weekly_rate", .decimal(trend?.weeklyRate)),
            ("forecast_date", .string(trend?.forecastDate.map(dates.iso8601))),
        ]
    }

    /// "Trend     176.2 lb · -1.3 lb a week" and "Forecast  goal on Tue 12 Jan 2027", as far as they are known.
    public func trendLines(_ trend: TrendAnalysis?) -> [String] {
        guard let trend, let weight = trend.trendWeight else { return [] }
        var lines = ["Trend     \(amount(weight))"]
        if let rate = trend.weeklyRate {
            lines[0] += " · \(rate < 0 ? "-" : "+")\(amount(abs(rate))) a week"
        } else {
            lines[0] += " · rate needs 4 weigh-ins in the last 7 days, the latest within 2 days"
        }
        if let forecast = trend.forecastDate { lines.append("Forecast  goal on \(dates.day(forecast))") }
        return lines
    }

    /// "Progress 25.0% · 15.0 lb to go to 160.0 lb", or nil without a goal.
    public func progressLine(_ snapshot: ProgressSnapshot) -> String? {
        guard let progress = snapshot.progress else { return nil }
        guard let percent = progress.percent else {
            return "You are at your goal weight of \(amount(progress.goal))."
        }
        let rest =
            progress.reaches(.complete)
            ? "goal of \(amount(progress.goal)) reached"
            : "\(amount(progress.distanceToGoal)) to go to \(amount(progress.goal))"
        return "Progress \(GoalProgress.shown(percent))% · \(rest)"
    }

    /// What a change did to the milestones, for the terminal.
    public func milestoneLines(_ outcome: TrackerOutcome) -> [String] {
        var lines: [String] = []
        if let pending = outcome.change.pending {
            let n = pending.notification
            lines.append(n.title)
            lines.append("  " + n.body)
        }
        let others = outcome.change.achievements.map(\.type).filter { $0 != outcome.change.pending?.type }
        if let sentence = MilestoneType.reachedSentence(others, also: outcome.change.pending != nil) {
            lines.append(sentence)
        }
        if let names = MilestoneType.phrase(outcome.change.evaluation.rearmed) {
            lines.append("Re-armed, to be celebrated again when you get back there: \(names).")
        }
        return lines
    }
}
