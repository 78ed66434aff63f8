import Foundation
import W8Text

extension DesktopNotification {
    /// The stable key of a reminder: one notification per kind, replaced when it fires again.
    public static func reminderKey(_ kind: EventKind) -> String { "reminder.\(kind.description)" }

    /// The reminder kind whose `reminderKey` is `key`, or nil for any other notification.
    public static func reminderKind(forKey key: String) -> EventKind? {
        ([.weighIn, .streak, .hydration] + Meal.allCases.map(EventKind.meal)).first { reminderKey($0) == key }
    }

    /// A reminder notification, replacing the previous one of its kind while that one is still open (`replacesOpen`,
    /// and the `replaceTag` of servers that stack by tag). With `intake`, the hydration and meal reminders carry
    /// their buttons (`ReminderAction`), labelled with its cup and bottle sizes.
    ///
    /// Normal urgency, as every notification of w8: GNOME 43 shows no banner for low urgency (so no button can be
    /// pressed) and Plasma keeps no low-urgency notification in its history.
    public static func reminder(
        _ kind: EventKind, streakDays: Int = 0, intake: IntakeSettings? = nil
    ) -> DesktopNotification {
        let (title, body): (String, String)
        switch kind {
        case .weighIn, .weeklySummary:
            (title, body) = (
                // TRANSLATORS: reminder notifications: a short title (at most 50 characters) and a body (at most 150).
                tr("Time to weigh in"),
                // TRANSLATORS: keep 'w8 add' as written: it is the command.
                tr("Step on the scale and log it with 'w8 add'. A daily weigh-in makes your trend clear.")
            )
        case .streak:
            (title, body) = (
                // TRANSLATORS: a notification's title; {count} is the days in a row with a weigh-in, 2 or more.
                trn(
                    "Keep your {count}-day streak going", "Keep your {count}-day streak going", streakDays,
                    ["count": streakDays]),
                tr("No weigh-in yet today. Log one before midnight to keep your streak.")
            )
        case .meal(.breakfast):
            (title, body) = (tr("Breakfast time"), tr("Time for breakfast. Enjoy a good meal!"))
        case .meal(.lunch):
            (title, body) = (tr("Lunch time"), tr("Time for lunch. Enjoy a good meal!"))
        case .meal(.dinner):
            (title, body) = (tr("Dinner time"), tr("Time for dinner. Enjoy a good meal!"))
        case .hydration:
            (title, body) = (tr("Drink some water"), tr("A glass of water now helps you stay on track."))
        }
        let actions = intake.map { intake in ReminderAction.actions(for: kind).map { $0.action(intake) } } ?? []
        return DesktopNotification(
            key: reminderKey(kind), title: title, body: body, urgency: .normal, category: .reminder, actions: actions,
            replaceTag: "w8trackr-\(reminderKey(kind))", replacesOpen: true)
    }
}

extension DesktopNotification {
    /// A reminder held while the person was away (issue 39), shown when they are back: its body says since when
    /// it has been due, and how often it fell due meanwhile, so that three water reminders come as one.
    public static func heldReminder(
        _ held: HeldReminder, streakDays: Int = 0, intake: IntakeSettings? = nil, calendar: Calendar
    ) -> DesktopNotification {
        var notification = reminder(held.kind, streakDays: streakDays, intake: intake)
        let time = calendar.localTime(of: held.firstDue)
        notification.body +=
            "\n"
            // TRANSLATORS: after a reminder's body, shown when the person is back at the screen; {time} is HH:MM,
            // when it first fell due; {count} is how many times it fell due while they were away.
            + trn(
                "Due since {time}, while you were away.", "Due {count} times since {time}, while you were away.",
                held.times, ["count": held.times, "time": time])
        return notification
    }
}

/// A button on a reminder: log a drink or a meal from it, or have it again later.
public enum ReminderAction: String, Sendable, CaseIterable {
    case cup
    case bottle
    case ate
    case snooze

    /// How long "In 15 minutes" puts a reminder off.
    public static let snoozeInterval: TimeInterval = 15 * 60

    /// The buttons of the reminder of `kind`: drinks on the hydration reminder, "I ate" on a meal's.
    public static func actions(for kind: EventKind) -> [ReminderAction] {
        switch kind {
        case .hydration: [.cup, .bottle]
        case .meal: [.ate, .snooze]
        case .weighIn, .weeklySummary, .streak: []
        }
    }

    /// The button, labelled with the configured sizes: "+1 cup (250 ml)".
    public func action(_ intake: IntakeSettings) -> NotificationAction {
        // TRANSLATORS: buttons on a reminder notification: keep them short. {ml} is a whole number of millilitres.
        let label =
            switch self {
            case .cup: tr("+1 cup ({ml} ml)", ["ml": intake.cup])
            case .bottle: tr("+1 bottle ({ml} ml)", ["ml": intake.bottle])
            case .ate: tr("I ate")
            case .snooze: tr("In 15 minutes")
            }
        return NotificationAction(id: rawValue, label: label)
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
