import Foundation
import W8App
import W8Core
import W8Scheduler

#if canImport(Glibc)
    import Glibc
#endif

extension Runtime {
    /// The scheduler of `w8 daemon`, which runs until SIGTERM or SIGINT: the waiter watches the config file and
    /// `/etc/localtime`, and the calendar is read again after the time zone changes. The executable runs it on a
    /// thread of its own.
    public static func daemonScheduler(
        warn: (String) -> Void, log: @escaping @Sendable (String) -> Void
    ) throws -> Scheduler {
        let signals = [SIGTERM, SIGINT]
        // Before any other thread starts, so that every thread inherits the mask and the signals reach the waiter.
        try WallClockWaiter.blockSignals(signals)
        let runtime = Runtime(warn: warn)
        let database = try runtime.database()
        _ = try runtime.settings()
        let waiter = try WallClockWaiter(watching: [runtime.paths.configFile, "/etc/localtime"], signals: signals)
        let config = runtime.config
        let sink = runtime.sink()
        let inbox = NotificationActionInbox(wake: { waiter.wake() })
        sink.onAction { inbox.push($0) }
        return Scheduler(
            runner: { settings, calendar in
                runtime.eventRunner(database: database, sink: sink, settings: settings, calendar: calendar)
            },
            waiter: waiter, loadSettings: { try config.load() }, clock: Runtime.clock,
            calendar: { Runtime.localCalendar(rereadZone: true) }, log: log, inbox: inbox)
    }
}
