import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// The reminders' buttons and what pressing each does: a temporary database, the in-memory sink, Berlin.
@Suite final class ReminderActionTests: SchedulingSuite {
    func runner() -> EventRunner {
        var settings = Settings()
        settings.summary.enabled = false
        settings.reminders.hydration = true
        settings.intake.cup = 300
        settings.intake.bottle = 750
        return EventRunner(database: store.database, sink: sink, settings: settings, calendar: calendar)
    }

    var noon: Date { calendar.date(2026, 11, 23, 12) }

    func press(_ action: String, on kind: EventKind, id: UInt32 = 7) -> NotificationActionPress {
        NotificationActionPress(notificationID: id, key: DesktopNotification.reminderKey(kind), actionID: action)
    }

    @Test("Hydration and meal reminders carry their buttons, labelled with the configured sizes")
    func buttons() throws {
        _ = try runner().postReminder(.hydration, noon)
        _ = try runner().postReminder(.meal(.lunch), noon)
        _ = try runner().postReminder(.weighIn, noon)
        #expect(
            sink.posted.map(\.actions) == [
                [
                    NotificationAction(id: "cup", label: "+1 cup (300 ml)"),
                    NotificationAction(id: "bottle", label: "+1 bottle (750 ml)"),
                ],
                [
                    NotificationAction(id: "ate", label: "I ate"),
                    NotificationAction(id: "snooze", label: "In 15 minutes"),
                ],
                [],
            ])
    }

    @Test("+1 cup and +1 bottle log water of the configured size and close the reminder")
    func drinks() throws {
        _ = try runner().handle(press("cup", on: .hydration, id: 7), at: noon)
        _ = try runner().handle(press("bottle", on: .hydration, id: 8), at: noon)
        let day = try store.database.intakeDay(containing: noon, goals: IntakeSettings(), calendar: calendar)
        #expect(day.water == 1050)
        #expect(sink.closed == [7, 8])
    }

    @Test("I ate logs a meal; In 15 minutes logs nothing and asks for the reminder again 15 minutes later")
    func meals() throws {
        _ = try runner().handle(press("ate", on: .meal(.lunch)), at: noon)
        let snooze = try runner().handle(press("snooze", on: .meal(.dinner), id: 9), at: noon)
        let day = try store.database.intakeDay(containing: noon, goals: IntakeSettings(), calendar: calendar)
        #expect(day.meals == 1)
        #expect(day.water == 0)
        guard case .snoozed(let kind, let date) = snooze else {
            Issue.record("expected a snooze, got \(snooze)")
            return
        }
        #expect(kind == .meal(.dinner))
        #expect(date == noon.addingTimeInterval(15 * 60))
        #expect(sink.closed == [7, 9])
    }

    @Test(
        "A button the reminder does not have changes nothing",
        arguments: [
            ("cup", EventKind.meal(.lunch)), ("ate", .hydration), ("snooze", .weighIn), ("tea", .hydration),
        ])
    func unknown(action: String, kind: EventKind) throws {
        let outcome = try runner().handle(press(action, on: kind), at: noon)
        guard case .ignored = outcome else {
            Issue.record("expected nothing, got \(outcome)")
            return
        }
        let day = try store.database.intakeDay(containing: noon, goals: IntakeSettings(), calendar: calendar)
        #expect(day.water == 0 && day.meals == 0)
        #expect(sink.closed.isEmpty)
    }
}
