import Foundation
import W8App
import W8Core
import W8Libnotify
import W8Store

/// The environment a command runs in, built once by the executable: the composition root, as isowords'
/// bootstrap. It holds the clock's reading, the calendar, the paths, the way to the database, the sink and the chart
/// drawer, and wires them into the workflows of W8App. It neither prints nor exits: the executable does.
///
/// This is the only place that reads the clock, the time zone and the environment.
public struct Runtime: Sendable {
    public let environment: [String: String]
    public let paths: Paths
    public let now: Date
    public let calendar: Calendar
    /// W8Chart's images, drawn with cairo.
    public let chartDrawer: ChartDrawer
    /// Whether the command changes the data (`add`, `edit`, `rm`): see `database(mergingSync:)`.
    private let changing: Bool

    /// - Parameters:
    ///   - changing: the command is `add`, `edit` or `rm`, which opens an existing database as it is.
    ///   - warn: hears the warning about a `TZ` w8 cannot follow exactly.
    public init(changing: Bool = false, warn: (String) -> Void) {
        self.changing = changing
        environment = ProcessInfo.processInfo.environment
        paths = Paths(environment: environment, accountHome: NSHomeDirectory())
        now = Runtime.clock()
        let zone = LocalTimeZone.resolve(environment["TZ"], now: now)
        calendar = Runtime.calendar(in: zone.zone)
        chartDrawer = Runtime.cairoChartDrawer()
        if let warning = zone.warning { warn(warning) }
    }

    /// The installer of the systemd user units running `executable`, in `$XDG_CONFIG_HOME/systemd/user`.
    public func systemdInstaller(executable: String) -> SystemdInstaller {
        var installer = SystemdInstaller(
            directory: paths.systemdUserDirectory, executable: executable,
            systemctl: Systemctl(environment: environment))
        installer.searchPath = paths.systemdUnitPath
        return installer
    }

    /// `$DBUS_SESSION_BUS_ADDRESS`; nil when it is unset.
    public var sessionBusAddress: String? { environment["DBUS_SESSION_BUS_ADDRESS"] }

    /// The doctor, asking libnotify about the notification server.
    public func doctor() -> Doctor {
        let serviceDirectories = serviceDirectories
        let sessionBusAddress = sessionBusAddress
        let config = config
        var doctor = Doctor(
            paths: paths, sessionBus: sessionBusAddress,
            checkServer: {
                do throws(LibnotifyError) {
                    let info = try LibnotifyNotificationSink.serverInfo(
                        deadline: 2.0, serviceDirectories: serviceDirectories, sessionBusAddress: sessionBusAddress)
                    return .reachable(
                        name: info.name, vendor: info.vendor, version: info.version, specVersion: info.specVersion,
                        capabilities: info.capabilities)
                } catch {
                    return .unreachable(
                        status: error.doctorStatus, name: error.startFailure?.serverName,
                        message: error.localizedDescription,
                        services: error.startFailure?.services.map { ($0.name, $0.file) } ?? [])
                }
            },
            loadSettings: { try config.load() })
        doctor.systemctl = Systemctl(environment: environment)
        doctor.presenceSignals = { settings in
            let watch = PresenceWatch(
                awayAfter: TimeInterval(settings.reminders.awayAfter * 60), clock: { Runtime.clock() })
            do { try watch.start(deadline: 5) } catch { return [] }
            return watch.signals()
        }
        let databasePath = paths.database
        // The doctor writes nothing: the database as it is, if it can be opened so, read without a pass, and
        // closed without a checkpoint.
        doctor.syncStatus = {
            guard access(databasePath, F_OK) == 0, let database = AppDatabase.openAsItIs(at: databasePath) else {
                return nil
            }
            defer { try? database.close(checkpoint: false) }
            guard (try? database.syncSelf())??.folder != nil else { return nil }
            return try? self.syncFolder(database: database).status(merging: false)
        }
        return doctor
    }

