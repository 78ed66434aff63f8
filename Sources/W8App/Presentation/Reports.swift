import Foundation
import W8Core
import W8Store
import W8Text

// What each command prints, as lines: the rendered JSON document for `--json`, else the text for the terminal.
// The executable prints them; the JSON contracts are tested here and on the built binary.

/// What a change did to an entry or an intake event, for the sentence that reports it.
public enum ChangeVerb: Sendable {
    case logged, updated, removed
}

extension Presenter {
    /// What an add, edit or removal did: the entry, the milestones it reached, and the progress.
    public func change(_ outcome: TrackerOutcome, verb: ChangeVerb, json: Bool) -> [String] {
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
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "weight": weight(entry.weight), "date": dates.short(entry.date), "id": entry.id ?? 0,
            ]
            switch verb {
            // TRANSLATORS: a terminal line after `w8 add`, `w8 edit` or `w8 rm`; {weight} is "82.5 kg", {date} a
            // day and time, {id} the entry's number.
            case .logged: lines.append(tr("Logged {weight} on {date} (entry {id}).", values))
            case .updated: lines.append(tr("Updated {weight} on {date} (entry {id}).", values))
            case .removed: lines.append(tr("Removed {weight} on {date} (entry {id}).", values))
            }
        }
        lines += milestoneLines(outcome)
        if let line = progressLine(outcome.change.snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 log`: entries newest first, with ids.
    public func log(_ entries: [WeightEntry], json: Bool) -> [String] {
        if json { return [JSON.array(entries.map(entryJSON)).rendered()] }
        if entries.isEmpty { return [tr("No weigh-ins yet. Log one with 'w8 add 182.4'.")] }
        return entries.map { entry in
            var line = String(format: "%5lld  ", entry.id ?? 0) + dates.short(entry.date) + "  " + weight(entry.weight)
            // TRANSLATORS: the body fat of a weigh-in in `w8 log`, after its weight: "  24.5% fat".
            // xgettext:no-c-format
            if let fat = entry.bodyFatPercent { line += "  " + tr("{percent}% fat", ["percent": fat.localDecimalText]) }
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
        let goal = weight(goalWeight)
        var lines: [String] = []
        switch (newJourney, startedAt.map(dates.short)) {
        case (true, nil): lines.append(tr("Goal set to {weight}. A new journey starts now.", ["weight": goal]))
        case (true, let when?):
            // TRANSLATORS: {date} is the day and time the journey starts, given with `--date`.
            lines.append(tr("Goal set to {weight}. A new journey starts on {date}.", ["weight": goal, "date": when]))
        case (false, nil):
            lines.append(tr("Goal changed to {weight}; same journey, progress recalculated.", ["weight": goal]))
        case (false, let when?):
            lines.append(
                tr(
                    "Goal {weight}; same journey, now starting {date}, progress recalculated.",
                    ["weight": goal, "date": when]))
        }
        if let start = snapshot.start { lines.append(tr("Start weight {weight}.", ["weight": weight(start.weight)])) }
        lines += milestoneLines(outcome)
        if let line = progressLine(snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 goal --clear`: whether there was a goal to remove.
    public func goalCleared(_ removed: Bool, json: Bool) -> [String] {
        if json { return [JSON.object([("cleared", .bool(removed))]).rendered()] }
        return [removed ? tr("Goal cleared.") : tr("No goal was set.")]
    }

    /// `w8 goal`: the goal as it is.
    public func goal(_ snapshot: ProgressSnapshot, json: Bool) -> [String] {
        if json { return [goalJSON(snapshot).rendered()] }
        guard let goal = snapshot.goal else { return [tr("No goal set. Set one with 'w8 goal 160'.")] }
        var lines = [
            // TRANSLATORS: `w8 goal`; {date} is the day and time the goal was set.
            tr("Goal {weight}, set {date}.", ["weight": weight(goal.weight), "date": dates.short(goal.setAt)])
        ]
        if let start = snapshot.start {
            lines.append(
                tr(
                    "Start weight {weight} (journey started {date}).",
                    ["weight": weight(start.weight), "date": dates.short(goal.journeyStartedAt)]))
        }
        if let line = progressLine(snapshot) { lines.append(line) }
        return lines
    }

    /// `w8 status`: current weight, trend, goal and progress.
    public func status(_ snapshot: ProgressSnapshot, trend: TrendAnalysis, json: Bool) -> [String] {
        if json { return [statusJSON(snapshot, trend: trend).rendered()] }
        guard let current = snapshot.current else { return [tr("No weigh-ins yet. Log one with 'w8 add 182.4'.")] }
        var lines = [
            // TRANSLATORS: the lines of `w8 status` start with a label padded to 10 columns ("Current   "); keep
            // the values of the lines in one column if your language allows.
            tr("Current   {weight}  ({date})", ["weight": weight(current.weight), "date": dates.short(current.date)])
        ]
        lines += trendLines(trend)
        guard let goal = snapshot.goal, let progress = snapshot.progress else {
            return lines + [tr("No goal set. Set one with 'w8 goal 160' to get milestone notifications.")]
        }
        lines.append(tr("Start     {weight}", ["weight": amount(progress.start)]))
        lines.append(tr("Goal      {weight}", ["weight": weight(goal.weight)]))
        if let line = progressLine(snapshot) { lines.append(line) }
        if let next = progress.nextMilestone {
            // TRANSLATORS: {milestone} is the next milestone's name.
            lines.append(tr("Next      {milestone}", ["milestone": next.displayName]))
        }
        if progress.isApproaching {
            lines.append(tr("You're within {weight} of your goal!", ["weight": amount(unit.approachingDistance)]))
        }
        return lines
    }

    /// `w8 milestones`: what was reached, newest first, and whether it was notified.
    public func milestones(_ achievements: [MilestoneAchievement], json: Bool) -> [String] {
        if json { return [JSON.array(achievements.map(achievementJSON)).rendered()] }
        if achievements.isEmpty { return [tr("No milestones reached yet.")] }
        return achievements.map { a in
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "date": dates.short(a.dateAchieved), "milestone": a.type.displayName,
                "weight": amount(Weight(a.weight, a.unit).value(in: unit)),
                "percent": Localization.localDecimal(GoalProgress.shown(a.progressPercent)),
            ]
            // TRANSLATORS: a line of `w8 milestones`: when, which milestone, the weight then and the progress.
            if a.notificationSent { return tr("{date}  {milestone} at {weight} ({percent}%, notified)", values) }
            // TRANSLATORS: a line of `w8 milestones`: when, which milestone, the weight then and the progress.
            return tr("{date}  {milestone} at {weight} ({percent}%, not notified)", values)
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
        let week: KeyValuePairs<String, any CustomStringConvertible> = [
            "start": dates.short(summary.weekStart), "end": dates.short(summary.weekEnd),
        ]
        let weekLine =
            switch summary.trend {
            // TRANSLATORS: the last line of `w8 summary`: the week, and which way the weight went in it.
            case .down: tr("Week: {start} to {end}; trend down", week)
            case .up: tr("Week: {start} to {end}; trend up", week)
            case .stable: tr("Week: {start} to {end}; trend stable", week)
            // TRANSLATORS: the last line of `w8 summary`, for a week with too few weigh-ins to say.
            case .unknown: tr("Week: {start} to {end}; trend unknown", week)
            }
        var lines = [notification.title, notification.body, weekLine]
        if let forecast = summary.trendAnalysis?.forecastDate {
            lines.append(tr("Forecast: at this rate you reach your goal on {day}.", ["day": dates.day(forecast)]))
        }
        return lines
    }

    /// `w8 schedule`: the reminders held while the person is away (issue 39), then the next time of each enabled
    /// event.
    public func schedule(_ upcoming: [Occurrence], held: [HeldReminder] = [], json: Bool) -> [String] {
        if json {
            let waiting = held.map { reminder -> JSON in
                .object([
                    ("event", .string(reminder.kind.description)), ("at", .string(dates.iso8601(reminder.firstDue))),
                    ("held", .bool(true)), ("reason", .string(reminder.reason.description)),
                    ("times", .integer(Int64(reminder.times))), ("last_due", .string(dates.iso8601(reminder.lastDue))),
                ])
            }
            let next = upcoming.map {
                JSON.object([
                    ("event", .string($0.kind.description)), ("at", .string(dates.iso8601($0.date))),
                    ("held", .bool(false)),
                ])
            }
            return [JSON.array(waiting + next).rendered()]
        }
        let waiting = held.map { reminder in
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "time": dates.time(reminder.firstDue), "reason": reminder.reason.localizedDescription,
                "count": reminder.times,
            ]
            // TRANSLATORS: `w8 schedule`: a reminder waiting for the person to come back; {time} is HH:MM, when it
            // first fell due, {reason} why it waits ("screen locked"), {count} how often it fell due since.
            let text = trn(
                "held since {time}: {reason}", "held since {time}: {reason}, due {count} times", reminder.times, values)
            return "\(Self.eventName(reminder.kind).padded(toColumns: 10))  \(text)"
        }
        if upcoming.isEmpty && held.isEmpty {
            return [tr("No events enabled. See 'w8 config' for summary.* and reminders.*.")]
        }
        return waiting + upcoming.map { "\(Self.eventName($0.kind).padded(toColumns: 10))  \(dates.short($0.date))" }
    }

    /// An event of `w8 schedule` in the user's language; `--json` names it by `EventKind.description`.
    static func eventName(_ kind: EventKind) -> String {
        switch kind {
        // TRANSLATORS: the events of `w8 schedule`, before their next time: the weekly summary, then the reminders.
        case .weeklySummary: tr("summary")
        case .weighIn: tr("weigh-in")
        // TRANSLATORS: `w8 schedule`: the reminder sent when no weigh-in was logged for a few days.
        case .streak: tr("streak")
        // TRANSLATORS: `w8 schedule`: the meal reminders.
        case .meal(.breakfast): tr("breakfast")
        case .meal(.lunch): tr("lunch")
        case .meal(.dinner): tr("dinner")
        // TRANSLATORS: `w8 schedule`: the reminder to drink water.
        case .hydration: tr("hydration")
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
            return [settings.summary.enabled ? tr("Summary not due.") : tr("Summary is disabled (summary.enabled).")]
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
