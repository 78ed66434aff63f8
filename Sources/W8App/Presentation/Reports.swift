import Foundation
import W8Core
import W8Store

// What each command prints, as lines: the rendered JSON document for `--json`, else the text for the terminal.
// The executable prints them; the JSON contracts are tested here and on the built binary.

extension Presenter {
    /// What an add, edit or removal did: the entry, the milestones it reached, and the progress.
    public func change(_ outcome: TrackerOutcome, verb: String, json: Bool) -> [String] {
        if json {
            return [
                JSON.object([
                    ("entry", outcome.change.entry.map(entryJSON) ?? .null),
                    ("achieved", .array(outcome.change.achievements.map { .string($0.type.rawValue) })),
                    ("notified", JSON.string(outcome.notified?.rawValue)),
                ]).rendered()
            ]
        }
        var lines: [String] = []
        if let entry = outcome.change.entry {
            lines.append("\(verb) \(weight(entry.weight)) on \(dates.short(entry.date)) (entry \(entry.id ?? 0)).")
        }
        lines += milestoneLines(outcome)
        if let line = progressLine(outcome.change.snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 log`: entries newest first, with ids.
    public func log(_ entries: [WeightEntry], json: Bool) -> [String] {
        if json { return [JSON.array(entries.map(entryJSON)).rendered()] }
        if entries.isEmpty { return ["No weigh-ins yet. Log one with 'w8 add 182.4'."] }
        return entries.map { entry in
            var line = String(format: "%5lld  ", entry.id ?? 0) + dates.short(entry.date) + "  " + weight(entry.weight)
            if let fat = entry.bodyFatPercent { line += "  \(fat.oneDecimalText)% fat" }
            if let note = entry.note { line += "  \(note.visibleOnTerminal)" }
            return line
        }
    }

    /// The goal, its journey and start weight, as `w8 goal --json` prints them; nulls without a goal.
    public func goalJSON(_ snapshot: ProgressSnapshot) -> JSON {
        guard let goal = snapshot.goal else {
            return .object([
                ("goal_weight", .null), ("unit", .string(unit.rawValue)), ("set_at", .null),
                ("journey_started_at", .null), ("start_weight", .null),
            ])
        }
        return .object([
            ("goal_weight", .decimal(goal.weight.value(in: unit))),
            ("unit", .string(unit.rawValue)),
            ("set_at", .string(dates.iso8601(goal.setAt))),
            ("journey_started_at", .string(dates.iso8601(goal.journeyStartedAt))),
            ("start_weight", .decimal(snapshot.start?.weight.value(in: unit))),
        ])
    }

    /// `w8 goal WEIGHT`: the new goal, whether a journey starts, and what it did to the milestones. `startedAt` is
    /// the journey's start when `--date` gave it.
    public func goalSet(
        _ goalWeight: Weight, newJourney: Bool, startedAt: Date? = nil, outcome: TrackerOutcome, json: Bool
    ) -> [String] {
        let snapshot = outcome.change.snapshot
        if json {
            return [
                JSON.object([
                    ("goal", goalJSON(snapshot)),
                    ("new_journey", .bool(newJourney)),
                    ("achieved", .array(outcome.change.achievements.map { .string($0.type.rawValue) })),
                    ("notified", JSON.string(outcome.notified?.rawValue)),
                ]).rendered()
            ]
        }
        let when = startedAt.map(dates.short) ?? "now"
        var lines = [
            newJourney
                ? "Goal set to \(weight(goalWeight)). A new journey starts \(startedAt == nil ? when : "on " + when)."
                : startedAt == nil
                    ? "Goal changed to \(weight(goalWeight)); same journey, progress recalculated."
                    : "Goal \(weight(goalWeight)); same journey, now starting \(when), progress recalculated."
        ]
        if let start = snapshot.start { lines.append("Start weight \(weight(start.weight)).") }
        lines += milestoneLines(outcome)
        if let line = progressLine(snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 goal --clear`: whether there was a goal to remove.
    public func goalCleared(_ removed: Bool, json: Bool) -> [String] {
        if json { return [JSON.object([("cleared", .bool(removed))]).rendered()] }
        return [removed ? "Goal cleared." : "No goal was set."]
    }

    /// `w8 goal`: the goal as it is.
    public func goal(_ snapshot: ProgressSnapshot, json: Bool) -> [String] {
        if json { return [goalJSON(snapshot).rendered()] }
        guard let goal = snapshot.goal else { return ["No goal set. Set one with 'w8 goal 160'."] }
        var lines = ["Goal \(weight(goal.weight)), set \(dates.short(goal.setAt))."]
        if let start = snapshot.start {
            lines.append(
                "Start weight \(weight(start.weight)) (journey started \(dates.short(goal.journeyStartedAt))).")
        }
        if let line = progressLine(snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 status`: current weight, trend, goal and progress.
    public func status(_ snapshot: ProgressSnapshot, trend: TrendAnalysis, json: Bool) -> [String] {
        if json { return [statusJSON(snapshot, trend: trend).rendered()] }
        guard let current = snapshot.current else { return ["No weigh-ins yet. Log one with 'w8 add 182.4'."] }
        var lines = ["Current   \(weight(current.weight))  (\(dates.short(current.date)))"] + trendLines(trend)
        guard let goal = snapshot.goal, let progress = snapshot.progress else {
            return lines + ["No goal set. Set one with 'w8 goal 160' to get milestone notifications."]
        }
        lines.append("Start     \(amount(progress.start))")
        lines.append("Goal      \(weight(goal.weight))")
        if let line = progressLine(snapshot) { lines.append(line) }
        if let next = progress.nextMilestone { lines.append("Next      \(next.displayName)") }
        if progress.isApproaching { lines.append("You're within \(amount(unit.approachingDistance)) of your goal!") }
        return lines
    }

    /// `w8 milestones`: what was reached, newest first, and whether it was notified.
    public func milestones(_ achievements: [MilestoneAchievement], json: Bool) -> [String] {
        if json { return [JSON.array(achievements.map(achievementJSON)).rendered()] }
        if achievements.isEmpty { return ["No milestones reached yet."] }
        return achievements.map { a in
            let weight = amount(Weight(a.weight, a.unit).value(in: unit))
            let sent = a.notificationSent ? "notified" : "not notified"
            return "\(dates.short(a.dateAchieved))  \(a.type.displayName) at \(weight) "
                + "(\(GoalProgress.shown(a.progressPercent))%, \(sent))"
        }
    }

    /// `w8 summary`: the week's summary as its notification reads, with the week and the forecast.
    public func summary(_ summary: WeeklySummary, json: Bool) -> [String] {
        let notification = summary.notification
        if json {
            return [
                JSON.object(
                    [
                        ("week_start", .string(dates.iso8601(summary.weekStart))),
                        ("week_end", .string(dates.iso8601(summary.weekEnd))),
                        ("entries", .integer(Int64(summary.entries.count))),
                        ("unit", .string(summary.unit.rawValue)),
                        ("latest_weight", .decimal(summary.latest?.weight.value(in: summary.unit))),
                        ("change", .decimal(summary.change)),
                        ("trend", .string(summary.trend.rawValue)),
                        ("goal_weight", .decimal(summary.progress?.goal)),
                        ("progress_percent", .progress(summary.progress?.percent)),
                    ] + trendJSON(summary.trendAnalysis) + [
                        // Averages over the 7 days; null when nothing was logged in the intake log that week.
                        (
                            "avg_water_ml_per_day",
                            summary.intake.map { .integer(Int64($0.averageWaterPerDay.rounded())) } ?? .null
                        ),
                        ("avg_meals_per_day", .decimal(summary.intake?.averageMealsPerDay)),
                        ("avg_steps_per_day", summary.averageSteps.map { .integer(Int64($0)) } ?? .null),
                        ("title", .string(notification.title)),
                        ("body", .string(notification.body)),
                    ]
                ).rendered()
            ]
        }
        var lines = [
            notification.title, notification.body,
            "Week: \(dates.short(summary.weekStart)) to \(dates.short(summary.weekEnd)); trend \(summary.trend.rawValue)",
        ]
        if let forecast = summary.trendAnalysis?.forecastDate {
            lines.append("Forecast: at this rate you reach your goal on \(dates.day(forecast)).")
        }
        return lines
    }

    /// `w8 schedule`: the next time of each enabled event.
    public func schedule(_ upcoming: [Occurrence], json: Bool) -> [String] {
        if json {
            return [
                JSON.array(
                    upcoming.map {
                        .object([("event", .string($0.kind.description)), ("at", .string(dates.iso8601($0.date)))])
                    }
                ).rendered()
            ]
        }
        if upcoming.isEmpty { return ["No events enabled. See 'w8 config' for summary.* and reminders.*."] }
        return upcoming.map {
            "\($0.kind.description.padding(toLength: 10, withPad: " ", startingAt: 0))  \(dates.short($0.date))"
        }
    }
}

extension Presenter {
    /// `w8 summary --send`: which occurrence, and what became of it; nil outcome when nothing was due.
    public func summarySent(
        _ label: String, _ outcome: FireOutcome?, settings: Settings, json: Bool
    ) -> [String] {
        if json {
            return [
                JSON.object([("occurrence", .string(label)), ("outcome", .string(outcome?.description ?? "not due"))])
                    .rendered()
            ]
        }
        guard let outcome else {
            return [settings.summary.enabled ? "Summary not due." : "Summary is disabled (summary.enabled)."]
        }
        return ["\(label): \(outcome)"]
    }

    /// `w8 config`: every setting, or the one asked for.
    public func config(_ settings: Settings, keys: [SettingKey] = SettingKey.allCases, json: Bool) -> [String] {
        if json { return [JSON.object(keys.map { ($0.rawValue, JSON.setting($0.value(in: settings))) }).rendered()] }
        if keys.count == 1 { return ["\(keys[0].value(in: settings))"] }
        return keys.map { "\($0.rawValue) = \($0.value(in: settings))" }
    }
}

extension EventRunner {
    /// `w8 summary --send`: the summary now, or with `ifDue` only when its occurrence is due and unsent. Returns
    /// the occurrence's label and the outcome; nil when nothing was due.
    public func sendSummary(at now: Date, ifDue: Bool) throws -> (label: String, outcome: FireOutcome?) {
        guard ifDue else { return ("summary", try sendSummary(at: now)) }
        let result = try sendSummaryIfDue(at: now)
        return (result?.0.key ?? "summary", result?.1)
    }
}
