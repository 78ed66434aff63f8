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

    init(_ script: [WaiterWake], clock: ManualClock) {
        self.script = script
        self.clock = clock
    }

    func wait(until date: Date?) -> WaiterWake {
        lock.withLock {
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

/// The scheduler's loop driven by a scripted waiter: what it waits for, what it fires, how it reloads.
@Suite struct SchedulerLoopTests {
    let calendar = PinnedCalendar.berlin

    func scheduler(
        _ store: TemporaryDatabase, _ sink: InMemoryNotificationSink, waiter: ScriptedWaiter,
        settings: @escaping @Sendable () throws -> Settings
    ) -> Scheduler {
        let calendar = calendar
        return Scheduler(
            runner: { settings, calendar in
                EventRunner(database: store.database, sink: sink, settings: settings, calendar: calendar)
            },
            waiter: waiter, loadSettings: settings, clock: { waiter.clock.now() }, calendar: { calendar },
            log: { _ in })
    }

    @Test("It sleeps until the next reminder, fires it at its deadline, then sleeps until the next one")
    func firesAtTheDeadline() throws {
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        let sink = InMemoryNotificationSink()
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
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        let sink = InMemoryNotificationSink()
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
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        let sink = InMemoryNotificationSink()
        let waiter = ScriptedWaiter([.signal(15)], clock: ManualClock(calendar.date(2026, 11, 23, 6)))
        var settings = Settings()
        settings.reminders.weighIn = true
        let frozen = settings

        scheduler(store, sink, waiter: waiter, settings: { frozen }).run()

        #expect(waiter.deadlines.count == 1)
        #expect(sink.posted.isEmpty)
    }
}

final class ManualCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// The count before this call.
    func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
}
