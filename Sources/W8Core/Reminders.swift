import Foundation

extension DesktopNotification {
    /// The stable key of a reminder: one notification per kind, replaced when it fires again.
    public static func reminderKey(_ kind: EventKind) -> String { "reminder.\(kind.description)" }

    /// A reminder notification: low urgency, replacing the previous one of its kind.
    public static func reminder(_ kind: EventKind, streakDays: Int = 0) -> DesktopNotification {
        let (title, body): (String, String)
        switch kind {
        case .weighIn, .weeklySummary:
            (title, body) = (
                "Time to weigh in",
                "Step on the scale and log it with 'w8 add'. A daily weigh-in makes your trend clear."
            )
        case .streak:
            (title, body) = (
                "Keep your \(streakDays)-day streak going",
                "No weigh-in yet today. Log one before midnight to keep your streak."
            )
        case .meal(let meal):
            (title, body) = ("\(meal.rawValue.capitalized) time", "Time for \(meal.rawValue). Enjoy a good meal!")
        case .hydration:
            (title, body) = ("Drink some water", "A glass of water now helps you stay on track.")
        }
        return DesktopNotification(key: reminderKey(kind), title: title, body: body, urgency: .low, category: .reminder)
    }
}

/// Days in a row with a weigh-in.
public enum Streak {
    /// How many consecutive local days before `today`'s day have at least one entry in `dates`.
    public static func daysBefore(_ today: Date, dates: [Date], calendar: Calendar) -> Int {
        let days = Set(dates.map { calendar.startOfDay(for: $0) })
        var day = calendar.startOfDay(for: today)
        var count = 0
        while let previous = calendar.date(byAdding: .day, value: -1, to: day.addingTimeInterval(3600)) {
            day = calendar.startOfDay(for: previous)
            guard days.contains(day) else { break }
            count += 1
        }
        return count
    }
}
