import Foundation
import Testing
import W8App
import W8Core
import W8Scheduler
import W8TestSupport

/// A waiter that answers from a script and moves a shared clock to each deadline, so the loop runs in no time.
final class ScriptedWaiter: Waiting, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [WaiterWake]
    private(set) var deadlines: [Date?] = []
    let clock: ManualClock
    /// Runs as the loop starts each wait (with its index), like another process acting while the daemon sleeps.
    let whileWaiting: @Sendable (Int) -> Void

    init(_ script: [WaiterWake], clock: ManualClock, whileWaiting: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.script = script
        self.clock = clock
        self.whileWaiting = whileWaiting
    }

    func wait(until date: Date?) -> WaiterWake {
        lock.withLock {
            whileWaiting(deadlines.count)
            deadlines.append(date)
            let wake = script.isEmpty ? .stopped : script.removeFirst()
            if wake == .deadline, let date { clock.set(date) }
            return wake
        }
    }
}

final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    func now() -> Date { lock.withLock { date } }
    func set(_ date: Date) { lock.withLock { self.date = date } }
}

extension SchedulingSuite {
    /// The scheduler on this suite's calendar, firing into `sink` with events from `store`, waiting on `waiter`.
    func scheduler(
        _ store: TemporaryDatabase, _ sink: InMemoryNotificationSink, waiter: ScriptedWaiter,
        log: LogLines = LogLines(), settings: @escaping @Sendable () throws -> Settings
    ) -> Scheduler {
        let calendar = calendar
        return Scheduler(
            runner: { settings, calendar in
                EventRunner(database: store.database, sink: sink, settings: settings, calendar: calendar)
            },
            waiter: waiter, loadSettings: settings, clock: { waiter.clock.now() }, calendar: { calendar },
            log: { log.append($0) })
    }
}

/// The scheduler's loop driven by a scripted waiter: what it waits for, what it fires, how it reloads.
@Suite final class SchedulerLoopTests: SchedulingSuite {
    @Test("It sleeps until the next reminder, fires it at its deadline, then sleeps until the next one")
    func firesAtTheDeadline() throws {
        let clock = ManualClock(calendar.date(2026, 11, 23, 6))
        let waiter = ScriptedWaiter([.deadline], clock: clock)
        var settings = Settings()
        settings.summary.enabled = false
        settings.reminders.weighIn = true
        let frozen = settings

        scheduler(store, sink, waiter: waiter, settings: { frozen }).run()

        #expect(waiter.deadlines == [calendar.date(2026, 11, 23, 7, 30), calendar.date(2026, 11, 24, 7, 30)])
        #expect(sink.posted.map(\.title) == ["Time to weigh in"])
    }

    @Test("A changed config file is read again: a reminder switched on is planned at once")
    func reloadsOnFileChange() throws {
        let clock = ManualClock(calendar.date(2026, 11, 23, 6))
        let waiter = ScriptedWaiter([.fileChanged], clock: clock)
        let reads = ManualCounter()

        scheduler(store, sink, waiter: waiter) {
            var settings = Settings()
            settings.summary.enabled = false
            settings.reminders.weighIn = reads.next() > 0
            return settings
        }.run()

        #expect(waiter.deadlines == [nil, calendar.date(2026, 11, 23, 7, 30)])
        #expect(sink.posted.isEmpty)
    }

    @Test("A stop signal ends the loop without firing anything")
    func stops() throws {
        let waiter = ScriptedWaiter([.signal(15)], clock: ManualClock(calendar.date(2026, 11, 23, 6)))
        var settings = Settings()
        settings.reminders.weighIn = true
        let frozen = settings

        scheduler(store, sink, waiter: waiter, settings: { frozen }).run()

        #expect(waiter.deadlines.count == 1)
        #expect(sink.posted.isEmpty)
    }
}

final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    func append(_ line: String) { lock.withLock { _lines.append(line) } }
    var lines: [String] { lock.withLock { _lines } }
}

final class ManualCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// The count before this call.
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}

/// The loop's hydration and meal reminders, read against the intake log (drinks and meals in the database).
@Suite final class SchedulerIntakeTests: SchedulingSuite {
    /// Hydration every 120 minutes from 07:00; the summary off.
    static let hydration: Settings = {
        var settings = Settings()
        settings.summary.enabled = false
        settings.reminders.hydration = true
        return settings
    }()

    func scheduler(
        _ store: TemporaryDatabase, _ sink: InMemoryNotificationSink, waiter: ScriptedWaiter, log: LogLines,
        settings: Settings = SchedulerIntakeTests.hydration
    ) -> Scheduler {
        scheduler(store, sink, waiter: waiter, log: log) { settings }
    }

    func drink(_ store: TemporaryDatabase, _ millilitres: Int = 250, at date: Date) {
        _ = try? store.database.addIntake(
            IntakeEvent(kind: .water, date: date, volume: millilitres), goals: IntakeSettings(), notify: false,
            now: date, calendar: calendar)
    }

