import Foundation
import W8App
import W8Core
import W8Scheduler

#if canImport(Glibc)
    import Glibc
#endif

extension Runtime {
    /// Runs the scheduler in the foreground until SIGTERM or SIGINT: the waiter watches the config file and
    /// `/etc/localtime`, and the calendar is read again after the time zone changes.
    public static func runDaemon(log: @escaping @Sendable (String) -> Void) throws {
        let signals = [SIGTERM, SIGINT]
        // Before any other thread starts, so that every thread inherits the mask and the signals reach the waiter.
        try WallClockWaiter.blockSignals(signals)
        let runtime = Runtime()
        let database = try runtime.database()
        _ = try runtime.settings()
        let waiter = try WallClockWaiter(watching: [runtime.paths.configFile, "/etc/localtime"], signals: signals)
        let config = runtime.config
        let sink = runtime.sink()
        let inbox = NotificationActionInbox(wake: { waiter.wake() })
        sink.onAction { inbox.push($0) }
        let scheduler = Scheduler(
            runner: { settings, calendar in
                runtime.eventRunner(database: database, sink: sink, settings: settings, calendar: calendar)
            },
            waiter: waiter, loadSettings: { try config.load() }, clock: Runtime.clock,
            calendar: { Runtime.localCalendar(rereadZone: true) }, log: log, inbox: inbox)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            scheduler.run()
            done.signal()
        }
        thread.name = "w8-scheduler"
        thread.start()
        done.wait()
    }
}
