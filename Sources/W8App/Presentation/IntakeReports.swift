import Foundation
import W8Core
import W8Text

// What the intake commands print: `w8 drink`, `w8 eat`, `w8 today` and `w8 intake`.

extension Presenter {
    /// The local calendar day of `date`: `2026-11-23`.
    func dayText(_ date: Date) -> String { String(dates.timestamp(date).prefix(10)) }

    /// `w8 today --json`: the contract scripts rely on. A goal that is not set is null. The activity's keys come
    /// last, after the intake's, whose order scripts rely on.
    public func todayJSON(_ day: IntakeDay, activity: ActivityTotal? = nil) -> JSON {
        func goal(_ value: Int) -> JSON { value > 0 ? .integer(Int64(value)) : .null }
        let steps: [(String, JSON)] =
            activity.map {
                [
                    ("steps", .integer(Int64($0.steps))), ("step_goal", goal($0.stepGoal)),
                    ("distance_m", .integer(Int64($0.distance))),
                ]
            } ?? []
        return .object(
            [
                ("date", .string(dayText(day.day.start))),
                ("water_ml", .integer(Int64(day.water))),
                ("water_goal_ml", goal(day.goals.waterGoal)),
                ("beverage_ml", .integer(Int64(day.beverage))),
                ("beverage_goal_ml", goal(day.goals.beverageGoal)),
                ("meals", .integer(Int64(day.meals))),
                ("meal_goal", goal(day.goals.mealGoal)),
                ("snacks", .integer(Int64(day.snacks))),
                ("snack_goal", goal(day.goals.snackGoal)),
                ("calories", .integer(Int64(day.calories))),
                ("calorie_goal", goal(day.goals.calorieGoal)),
            ] + steps)
    }

    /// `w8 today`: a bar and a percentage for every goal that is set, like iShnak's rings.
    /// With `activity`, the day's steps follow as one more row, and the distance under it when there is one.
    public func today(_ day: IntakeDay, activity: ActivityTotal? = nil, json: Bool, color: Bool = false) -> [String] {
        if json { return [todayJSON(day, activity: activity).rendered()] }
        let unit = day.goals.volumeUnit
        var rows: [(String, Int, Int, (Int) -> String)] = [
            // TRANSLATORS: the row labels of `w8 today`, padded to 13 columns: keep them short.
            (tr("Water"), day.water, day.goals.waterGoal, unit.format(millilitres:)),
            (tr("Other drinks"), day.beverage, day.goals.beverageGoal, unit.format(millilitres:)),
            (tr("Meals"), day.meals, day.goals.mealGoal, { "\($0)" }),
            (tr("Snacks"), day.snacks, day.goals.snackGoal, { "\($0)" }),
            (tr("Calories"), day.calories, day.goals.calorieGoal, { "\($0) kcal" }),
        ]
        if let activity {
            rows.append(
                (
                    tr("Steps"), activity.steps, activity.stepGoal,
                    { trn("{count} step", "{count} steps", $0, ["count": $0]) }
                ))
        }
        // TRANSLATORS: the heading of `w8 today`; {day} is the day, "Mon 23 Nov 2026".
        var lines = [tr("Today, {day}", ["day": dates.day(day.day.start)])]
        for (name, value, goal, format) in rows {
            let label = name.padded(toColumns: 13)
            guard goal > 0 else {
                if value > 0 { lines.append(label + tr("{value} (no goal)", ["value": format(value)])) }
                continue
            }
            let fraction = Double(value) / Double(goal)
            let filled = min(20, Int((fraction * 20).rounded(.down)))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
            let percent = GoalProgress.displayPercent(fraction * 100)
            // TRANSLATORS: a row of `w8 today` after its bar: "250 ml of 2000 ml".
            let amounts = tr("{value} of {goal}", ["value": format(value), "goal": format(goal)])
            lines.append("\(label)\(bar)  \(amounts)  \(percent)%\(value >= goal ? " ✓" : "")")
        }
        if let activity, activity.distance > 0 {
            // TRANSLATORS: a row label of `w8 today`, padded to 13 columns like "Water".
            let label = tr("Distance").padded(toColumns: 13)
            lines.append(label + kilometres(activity.distance))
        }
        return lines
    }

