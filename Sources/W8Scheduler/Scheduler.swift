import Foundation
import Synchronization
import W8App
import W8Core

/// Buttons pressed on notifications, handed from the notification thread to the scheduler's thread.
public final class NotificationActionInbox: Sendable {
    private let presses = Mutex<[NotificationActionPress]>([])
    private let wake: @Sendable () -> Void

    /// - Parameter wake: wakes the scheduler's wait (`WallClockWaiter.wake`).
    public init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Queues `press` and wakes the scheduler; safe from any thread, never blocks on the sink.
    public func push(_ press: NotificationActionPress) {
        presses.withLock { $0.append(press) }
        wake()
    }

    func take() -> [NotificationActionPress] {
        presses.withLock { presses in
            defer { presses = [] }
            return presses
        }
    }
}

/// The scheduler thread's loop: sleeps until the next event by the wall clock, fires it, and starts over when
/// the config file, the clock or the time zone changes. It never polls.
public final class Scheduler: Sendable {
    public typealias Log = @Sendable (String) -> Void

    let makeRunner: @Sendable (Settings, Calendar) -> EventRunner
    let loadSettings: @Sendable () throws -> Settings
    let clock: @Sendable () -> Date
    let calendar: @Sendable () -> Calendar
    let log: Log
    let waiter: any Waiting
    let inbox: NotificationActionInbox?
    /// Merges what arrived in a sync folder and journals what changed here: when a watched file changed, and around
    /// each firing, so that a summary another machine claimed is not posted again.
    let sync: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - runner: the event runner for the settings and calendar in force (store, sink and summary image are the
    ///     composition root's).
    ///   - waiter: sleeps until the next event; `WallClockWaiter` but in tests.
    ///   - loadSettings: reads the config file; called at start and after every change to it.
    ///   - clock: the wall clock. - calendar: the person's calendar, read again after a time-zone change.
    public init(
        runner: @escaping @Sendable (Settings, Calendar) -> EventRunner, waiter: any Waiting,
        loadSettings: @escaping @Sendable () throws -> Settings, clock: @escaping @Sendable () -> Date,
        calendar: @escaping @Sendable () -> Calendar, log: @escaping Log, inbox: NotificationActionInbox? = nil,
        sync: (@Sendable () -> Void)? = nil
    ) {
        self.inbox = inbox
        self.sync = sync
        self.makeRunner = runner
        self.waiter = waiter
        self.loadSettings = loadSettings
        self.clock = clock
        self.calendar = calendar
        self.log = log
    }

    /// Runs until the waiter is stopped or a stop signal arrives.
    public func run() {
        var settings = reload(previous: Settings())
        log("started; \(describeNext(settings))")
        catchUp(settings)
        var since = clock()
        // Reminders put off by "In 15 minutes", by when to post them again.
        var snoozed: [EventKind: Date] = [:]
        var zone = calendar().timeZone
        while true {
            let calendar = calendar()
            if calendar.timeZone != zone {
                zone = calendar.timeZone
                log("time zone \(zone.identifier); \(describeNext(settings))")
            }
            let runner = makeRunner(settings, calendar)
            handlePresses(runner, snoozed: &snoozed)
            releaseHeld(runner)
            let next = [upcoming(runner, after: clock()).first?.date, snoozed.values.min()].compactMap { $0 }.min()
            switch waiter.wait(until: next) {
            case .deadline:
                sync?()
                since = fireDue(runner, since: since)
                fireSnoozed(runner, &snoozed)
                sync?()
            case .clockChanged:
                log("the clock was set; planning again")
                sync?()
                since = fireDue(runner, since: since)
                fireSnoozed(runner, &snoozed)
                sync?()
            case .woken:
                continue
            case .fileChanged:
                sync?()
                let previous = settings
                settings = reload(previous: settings)
                if settings != previous { log("settings changed; \(describeNext(settings))") }
            case .stopped, .signal:
                log("stopping")
                return
            }
        }
    }

    /// Fires what fell due since the last check: the summary by catch-up, each reminder's latest occurrence
    /// (a reminder too late after a suspend is dropped by the runner). Returns the moment of this check.
    func fireDue(_ runner: EventRunner, since: Date) -> Date {
        let now = clock()
        catchUp(runner.settings)
        for kind in runner.schedule.kinds where kind.isReminder {
            let latest: Occurrence?
            do {
                latest = try runner.latest(kind, atOrBefore: now)
            } catch {
                log("\(kind): \(error.localizedDescription)")
                continue
            }
            guard let occurrence = latest, occurrence.date > since else { continue }
            report(occurrence, Result { try runner.fire(occurrence, at: now) })
        }
        return now
    }

    /// Acts on the buttons pressed since the last look: logs drinks and meals, and notes snoozed reminders.
    func handlePresses(_ runner: EventRunner, snoozed: inout [EventKind: Date]) {
        for press in inbox?.take() ?? [] {
            do {
                let outcome = try runner.handle(press, at: clock())
                if case .snoozed(let kind, let date) = outcome { snoozed[kind] = date }
                log("\(press.key) button '\(press.actionID)': \(outcome)")
            } catch {
                log("\(press.key) button '\(press.actionID)': \(error.localizedDescription)")
            }
        }
    }

    /// Shows the reminders held while the person was away, once they are back (the presence watch wakes the wait
    /// when they come back).
    func releaseHeld(_ runner: EventRunner) {
        do {
            for (reminder, outcome) in try runner.releaseHeld(at: clock()) {
                log("\(reminder.key) (held, due \(reminder.times) times): \(outcome)")
            }
        } catch {
            log("held reminders: \(error.localizedDescription)")
        }
    }

    /// Posts again the snoozed reminders whose time has come.
    func fireSnoozed(_ runner: EventRunner, _ snoozed: inout [EventKind: Date]) {
        let now = clock()
        for (kind, date) in snoozed where date <= now {
            snoozed[kind] = nil
            let key = DesktopNotification.reminderKey(kind)
            do {
                log("\(key) (snoozed): \(try runner.postReminder(kind, now))")
            } catch {
                log("\(key) (snoozed): \(error.localizedDescription)")
            }
        }
    }

    /// The next events, the hydration reminder counted from the last drink; when the database cannot be read,
    /// the plain schedule (the runner checks again when it fires).
    func upcoming(_ runner: EventRunner, after date: Date) -> [Occurrence] {
        do {
            return try runner.upcoming(after: date)
        } catch {
            log("planning without the intake log: \(error.localizedDescription)")
            return runner.schedule.upcoming(after: date)
        }
    }

    /// Sends a summary missed since the last run (at start, after a wake-up or a clock change) and remembers now.
    func catchUp(_ settings: Settings) {
        let runner = makeRunner(settings, calendar())
        do {
            if let (occurrence, outcome) = try runner.sendSummaryIfDue(at: clock()) {
                report(occurrence, .success(outcome))
            }
        } catch {
            log("summary: \(error.localizedDescription)")
        }
    }

    func report(_ occurrence: Occurrence, _ result: Result<FireOutcome, Error>) {
        switch result {
        case .success(.alreadyClaimed): log("\(occurrence.key): already sent by another run")
        case .success(let outcome): log("\(occurrence.key): \(outcome)")
        case .failure(let error): log("\(occurrence.key): \(error.localizedDescription)")
        }
    }

    func reload(previous: Settings) -> Settings {
        do {
            return try loadSettings()
        } catch {
            log("keeping the previous settings: \(error.localizedDescription)")
            return previous
        }
    }

    func describeNext(_ settings: Settings) -> String {
        guard let next = upcoming(makeRunner(settings, calendar()), after: clock()).first else {
            return "no events enabled"
        }
        let local = calendar().dateComponents([.hour, .minute], from: next.date)
        let time = String(format: "%02d:%02d", local.hour ?? 0, local.minute ?? 0)
        // A hydration reminder moved by a drink keeps its key; say when it fires.
        let moved = next.kind == .hydration && !next.key.hasSuffix(time)
        return "next: \(next.key)" + (moved ? " at \(time), counted from the last drink" : "")
    }
}
