import Foundation
import Testing
import W8App
import W8Store
import W8TestSupport

@testable import W8Core

/// Reminders that wait for the person (issue 39), on a temporary database, the in-memory sink and Berlin: held
/// while the presence says away, each kind once when it no longer does, none whose reason is gone, and the same
/// after a restart (a new runner on the same database).
@Suite final class HeldReminderTests: SchedulingSuite {
    /// What the presence says: the test changes it.
    final class Switch: @unchecked Sendable {
        var presence = Presence()
    }
    let presence = Switch()

    func runner() -> EventRunner {
        var settings = Settings()
        settings.reminders.hydration = true
        settings.reminders.weighIn = true
        settings.reminders[enabled: .lunch] = true
        var runner = EventRunner(database: store.database, sink: sink, settings: settings, calendar: calendar)
        let presence = self.presence
        runner.presence = { presence.presence }
        return runner
    }

    func occurrence(_ kind: EventKind, _ hour: Int) -> Occurrence {
        Occurrence(
            kind: kind, date: calendar.date(2026, 11, 23, hour), key: String(format: "\(kind)@2026-11-23T%02d:00", hour)
        )
    }

    @Test("Away, each reminder is held and counted once per kind; back, each kind comes once, after a restart too")
    func heldThenShownOnce() throws {
        presence.presence.begin(.locked, at: calendar.date(2026, 11, 23, 8, 55))
        for (kind, hour) in [(EventKind.weighIn, 9), (.hydration, 9), (.hydration, 11), (.hydration, 13)] {
            #expect(
                try runner().fire(occurrence(kind, hour), at: calendar.date(2026, 11, 23, hour))
                    == .held("screen locked"))
        }
        // Another run at the same occurrence (the timer, a second daemon) finds it claimed.
        #expect(try runner().fire(occurrence(.hydration, 13), at: calendar.date(2026, 11, 23, 13)) == .alreadyClaimed)
        #expect(sink.posted.isEmpty, "nothing wakes a locked screen")
        #expect(try runner().releaseHeld(at: calendar.date(2026, 11, 23, 14)).isEmpty, "still away")
        #expect(try store.database.heldReminders().map { "\($0.kind)×\($0.times)" } == ["hydration×3", "weigh-in×1"])

