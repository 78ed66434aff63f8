import Foundation
import W8Core
import W8Text

// What the activity commands print: `w8 steps` and `w8 activity`.

extension Presenter {
    /// "5.2 km".
    func kilometres(_ metres: Int) -> String { (Double(metres) / 1000).localDecimalText + " km" }

    /// One day of `w8 activity --json`: `date`, `steps`, `distance_m`, in that order.
    func activityJSON(_ day: ActivityDay) -> JSON { .object(activityPairs(day)) }

    func activityPairs(_ day: ActivityDay) -> [(String, JSON)] {
        [
            ("date", .string(day.day.description)),
            ("steps", .integer(Int64(day.steps))),
            ("distance_m", .integer(Int64(day.distance))),
        ]
    }

    /// "8000 of 10000 steps (80%)", or "8000 steps" without a goal.
    func stepsText(_ steps: Int, goal: Int) -> String {
        guard goal > 0 else { return trn("{count} step", "{count} steps", steps, ["count": steps]) }
        let percent = GoalProgress.displayPercent(Double(steps) / Double(goal) * 100)
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "count": steps, "goal": goal, "percent": percent,
        ]
        // TRANSLATORS: the day's steps against the step goal, {goal}; {percent} is a whole number.
        let text = trn("{count} of {goal} step ({percent}%)", "{count} of {goal} steps ({percent}%)", goal, values)
        return text + (steps >= goal ? " ✓" : "")
    }

    /// `w8 activity`: the days that have steps, newest first.
    public func activity(_ days: [ActivityDay], stepGoal: Int, json: Bool) -> [String] {
        if json { return [JSON.array(days.map(activityJSON)).rendered()] }
        if days.isEmpty { return [tr("No steps recorded in those days. Record a day's total with 'w8 steps 8000'.")] }
        return days.map { day in
            dates.day(day.day) + "  " + stepsText(day.steps, goal: stepGoal)
                + (day.distance > 0 ? "  " + kilometres(day.distance) : "")
        }
    }

    /// `w8 steps`: what was recorded, what it replaced, and the day against the goal. The JSON is the day as
    /// `w8 activity --json` shows it, and `replaced_steps` (null when the day had no manual total).
    public func stepsRecorded(_ outcome: ActivityOutcome, json: Bool) -> [String] {
        if json {
            let replaced = outcome.replaced.map { JSON.integer(Int64($0.steps)) } ?? .null
            return [JSON.object(activityPairs(outcome.shown) + [("replaced_steps", replaced)]).rendered()]
        }
        let steps = outcome.recorded.steps
        let day = dates.day(outcome.recorded.day)
        let recorded =
            if let replaced = outcome.replaced {
                trn(
                    "Recorded {count} step for {day} (replacing {previous}).",
                    "Recorded {count} steps for {day} (replacing {previous}).", steps,
                    ["count": steps, "day": day, "previous": replaced.steps])
            } else {
                trn(
                    "Recorded {count} step for {day}.", "Recorded {count} steps for {day}.", steps,
                    ["count": steps, "day": day])
            }
        let against = outcome.stepGoal > 0 ? " \(stepsText(outcome.shown.steps, goal: outcome.stepGoal))." : ""
        return [recorded + against]
    }
}
