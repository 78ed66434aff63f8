import Foundation
import Synchronization
import W8App
import W8Core
import W8Libnotify
import W8Scheduler
import W8Store

#if canImport(Glibc)
    import Glibc
#endif

extension Runtime {
    /// The scheduler of `w8 daemon`, which runs until SIGTERM or SIGINT: the waiter watches the config file,
    /// `/etc/localtime` and a sync folder's journals (merged within seconds of their change), and the calendar is
    /// read again after the time zone changes. The executable runs it on a
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
        let fixed = [runtime.paths.configFile, "/etc/localtime"]
        let waiter = try WallClockWaiter(watching: fixed + runtime.syncWatches(database), signals: signals)
        let config = runtime.config
        let sink = runtime.sink()
        let inbox = NotificationActionInbox(wake: { waiter.wake() })
        sink.onAction { inbox.push($0) }
        let started = Atomic(false)
        let presence = PresenceWatch(
            awayAfter: TimeInterval(try runtime.settings().reminders.awayAfter * 60), clock: Runtime.clock,
            changed: { signals in
                // Each change once started, in the journal: the first readings are the line below.
                if started.load(ordering: .acquiring) { log("presence now: \(PresenceWatch.describe(signals))") }
                waiter.wake()
            })
        defer { started.store(true, ordering: .releasing) }
        do {
            try presence.start()
            log("presence: \(PresenceWatch.describe(presence.signals()))")
        } catch {
            log("presence: no signal can be read (\(error.localizedDescription)); reminders come at their time")
        }
        return Scheduler(
            runner: { settings, calendar in
                var runner = runtime.eventRunner(database: database, sink: sink, settings: settings, calendar: calendar)
                if settings.reminders.waitForPresence { runner.presence = { presence.presence() } }
                return runner
            },
            waiter: waiter, loadSettings: { try config.load() }, clock: Runtime.clock,
            calendar: { Runtime.localCalendar(rereadZone: true) }, log: log, inbox: inbox,
            sync: {
                guard (try? database.syncSelf())??.folder != nil else { return }
                do {
                    let pass = try runtime.syncFolder(
                        database: database, now: Runtime.clock(), calendar: Runtime.localCalendar(), sink: sink
                    ).pass()
                    if pass.written + pass.applied > 0 {
                        log("sync: \(pass.written) events written, \(pass.read) read, \(pass.applied) merged")
                    }
                    for problem in pass.problems { log("sync: \(problem)") }
                } catch {
                    log("sync: \(error.localizedDescription)")
                }
                waiter.watch(fixed + runtime.syncWatches(database))
            })
    }
}

extension Runtime {
    /// What the daemon watches in this machine's sync folder: the devices directory (a device that joins) and each
    /// device's directory (its journals); nothing when the machine is in no folder.
    func syncWatches(_ database: AppDatabase) -> [String] {
        guard let folder = (try? database.syncSelf())??.folder else { return [] }
        let devices = SyncFolder.devices(folder)
        return [devices + "/*"] + SyncFolder.deviceDirectories(folder).map { $0 + "/*" }
    }
}