    /// The importer; a dry run with no database yet creates none (`Importer.database(dryRun:path:open:)`).
    public func importer(settings: Settings, dryRun: Bool) throws -> Importer {
        let database = try Importer.database(dryRun: dryRun, path: paths.database, open: { try self.database() })
        return Importer(tracker: tracker(settings: settings, database: database), config: config)
    }

    /// The status-bar glance now.
    public func widgetEntry(_ settings: Settings) throws -> WidgetEntry {
        try WidgetEntry(database: try database(), settings: settings, now: now, calendar: calendar)
    }

    /// The exporter, of a database that is salvaged if damaged (`Exporter.database(at:warn:)`).
    public func exporter(_ settings: Settings, version: String, warn: (String) -> Void) throws -> Exporter {
        Exporter(
            database: try Exporter.database(at: paths.database, warn: warn), settings: settings, calendar: calendar,
            now: now, w8Version: version)
    }

    /// The weight charts, drawn by `chartDrawer`.
    public func charts() throws -> WeightCharts {
        WeightCharts(database: try database(), calendar: calendar, drawer: chartDrawer)
    }

    /// The wall clock.
    public static let clock: @Sendable () -> Date = { Date() }

    /// The person's calendar: Gregorian, in the system's time zone, `TZ` read as glibc reads it (`LocalTimeZone`).
    /// `rereadZone` reads `/etc/localtime` again, for the daemon after the zone changed; a `TZ` in the environment
    /// pins the zone and is never re-read.
    public static func localCalendar(rereadZone: Bool = false) -> Calendar {
        let tz = getenv("TZ").map { String(cString: $0) }
        if rereadZone, tz == nil { NSTimeZone.resetSystemTimeZone() }
        return calendar(in: LocalTimeZone.resolve(tz, now: clock()).zone)
    }

    /// The Gregorian calendar in `zone`, with no locale, so that no locale data is read: w8 asks the calendar for
    /// days, hours and weekdays by number, never for its locale's week or names (those are W8Text's).
    static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    public var config: ConfigFile { ConfigFile(path: paths.configFile) }

    public func settings() throws -> Settings { try config.load() }

    /// The database, opened once per call. On a machine in a sync folder, what has arrived is merged first,
    /// unless `mergingSync` is false (the `w8 sync` commands, which report their own pass).
    ///
    /// `add`, `edit` and `rm` open a database that needs no change as it is (`AppDatabase.openAsItIs`), writable
    /// also in a directory w8 cannot write, where `open(at:)` opens it read only: they write only files that exist
    /// (`CLIDiskAndPermissionTests.oneLineAndNothingLost`).
    public func database(mergingSync: Bool = true) throws -> AppDatabase {
        let database =
            try (changing ? AppDatabase.openAsItIs(at: paths.database) : nil) ?? AppDatabase.open(at: paths.database)
        OpenedDatabases.process.append(database)
        if mergingSync { mergeArrived(database) }
        return database
    }

    /// On a machine in a sync folder: merges what has arrived before the command reads, and writes what it changed
    /// into this machine's journal when it closes the database. What goes wrong is for `w8 sync status` to tell: a
    /// broken folder does not stop the command.
    func mergeArrived(_ database: AppDatabase) {
        guard (try? database.syncSelf())??.folder != nil else { return }
        let folder = syncFolder(database: database)
        _ = try? folder.pass()
        // Only a command that changed something writes to the journal as it ends: `w8 status` passes once.
        OpenedDatabases.process.beforeClose {
            if (try? database.hasPendingSync()) == true { _ = try? folder.pass() }
        }
    }

    /// The sync folder workflow on `database`: after a merge, the milestone rules run silently, a weigh-in logged
    /// today elsewhere closes the weigh-in reminder, and the status bar is told.
    public func syncFolder(database: AppDatabase) -> SyncFolder {
        syncFolder(database: database, now: now, calendar: calendar, sink: sink())
    }