    @Test("The next wake-up is the last drink plus the interval, not the next grid time; then the grid again")
    func wakesCountedFromTheLastDrink() throws {
        drink(store, at: calendar.date(2026, 11, 23, 10, 30))
        let waiter = ScriptedWaiter([.deadline], clock: ManualClock(calendar.date(2026, 11, 23, 10, 31)))
        let log = LogLines()

        scheduler(store, sink, waiter: waiter, log: log).run()

        #expect(waiter.deadlines == [calendar.date(2026, 11, 23, 12, 30), calendar.date(2026, 11, 23, 13)])
        #expect(sink.posted.map(\.title) == ["Drink some water"])
        #expect(log.lines.contains("hydration@2026-11-23T11:00: sent (server id 1)"), "\(log.lines)")
        #expect(log.lines.first == "started; next: hydration@2026-11-23T11:00 at 12:30, counted from the last drink")
    }

    @Test("A drink logged while it sleeps: it wakes at the old time, fires nothing, and sleeps until drink + interval")
    func drinkWhileAsleep() throws {
        let drinkTime = calendar.date(2026, 11, 23, 8, 30)
        let waiter = ScriptedWaiter([.deadline, .deadline], clock: ManualClock(calendar.date(2026, 11, 23, 7, 30))) {
            [self] index in
            if index == 0 {
                drink(store, at: drinkTime)
            }
        }
        let log = LogLines()

        scheduler(store, sink, waiter: waiter, log: log).run()

        #expect(
            waiter.deadlines == [
                calendar.date(2026, 11, 23, 9), calendar.date(2026, 11, 23, 10, 30), calendar.date(2026, 11, 23, 11),
            ])
        #expect(sink.posted.count == 1)
        #expect(log.lines.filter { $0.hasPrefix("hydration@") } == ["hydration@2026-11-23T09:00: sent (server id 1)"])
    }

    @Test("With the day's water goal met, it wakes at the hydration time and skips the reminder")
    func skipsAfterGoalMet() throws {
        for minute in 0..<8 { drink(store, at: calendar.date(2026, 11, 23, 6, minute)) }
        let waiter = ScriptedWaiter([.deadline], clock: ManualClock(calendar.date(2026, 11, 23, 8, 30)))
        let log = LogLines()

        scheduler(store, sink, waiter: waiter, log: log).run()

        #expect(waiter.deadlines.first == calendar.date(2026, 11, 23, 9))
        #expect(sink.posted.isEmpty)
        #expect(
            log.lines.contains("hydration@2026-11-23T09:00: skipped: the day's water goal is met (2000 ml of 2000 ml)"),
            "\(log.lines)")
    }

    @Test("A lunch reminder is skipped after a meal logged 2 hours before; at 2 h 01 it is posted")
    func mealSkip() throws {
        for (mealMinute, posted) in [(30, false), (29, true)] {
            let store = try TemporaryDatabase()
            defer { store.directory.remove() }
            let sink = InMemoryNotificationSink()
            _ = try store.database.addIntake(
                IntakeEvent(kind: .meal, date: calendar.date(2026, 11, 23, 11, mealMinute)), goals: IntakeSettings(),
                notify: false, now: calendar.date(2026, 11, 23, 11, mealMinute), calendar: calendar)
            let waiter = ScriptedWaiter([.deadline], clock: ManualClock(calendar.date(2026, 11, 23, 12)))
            var settings = Settings()
            settings.summary.enabled = false
            settings.reminders[enabled: .lunch] = true
            let log = LogLines()

            scheduler(store, sink, waiter: waiter, log: log, settings: settings).run()

            #expect(waiter.deadlines.first == calendar.date(2026, 11, 23, 13, 30))
            #expect(sink.posted.map(\.title) == (posted ? ["Lunch time"] : []))
            let line =
                "lunch@2026-11-23T13:30: "
                + (posted ? "sent (server id 1)" : "skipped: a meal was logged 120 minutes before")
            #expect(log.lines.contains(line), "\(log.lines)")
        }
    }

    @Test("A pressed In 15 minutes wakes the loop, which posts the meal reminder again 15 minutes later")
    func snoozes() throws {
        let clock = ManualClock(calendar.date(2026, 11, 23, 13))
        // The press comes while the loop waits for the second time, after lunch's reminder went out.
        let waiter = ScriptedWaiter([.deadline, .woken, .deadline], clock: clock) { [sink] index in
            if index == 1 { sink.press("snooze", onKey: "reminder.lunch", id: 1) }
        }
        let inbox = NotificationActionInbox(wake: {})
        sink.onAction { inbox.push($0) }
        var settings = Settings()
        settings.summary.enabled = false
        settings.reminders[enabled: .lunch] = true
        let frozen = settings
        let log = LogLines()
        let calendar = calendar

        Scheduler(
            runner: { [store, sink] settings, calendar in
                EventRunner(database: store.database, sink: sink, settings: settings, calendar: calendar)
            },
            waiter: waiter, loadSettings: { frozen }, clock: { clock.now() }, calendar: { calendar },
            log: { log.append($0) }, inbox: inbox
        ).run()

        #expect(
            waiter.deadlines == [
                calendar.date(2026, 11, 23, 13, 30), calendar.date(2026, 11, 24, 13, 30),
                calendar.date(2026, 11, 23, 13, 45), calendar.date(2026, 11, 24, 13, 30),
            ], "log: \(log.lines)")
        #expect(sink.posted.map(\.title) == ["Lunch time", "Lunch time"])
        #expect(sink.closed == [1])
    }
}
