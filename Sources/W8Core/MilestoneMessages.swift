import Foundation
import W8Text

extension DesktopNotification {
    /// The notification for reaching `type`, with the numbers that matter in the preferred unit (FR-011).
    ///
    /// Titles stay within 50 characters and bodies within 150 (`001_*`).
    public static func milestone(_ type: MilestoneType, progress: GoalProgress) -> DesktopNotification {
        let unit = progress.unit
        func w(_ value: Double) -> String { Weight(value, unit).formatted }
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "change": w(max(progress.changeSoFar, 0)), "distance": w(progress.distanceToGoal), "goal": w(progress.goal),
            "start": w(progress.start),
        ]
        let losing = progress.isLosing
        let title: String
        let body: String
        switch type {
        case .quarter:
            // TRANSLATORS: the titles of milestone notifications are short: at most 50 characters.
            // xgettext:no-c-format
            title = tr("25% of the way to your goal!")
            body =
                losing
                // TRANSLATORS: the body of a milestone notification, at most 150 characters: {change} is the weight
                // lost or gained so far, {distance} what is left to the goal, {goal} the goal weight, each with its
                // unit ("4.5 kg").
                ? tr("You've lost {change} so far. {distance} to go to {goal}. Keep it up!", values)
                : tr("You've gained {change} so far. {distance} to go to {goal}. Keep it up!", values)
        case .half:
            title = tr("Halfway there!")
            body =
                losing
                ? tr("You've lost {change} so far, {distance} to go to {goal}. Keep up the great work!", values)
                : tr("You've gained {change} so far, {distance} to go to {goal}. Keep up the great work!", values)
        case .threeQuarters:
            // TRANSLATORS: a milestone notification's title: at most 50 characters.
            // xgettext:no-c-format
            title = tr("75% there: almost at your goal!")
            body =
                losing
                ? tr("You've lost {change} so far. Just {distance} to go to {goal}.", values)
                : tr("You've gained {change} so far. Just {distance} to go to {goal}.", values)
        case .approaching:
            title = tr("You're close to your goal!")
            body =
                losing
                ? tr("Just {distance} to go to {goal}. You've lost {change} so far. You've got this!", values)
                : tr("Just {distance} to go to {goal}. You've gained {change} so far. You've got this!", values)
        case .complete:
            // TRANSLATORS: a milestone notification's title: {goal} is the goal weight with its unit.
            title = tr("Goal achieved! You reached {goal}", values)
            body =
                losing
                // TRANSLATORS: {start} is the weight the journey started at, with its unit.
                ? tr("Congratulations! You've lost {change} since you started at {start}.", values)
                : tr("Congratulations! You've gained {change} since you started at {start}.", values)
        }
        return DesktopNotification(
            key: "milestone", title: title, body: body, urgency: .normal, category: .milestone,
            expiry: type == .complete ? .never : .serverDefault)
    }
}