    func eventJSON(_ event: IntakeEvent) -> JSON {
        .object([
            ("id", event.id.map { .integer($0) } ?? .null),
            ("kind", .string(event.kind.rawValue)),
            ("date", .string(dates.iso8601(event.date))),
            ("volume_ml", event.volume.map { .integer(Int64($0)) } ?? .null),
            ("calories", .integer(Int64(event.calories))),
            ("note", .string(event.note)),
        ])
    }

    /// "250 ml water", "a meal, 600 kcal".
    func eventText(_ event: IntakeEvent, unit: VolumeUnit) -> String {
        let what: String
        let volume = unit.format(millilitres: event.volume ?? 0)
        switch event.kind {
        // TRANSLATORS: what a drink or meal was, in `w8 intake` and after `w8 drink`, `w8 eat`: {volume} is "250 ml".
        case .water: what = tr("{volume} water", ["volume": volume])
        case .beverage: what = tr("{volume} other drink", ["volume": volume])
        case .meal: what = tr("a meal")
        case .snack: what = tr("a snack")
        case .calories: what = tr("food")
        }
        // TRANSLATORS: {what} is "a meal" or "250 ml water", {calories} a whole number.
        return event.calories > 0 ? tr("{what}, {calories} kcal", ["what": what, "calories": event.calories]) : what
    }

    /// One line for a drink or meal just logged or removed: what, its id, and the day's total against the goal.
    public func intakeChange(_ outcome: IntakeOutcome, verb: ChangeVerb, json: Bool) -> [String] {
        if json {
            return [
                JSON.object([
                    ("event", eventJSON(outcome.event)), ("today", todayJSON(outcome.day)),
                    ("water_goal_notified", .bool(outcome.notifiedWaterGoal)),
                ]).rendered()
            ]
        }
        let day = outcome.day
        let total: String
        switch outcome.event.kind {
        case .water, .beverage: total = day.waterLine + "."
        case .meal:
            total =
                day.goals.mealGoal > 0
                ? tr("Meals today: {count} of {goal}.", ["count": day.meals, "goal": day.goals.mealGoal])
                : tr("Meals today: {count}.", ["count": day.meals])
        case .snack:
            total =
                day.goals.snackGoal > 0
                ? tr("Snacks today: {count} of {goal}.", ["count": day.snacks, "goal": day.goals.snackGoal])
                : tr("Snacks today: {count}.", ["count": day.snacks])
        case .calories:
            total =
                day.goals.calorieGoal > 0
                ? tr("Calories today: {count} of {goal}.", ["count": day.calories, "goal": day.goals.calorieGoal])
                : tr("Calories today: {count}.", ["count": day.calories])
        }
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "what": eventText(outcome.event, unit: day.goals.volumeUnit), "date": dates.short(outcome.event.date),
            "id": outcome.event.id ?? 0,
        ]
        let done: String
        switch verb {
        case .logged where dayText(outcome.event.date) == dayText(day.day.start):
            // TRANSLATORS: after `w8 drink`, `w8 eat` or `w8 intake --rm`; {what} is "250 ml water" or "a meal",
            // {date} a day and time, {id} the event's number. The day's total follows as a sentence of its own.
            done = tr("Logged {what} (id {id}).", values)
        case .logged: done = tr("Logged {what} on {date} (id {id}).", values)
        case .updated: done = tr("Updated {what} on {date} (id {id}).", values)
        case .removed: done = tr("Removed {what} on {date} (id {id}).", values)
        }
        return [done + " " + total]
    }

    /// `w8 intake`: the events, newest first, with ids.
    public func intake(_ events: [IntakeEvent], unit: VolumeUnit, json: Bool) -> [String] {
        if json { return [JSON.array(events.map(eventJSON)).rendered()] }
        if events.isEmpty {
            return [tr("Nothing logged in those days. Log a drink with 'w8 drink' or a meal with 'w8 eat meal'.")]
        }
        return events.map { event in
            String(format: "%5lld  ", event.id ?? 0) + dates.short(event.date) + "  " + eventText(event, unit: unit)
                + (event.note.map { "  \($0.visibleOnTerminal)" } ?? "")
        }
    }
}
