import Foundation
import W8Core
import W8Store
import W8Text

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
        guard w.unit != unit else { return w.formatted }
        let converted = w.converted(to: unit).formatted
        // TRANSLATORS: a weight shown in the preferred unit, then as it was typed: "82.5 kg (entered as 181.9 lb)".
        return tr("{weight} (entered as {entered})", ["weight": converted, "entered": w.formatted])
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
        var lines: [String] = []
        if let rate = trend.weeklyRate {
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "weight": amount(weight), "rate": (rate < 0 ? "-" : "+") + amount(abs(rate)),
            ]
            // TRANSLATORS: a line of `w8 status`, its label padded to 10 columns; {rate} is signed: "-1.3 lb".
            lines.append(tr("Trend     {weight} · {rate} a week", values))
        } else {
            lines.append(
                tr(
                    "Trend     {weight} · rate needs 4 weigh-ins in the last 7 days, the latest within 2 days",
                    ["weight": amount(weight)]))
        }
        if let forecast = trend.forecastDate {
            // TRANSLATORS: a line of `w8 status`, its label padded to 10 columns; {day} is the forecast's day.
            lines.append(tr("Forecast  goal on {day}", ["day": dates.day(forecast)]))
        }
        return lines
    }

    /// "Progress 25.0% · 15.0 lb to go to 160.0 lb", or nil without a goal.
    public func progressLine(_ snapshot: ProgressSnapshot) -> String? {
        guard let progress = snapshot.progress else { return nil }
        guard let percent = progress.percent else {
            return tr("You are at your goal weight of {weight}.", ["weight": amount(progress.goal)])
        }
        let shown = Localization.localDecimal(GoalProgress.shown(percent))
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "percent": shown, "distance": amount(progress.distanceToGoal), "goal": amount(progress.goal),
        ]
        // TRANSLATORS: a terminal line; {percent} is the progress towards the goal, "25.0".
        if progress.reaches(.complete) { return tr("Progress {percent}% · goal of {goal} reached", values) }
        // TRANSLATORS: a terminal line; {percent} is the progress towards the goal, "25.0", {distance} a weight.
        return tr("Progress {percent}% · {distance} to go to {goal}", values)
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
            // TRANSLATORS: {names} names milestones: "the 50% and 75% milestones".
            let text = tr("Re-armed, to be celebrated again when you get back there: {names}.", ["names": names])
            lines.append(text)
        }
        return lines
    }
}
