import Foundation

extension DesktopNotification {
    /// The notification for reaching `type`, with the numbers that matter in the preferred unit (FR-011).
    ///
    /// Titles stay within 50 characters and bodies within 150 (`001_*`).
    public static func milestone(_ type: MilestoneType, progress: GoalProgress) -> DesktopNotification {
        let unit = progress.unit
        func w(_ value: Double) -> String { Weight(value, unit).formatted }
        let verb = progress.isLosing ? "lost" : "gained"
        let soFar = "You've \(verb) \(w(max(progress.changeSoFar, 0))) so far"
        let toGo = "\(w(progress.distanceToGoal)) to go to \(w(progress.goal))"
        let title: String
        let body: String
        switch type {
        case .quarter:
            title = "25% of the way to your goal!"
            body = "\(soFar). \(toGo). Keep it up!"
        case .half:
            title = "Halfway there!"
            body = "\(soFar), \(toGo). Keep up the great work!"
        case .threeQuarters:
            title = "75% there: almost at your goal!"
            body = "\(soFar). Just \(toGo)."
        case .approaching:
            title = "You're close to your goal!"
            body = "Just \(toGo). \(soFar). You've got this!"
        case .complete:
            title = "Goal achieved! You reached \(w(progress.goal))"
            body =
                "Congratulations! You've \(verb) \(w(max(progress.changeSoFar, 0))) since you started "
                + "at \(w(progress.start))."
        }
        return DesktopNotification(
            key: "milestone", title: title, body: body, urgency: .normal, category: .milestone,
            expiry: type == .complete ? .never : .serverDefault)
    }
}