    /// The same at `now` in `calendar`, closing the weigh-in reminder through `sink`: for the daemon, each pass.
    public func syncFolder(database: AppDatabase, now: Date, calendar: Calendar, sink: any NotificationSink)
        -> SyncFolder
    {
        let config = config
        let statusBar = { @Sendable (settings: Settings) in self.statusBar(settings) }
        let tracker = { @Sendable in
            let settings = (try? config.load()) ?? Settings()
            return Tracker(
                database: database, sink: sink,
                context: EvaluationContext(now: now, calendar: calendar, settings: settings),
                statusBar: statusBar(settings))
        }
        var folder = SyncFolder(
            database: database, config: config, now: now, calendar: calendar, hostName: Runtime.hostName(),
            random: { UInt64.random(in: .min ... .max) }, afterMerge: { tracker().absorbMerge($0) })
        folder.inMerge = { try tracker().recordMergedMilestones($0) }
        return folder
    }

    /// Opens the database when it exists, which merges a sync folder's news when this machine is in one (and
    /// journals what changed when the command ends): for `w8 config`, whose settings may travel.
    public func journalSettings() {
        guard access(paths.database, F_OK) == 0, let database = try? database(),
            (try? database.syncSelf())??.folder != nil
        else { return }
        let folder = syncFolder(database: database)
        OpenedDatabases.process.beforeClose { _ = try? folder.pass() }
    }

    /// This machine's name (`gethostname`), for the sync folder's device list.
    static func hostName() -> String {
        var bytes = [CChar](repeating: 0, count: 256)
        guard gethostname(&bytes, bytes.count - 1) == 0 else { return "unknown" }
        return String(cString: bytes)
    }

    /// Closes every database a runtime of this process opened, once the command is done: a database this process
    /// checked and wrote to gets its integrity stamp (`IntegrityStamp`), so that the next changing command skips
    /// the whole-file check (`IntegrityStampTests.everyChangingCommandLeavesAStamp`).
    ///
    /// SQLite checkpoints the WAL as the last connection closes only once it holds more than
    /// `checkpointAboveWALBytes`: what was committed stays in the WAL, durable, until then. A checkpoint at every
    /// close cost a command that read after a change two fsyncs, and a `w8 status` that merged one event from the
    /// sync folder four (the new WAL after it two more); a WAL never checkpointed costs every process that opens the
    /// database first a read of all of it (SQLite rebuilds its index), 5 ms at 3 MB (bench/README.md, "Issue 38").
    ///
    /// The databases stay in the process's list, closed, until it exits: the last release would run GRDB's
    /// deinitialisers, which look up a conformance (a scan of the binary's records) and start a dispatch thread
    /// only to dispose of the closed queue, just before the process ends.
    public static func closeOpenDatabases() {
        OpenedDatabases.process.runBeforeClose()
        for database in OpenedDatabases.process.all {
            var wal = stat()
            let large = lstat(database.path + "-wal", &wal) == 0 && wal.st_size > checkpointAboveWALBytes
            try? database.close(checkpoint: large)
        }
    }

    /// 256 KiB: 64 pages, about five merges of one event or twenty weigh-ins, read in well under a millisecond.
    static let checkpointAboveWALBytes = 256 * 1024

    /// Formats for the terminal and JSON, in the preferred unit and the local time zone.
    public func presenter(_ settings: Settings) -> Presenter {
        Presenter(unit: settings.unit, timeZone: calendar.timeZone)
    }

    public func parseDate(_ text: String?) throws -> Date {
        guard let text else { return now }
        return try DateInput.parse(text, now: now, calendar: calendar)
    }

    /// libnotify, with a deadline well inside the 3 s that `w8 add` may take against a hung server.
    public func sink() -> any NotificationSink {
        LibnotifyNotificationSink(
            deadline: 2.0, dataDirectories: dataDirectories, serviceDirectories: serviceDirectories,
            sessionBusAddress: sessionBusAddress)
    }