        presence.presence.end(.locked)
        let shown = try runner().releaseHeld(at: calendar.date(2026, 11, 23, 14, 30))
        #expect(
            shown.map { "\($0.0.kind) \($0.1)" } == ["hydration sent (server id 1)", "weigh-in sent (server id 2)"])
        #expect(sink.posted.map(\.key) == ["reminder.hydration", "reminder.weigh-in"])
        // Shown once: a second release, and a new runner, show nothing more.
        #expect(try runner().releaseHeld(at: calendar.date(2026, 11, 23, 15)).isEmpty)
        #expect(sink.posted.count == 2)
    }

    @Test("Back after the weight was logged and a drink taken, those reminders are dropped; lunch is still shown")
    func reasonGoneIsDropped() throws {
        presence.presence.begin(.doNotDisturb("dunst paused"), at: calendar.date(2026, 11, 23, 8))
        for (kind, hour) in [(EventKind.weighIn, 9), (.hydration, 11), (.meal(.lunch), 13)] {
            #expect(try runner().fire(occurrence(kind, hour), at: calendar.date(2026, 11, 23, hour)) != .alreadyClaimed)
        }
        // Logged on the phone or another machine meanwhile.
        let context = EvaluationContext(now: calendar.date(2026, 11, 23, 12), calendar: calendar, settings: Settings())
        _ = try Tracker(
            database: store.database, sink: InMemoryNotificationSink(), context: context,
            statusBar: CountingStatusBar()
        ).add(WeightEntry(weight: Weight(180, .lb), date: calendar.date(2026, 11, 23, 12)))
        _ = try store.database.addIntake(
            IntakeEvent(kind: .water, date: calendar.date(2026, 11, 23, 12), volume: 250), goals: IntakeSettings(),
            notify: false, now: calendar.date(2026, 11, 23, 12), calendar: calendar)
        presence.presence = Presence()
        let outcomes = try runner().releaseHeld(at: calendar.date(2026, 11, 23, 14))
        #expect(
            outcomes.map { "\($0.0.kind) \($0.1)" } == [
                "weigh-in skipped: its reason is gone", "hydration skipped: its reason is gone",
                "lunch sent (server id 1)",
            ])
        #expect(sink.posted.map(\.key) == ["reminder.lunch"])
        #expect(try store.database.heldReminders().isEmpty)
    }

    @Test("Due while the machine slept: held as suspended, shown by the release that follows, with its due time")
    func lateAfterSuspendIsHeldNotSkipped() throws {
        let resumed = calendar.date(2026, 11, 23, 11, 40)
        #expect(try runner().fire(occurrence(.hydration, 11), at: resumed) == .held("suspended"))
        let shown = try runner().releaseHeld(at: resumed)
        #expect(shown.map { "\($0.0.kind) \($0.1)" } == ["hydration sent (server id 1)"])
        #expect(sink.posted.first?.body.hasSuffix("\nDue since 11:00, while you were away.") == true)

        // Without a presence (the wait turned off), a reminder that late is skipped, as before.
        var runner = runner()
        runner.presence = nil
        #expect(
            try runner.fire(occurrence(.hydration, 13), at: calendar.date(2026, 11, 23, 13, 40))
                == .skipped("40 minutes late"))
    }

    @Test("Back, but the held one not yet released: the next of its kind joins it and both come as one")
    func theNextOfAHeldKindJoinsIt() throws {
        presence.presence.begin(.doNotDisturb("mako"), at: calendar.date(2026, 11, 23, 8, 55))
        #expect(try runner().fire(occurrence(.hydration, 9), at: calendar.date(2026, 11, 23, 9)) != .alreadyClaimed)
        presence.presence = Presence()
        #expect(
            try runner().fire(occurrence(.hydration, 11), at: calendar.date(2026, 11, 23, 11))
                == .held("do not disturb (mako)"))
        #expect(sink.posted.isEmpty)
        let shown = try runner().releaseHeld(at: calendar.date(2026, 11, 23, 11))
        #expect(shown.map { "\($0.0.kind)×\($0.0.times) \($0.1)" } == ["hydration×2 sent (server id 1)"])
    }

    @Test("Back while the server does not answer: the reminder stays held, and is shown at the next release")
    func notShownStaysHeld() throws {
        presence.presence.begin(.locked, at: calendar.date(2026, 11, 23, 8, 55))
        #expect(
            try runner().fire(occurrence(.hydration, 9), at: calendar.date(2026, 11, 23, 9)) == .held("screen locked"))
        presence.presence = Presence()
        sink.failure = LibnotifyStandInError()
        let failed = try runner().releaseHeld(at: calendar.date(2026, 11, 23, 9, 30))
        #expect(failed.count == 1 && "\(failed[0].1)".hasPrefix("not shown"))
        #expect(try store.database.heldReminders().map(\.key) == ["hydration@2026-11-23T09:00"])
        sink.failure = nil
        #expect(
            try runner().releaseHeld(at: calendar.date(2026, 11, 23, 9, 40)).map { "\($0.1)" } == ["sent (server id 1)"]
        )
        #expect(try store.database.heldReminders().isEmpty)
    }

    /// What a sink throws when the server cannot be reached.
    struct LibnotifyStandInError: Error {}

    @Test("Held reminders are shown once the wait is turned off, whatever the presence")
    func heldAreShownWhenTheWaitIsOff() throws {
        presence.presence.begin(.locked, at: calendar.date(2026, 11, 23, 8, 55))
        #expect(
            try runner().fire(occurrence(.hydration, 9), at: calendar.date(2026, 11, 23, 9)) == .held("screen locked"))
        var runner = runner()
        runner.presence = nil
        #expect(
            try runner.releaseHeld(at: calendar.date(2026, 11, 23, 9, 30)).map { "\($0.1)" } == ["sent (server id 1)"])
    }

    @Test("Without a presence, reminders are posted at their time as before")
    func noPresencePostsAtOnce() throws {
        var runner = runner()
        runner.presence = nil
        #expect(try runner.fire(occurrence(.hydration, 9), at: calendar.date(2026, 11, 23, 9)) == .sent(1))
        #expect(try runner.releaseHeld(at: calendar.date(2026, 11, 23, 10)).isEmpty)
    }
}
