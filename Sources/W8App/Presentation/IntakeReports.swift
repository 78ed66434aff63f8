import Foundation
import W8Core

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
            ("Water", day.water, day.goals.waterGoal, unit.format(millilitres:)),
            ("Other drinks", day.beverage, day.goals.beverageGoal, unit.format(millilitres:)),
            ("Meals", day.meals, day.goals.mealGoal, { "\($0)" }),
            ("Snacks", day.snacks, day.goals.snackGoal, { "\($0)" }),
            ("Calories", day.calories, day.goals.calorieGoal, { "\($0) kcal" }),
        ]
        if let activity { rows.append(("Steps", activity.steps, activity.stepGoal, { "\($0) steps" })) }
        var lines = ["Today, \(dates.day(day.day.start))"]
        for (name, value, goal, format) in rows {
            let label = name.padding(toLength: 13, withPad: " ", startingAt: 0)
            guard goal > 0 else {
                if value > 0 { lines.append("\(label)\(format(value)) (no goal)") }
                continue
            }
            let fraction = Double(value) / Double(goal)
            let filled = min(20, Int((fraction * 20).rounded(.down)))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
            let percent = GoalProgress.displayPercent(fraction * 100)
            lines.append("\(label)\(bar)  \(format(value)) of \(format(goal))  \(percent)%\(value >= goal ? " ✓" : "")")
        }
        if let activity, activity.distance > 0 { lines.append("Distance     \(kilometres(activity.distance))") }
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
        switch event.kind {
        case .water: what = "\(unit.format(millilitres: event.volume ?? 0)) water"
        case .beverage: what = "\(unit.format(millilitres: event.volume ?? 0)) other drink"
        case .meal: what = "a meal"
        case .snack: what = "a snack"
        case .calories: what = "food"
        }
        return event.calories > 0 ? "\(what), \(event.calories) kcal" : what
    }

    /// One line for a drink or meal just logged or removed: what, its id, and the day's total against the goal.
    public func intakeChange(_ outcome: IntakeOutcome, verb: String, json: Bool) -> [String] {
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
        case .water, .beverage: total = day.waterLine
        case .meal:
            total =
                day.goals.mealGoal > 0
                ? "Meals today: \(day.meals) of \(day.goals.mealGoal)" : "Meals today: \(day.meals)"
        case .snack:
            total =
                day.goals.snackGoal > 0
                ? "Snacks today: \(day.snacks) of \(day.goals.snackGoal)" : "Snacks today: \(day.snacks)"
        case .calories:
            total =
                day.goals.calorieGoal > 0
                ? "Calories today: \(day.calories) of \(day.goals.calorieGoal)" : "Calories today: \(day.calories)"
        }
        let when =
            dayText(outcome.event.date) == dayText(day.day.start) && verb == "Logged"
            ? "" : " on \(dates.short(outcome.event.date))"
        return [
            "\(verb) \(eventText(outcome.event, unit: day.goals.volumeUnit))\(when) (id \(outcome.event.id ?? 0)). \(total)."
        ]
    }

    /// `w8 intake`: the events, newest first, with ids.
    public func intake(_ events: [IntakeEvent], unit: VolumeUnit, json: Bool) -> [String] {
        if json { return [JSON.array(events.map(eventJSON)).rendered()] }
        if events.isEmpty {
            return ["Nothing logged in those days. Log a drink with 'w8 drink' or a meal with 'w8 eat meal'."]
        }
        return events.map { event in
            String(format: "%5lld  ", event.id ?? 0) + dates.short(event.date) + "  " + eventText(event, unit: unit)
                + (event.note.map { "  \($0.visibleOnTerminal)" } ?? "")
        }
    }
}