    /// `$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`: where the icon and the session's D-Bus services are installed.
    public var dataDirectories: [String] { paths.xdg.dataSearchPath }

    /// Where the session bus reads the notification servers it may start.
    public var serviceDirectories: [String] { paths.xdg.sessionServiceDirectories }

    /// The waybar of this session, when `widget.signal` is set.
    func statusBar(_ settings: Settings) -> WaybarRefresh {
        WaybarRefresh(offset: settings.widgetSignal, runtimeDirectory: paths.xdg.runtimeDirectory)
    }

    public func tracker(settings: Settings) throws -> Tracker {
        try tracker(settings: settings, database: database())
    }

    public func tracker(settings: Settings, database: AppDatabase) -> Tracker {
        return Tracker(
            database: database, sink: sink(),
            context: EvaluationContext(now: now, calendar: calendar, settings: settings),
            statusBar: statusBar(settings), claimed: LibnotifyNotificationSink.connectInBackground)
    }

    public func intakeLog(_ settings: Settings) throws -> IntakeLog {
        IntakeLog(
            database: try database(), sink: sink(), settings: settings, now: now, calendar: calendar,
            statusBar: statusBar(settings))
    }

    public func activityLog(_ settings: Settings) throws -> ActivityLog {
        ActivityLog(
            database: try database(), context: EvaluationContext(now: now, calendar: calendar, settings: settings),
            statusBar: statusBar(settings))
    }

    public func eventRunner() throws -> EventRunner { try eventRunner(settings: try settings()) }

    public func eventRunner(settings: Settings) throws -> EventRunner {
        eventRunner(database: try database(), sink: sink(), settings: settings, calendar: calendar)
    }

    /// Whether the person is at the screen, for a one-shot run (the summary timer): read from the desktop's signals
    /// at the first call; nil when `reminders.wait_for_presence` is off.
    public func presence(_ settings: Settings) -> (@Sendable () -> Presence)? {
        guard settings.reminders.waitForPresence else { return nil }
        let watch = PresenceWatch(
            awayAfter: TimeInterval(settings.reminders.awayAfter * 60), clock: { Runtime.clock() })
        return { watch.presenceOnceStarted() }
    }

    /// The runner of scheduled events, its summary carrying the sparkline image (`WeightCharts.summaryImage`).
    public func eventRunner(database: AppDatabase, sink: any NotificationSink, settings: Settings, calendar: Calendar)
        -> EventRunner
    {
        let charts = WeightCharts(database: database, calendar: calendar, drawer: chartDrawer)
        var runner = EventRunner(
            database: database, sink: sink, settings: settings, calendar: calendar,
            summaryImage: { [cacheDirectory = paths.cacheDirectory] summary in
                charts.summaryImage(summary, cacheDirectory: cacheDirectory)
            },
            statusBar: statusBar(settings))
        runner.summaryDelay = SyncFolder.summaryDelay(database)
        return runner
    }
}

/// The databases the runtimes of this process opened, for `Runtime.closeOpenDatabases()`.
private final class OpenedDatabases: @unchecked Sendable {
    static let process = OpenedDatabases()

    private let lock = NSLock()
    private var databases: [AppDatabase] = []
    /// What to run before the process closes its databases: a sync folder's last pass.
    private var closing: [@Sendable () -> Void] = []

    func append(_ database: AppDatabase) { lock.withLock { databases.append(database) } }

    func beforeClose(_ body: @escaping @Sendable () -> Void) { lock.withLock { closing.append(body) } }

    func runBeforeClose() {
        let bodies = lock.withLock {
            defer { closing = [] }
            return closing
        }
        for body in bodies { body() }
    }

    var all: [AppDatabase] { lock.withLock { databases } }
}
