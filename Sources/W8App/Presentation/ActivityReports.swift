import Foundation
import W8Core

// What the activity commands print: `w8 steps` and `w8 activity`.

extension Presenter {
    /// "5.2 km".
    func kilometres(_ metres: Int) -> String { (Double(metres) / 1000).oneDecimalText + " km" }

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
        guard goal > 0 else { return "\(steps) steps" }
        let percent = GoalProgress.displayPercent(Double(steps) / Double(goal) * 100)
        return "\(steps) of \(goal) steps (\(percent)%)\(steps >= goal ? " ✓" : "")"
    }

    /// `w8 activity`: the days that have steps, newest first.
    public func activity(_ days: [ActivityDay], stepGoal: Int, json: Bool) -> [String] {
        if json { return [JSON.array(days.map(activityJSON)).rendered()] }
        if days.isEmpty { return ["No steps recorded in those days. Record a day's total with 'w8 steps 8000'."] }
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
        let replacing = outcome.replaced.map { " (replacing \($0.steps))" } ?? ""
        let against = outcome.stepGoal > 0 ? " \(stepsText(outcome.shown.steps, goal: outcome.stepGoal))." : ""
        return [
            "Recorded \(outcome.recorded.steps) steps for \(dates.day(outcome.recorded.day))\(replacing).\(against)"
        ]
    }
}
