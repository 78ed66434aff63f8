import Foundation
import Testing
import W8TestSupport

@testable import W8Core

/// Reminders held while the person is away (issue 39): one per kind however often it fell due, none while away,
/// and none whose reason is gone by the time they are back.
@Suite struct PresenceTests {
    let calendar = PinnedCalendar.newYork

    /// 2026-03-10 (a Tuesday) at `hour`:`minute` in New York.
    func at(_ hour: Int, _ minute: Int = 0, day: Int = 10) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
    }

    func occurrence(_ kind: EventKind, _ hour: Int, _ minute: Int = 0, day: Int = 10) -> Occurrence {
        Occurrence(kind: kind, date: at(hour, minute, day: day), key: "\(kind)@2026-03-\(day)T\(hour):\(minute)")
    }

    func held(_ kinds: [(EventKind, Int)]) -> [HeldReminder] {
        kinds.reduce([]) { ReminderHold.hold(occurrence($1.0, $1.1), reason: .locked, in: $0) }
    }

    @Test func aHeldReminderSaysSinceWhenAndHowOften() {
        let three = held([(.hydration, 14), (.hydration, 15), (.hydration, 16)])[0]
        let notification = DesktopNotification.heldReminder(three, calendar: calendar)
        let plain = DesktopNotification.reminder(.hydration)
        #expect(notification.body == plain.body + "\nDue 3 times since 14:00, while you were away.")
        #expect(notification.title == plain.title && notification.key == plain.key)
        let once = held([(.weighIn, 9)])[0]
        #expect(
            DesktopNotification.heldReminder(once, calendar: calendar).body.hasSuffix(
                "\nDue since 09:00, while you were away."))
    }

    @Test func aReminderDueThreeTimesWhileAwayIsHeldOnce() {
        let held = held([(.hydration, 10), (.weighIn, 11), (.hydration, 12), (.hydration, 14)])
        #expect(held.map(\.kind) == [.hydration, .weighIn])
        #expect(held[0].times == 3)
        #expect(held[0].firstDue == at(10) && held[0].lastDue == at(14))
        #expect(held[0].key == "hydration@2026-03-10T10:0", "the first occurrence's claim")
        // The same occurrence again (a daemon restarted while away) counts once.
        #expect(ReminderHold.hold(occurrence(.hydration, 14), reason: .idle, in: held) == held)
        #expect(ReminderHold.hold(occurrence(.hydration, 14), reason: .idle, in: held)[0].reason == .locked)
    }

    @Test func nothingIsShownWhileAnyReasonHolds() {
        let held = held([(.weighIn, 7)])
        var presence = Presence()
        presence.begin(.locked, at: at(6))
        presence.begin(.doNotDisturb("dunst paused"), at: at(8))
        presence.begin(.locked, at: at(9))
        #expect(presence.longest?.reason == .locked && presence.longest?.since == at(6), "the earlier start stays")
        let release = { (p: Presence) in
            ReminderHold.release(held, presence: p, done: .init(), now: self.at(10), calendar: self.calendar)
        }
        #expect(release(presence).isEmpty)
        presence.end(.locked)
        #expect(release(presence).isEmpty, "still in do not disturb")
        presence.end(.doNotDisturb("dunst paused"))
        #expect(release(presence).map(\.kind) == [.weighIn])
    }

    @Test func aReminderWhoseReasonIsGoneIsDropped() {
        let held = held([(.weighIn, 7), (.meal(.lunch), 12), (.hydration, 13), (.weeklySummary, 9)])
        /// What the person did: nothing, then what `change` sets.
        func done(_ change: (inout ReminderHold.Done) -> Void = { _ in }) -> ReminderHold.Done {
            var done = ReminderHold.Done()
            change(&done)
            return done
        }
        func shown(_ done: ReminderHold.Done, at now: Date? = nil) -> [EventKind] {
            ReminderHold.release(held, presence: Presence(), done: done, now: now ?? at(15), calendar: calendar)
                .map(\.kind)
        }
        #expect(shown(done()) == [.weighIn, .weeklySummary, .meal(.lunch), .hydration], "by first due")
        // A weigh-in that day (here or merged from another device), not the day before.
        #expect(!shown(done { $0.weighIns = [at(14)] }).contains(.weighIn))
        #expect(shown(done { $0.weighIns = [at(20, day: 9)] }).contains(.weighIn))
        // Lunch eaten after the reminder fell due, not before.
        #expect(!shown(done { $0.meals = [.lunch: [at(12, 30)]] }).contains(.meal(.lunch)))
        #expect(shown(done { $0.meals = [.lunch: [at(8)]] }).contains(.meal(.lunch)))
        // The day's water goal met, or a drink after it last fell due.
        #expect(!shown(done { ($0.waterToday, $0.waterGoal) = (2000, 2000) }).contains(.hydration))
        #expect(shown(done { ($0.waterToday, $0.waterGoal, $0.lastDrink) = (1999, 2000, at(12)) }).contains(.hydration))
        #expect(!shown(done { $0.lastDrink = at(13, 30) }).contains(.hydration))
        // The next day, only the summary is still worth showing.
        #expect(shown(done(), at: at(8, day: 11)) == [.weeklySummary])
    }
}
