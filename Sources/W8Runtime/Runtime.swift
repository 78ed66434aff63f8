import Foundation
import W8App
import W8Chart
import W8Core
import W8Libnotify
import W8Scheduler
import W8Store

/// Everything a command needs from the outside world, built once: the composition root.
///
/// This is the only place that reads the clock, the time zone and the environment.
public struct Runtime: Sendable {
    public let environment: [String: String]
    public let paths: Paths
    public let now: Date
    public let calendar: Calendar
    /// The databases `database()` opened, for `finish(status:)` to close.
    private let opened = OpenedDatabases()

    /// - Parameter prefetchingDatabase: start opening the database on a second thread (`DatabasePrefetch`), for a
    ///   command that will change it; `database()` then waits for it, and `finish` or `abandonPrefetch()` if it
    ///   is not used.
    public init(prefetchingDatabase: Bool = false) {
        if prefetchingDatabase { opened.hold(DatabasePrefetch.start()) }
        environment = ProcessInfo.processInfo.environment
        paths = Paths(environment: environment)
        now = Runtime.clock()
        calendar = Runtime.localCalendar()
        if let warning = LocalTimeZone.resolve(environment["TZ"], now: now).warning { warn(warning) }
    }

    /// The installer of the systemd user units running `executable`, in `$XDG_CONFIG_HOME/systemd/user`.
    public func systemdInstaller(executable: String) -> SystemdInstaller {
        var installer = SystemdInstaller(
            directory: paths.systemdUserDirectory, executable: executable,
            systemctl: Systemctl(environment: environment))
        installer.searchPath = paths.systemdUnitPath
        return installer
    }

    /// The doctor, asking libnotify about the notification server.
    public func doctor() -> Doctor {
        let serviceDirectories = serviceDirectories
        let config = config
        var doctor = Doctor(
            paths: paths, sessionBus: environment["DBUS_SESSION_BUS_ADDRESS"],
            checkServer: {
                do throws(LibnotifyError) {
                    let info = try LibnotifyNotificationSink.serverInfo(
                        deadline: 2.0, serviceDirectories: serviceDirectories)
                    return .reachable(
                        name: info.name, vendor: info.vendor, version: info.version, specVersion: info.specVersion,
                        capabilities: info.capabilities)
                } catch {
                    return Runtime.serverStatus(error)
                }
            },
            loadSettings: { try config.load() })
        doctor.systemctl = Systemctl(environment: environment)
        return doctor
    }

    /// How the doctor names a libnotify failure.
    public static func serverStatus(_ error: LibnotifyError) -> ServerStatus {
        var name: String?
        var services: [(name: String, file: String)] = []
        let status: String
        switch error {
        case .noSessionBus: status = "no_session_bus"
        case .noNotificationServer: status = "not_installed"
        case .serverFailedToStart(let failure):
            status = "failed_to_start"
            name = failure.serverName
            services = failure.services.map { ($0.name, $0.file) }
        case .serverError: status = "server_error"
        case .timedOut: status = "timed_out"
        case .libraryUnavailable: status = "libnotify_unavailable"
        }
        return .unreachable(status: status, name: name, message: error.localizedDescription, services: services)
    }

    /// The importer; a dry run with no database yet creates none: it runs against one in memory.
    public func importer(settings: Settings, dryRun: Bool) throws -> Importer {
        let database =
            dryRun && !FileManager.default.fileExists(atPath: paths.database)
            ? try AppDatabase.inMemory() : try database()
        return Importer(tracker: tracker(settings: settings, database: database), config: config)
    }

    /// The status-bar glance now: the latest weight, the week's direction and the progress.
    public func widgetEntry(_ settings: Settings) throws -> WidgetEntry {
        let database = try database()
        let (entries, before) = try database.week(from: now.addingTimeInterval(-WeeklySummary.window), to: now)
        return WidgetEntry(
            now: now, snapshot: try database.snapshot(unit: settings.unit),
            week: WeeklySummary(unit: settings.unit, now: now, entries: entries, before: before, progress: nil),
            intake: try database.intakeDay(containing: now, goals: settings.intake, calendar: calendar))
    }

    /// A runtime and the settings it reads from config.toml: what nearly every command starts with.
    public static func loaded() throws -> (Runtime, Settings) {
        let runtime = Runtime()
        return (runtime, try runtime.settings())
    }

    /// The exporter. A damaged database is read as far as SQLite can (`AppDatabase.salvaging(at:)`), and
    /// `warn` says so: the export is then the way to save what is left.
    public func exporter(_ settings: Settings, version: String, warn: (String) -> Void = { _ in }) throws -> Exporter {
        let database: AppDatabase
        do {
            database = try AppDatabase.open(at: paths.database, verify: true)
        } catch StoreError.damaged(let path, let detail) {
            database = try AppDatabase.salvaging(at: path)
            warn("database \(path) is damaged (\(detail)); exporting what can still be read")
        }
        return Exporter(
            database: database, settings: settings, dates: dates, calendar: calendar, now: now, w8Version: version)
    }

    /// `w8 notify-test`: posts the sample notification of `category`; a failure is exit 69 with its cause.
    public func notifyTest(_ category: String) throws -> UInt32 {
        do {
            return try sink().post(.sample(category))
        } catch {
            throw AppError.unavailable("notification not shown: \(error.localizedDescription)")
        }
    }

    /// The wall clock.
    public static let clock: @Sendable () -> Date = { Date() }

    /// The person's calendar: Gregorian, in the system's time zone, `TZ` read as glibc reads it (`LocalTimeZone`).
    /// `rereadZone` reads `/etc/localtime` again, for the daemon after the zone changed; a `TZ` in the environment
    /// pins the zone and is never re-read.
    public static func localCalendar(rereadZone: Bool = false) -> Calendar {
        if rereadZone, ProcessInfo.processInfo.environment["TZ"] == nil { NSTimeZone.resetSystemTimeZone() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = LocalTimeZone.resolve(ProcessInfo.processInfo.environment["TZ"], now: clock()).zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        // en_US_POSIX's own week, stated: otherwise the calendar asks ICU's locale data for it on its first date
        // arithmetic, a third of a millisecond of every command.
        calendar.firstWeekday = 1
        calendar.minimumDaysInFirstWeek = 1
        return calendar
    }

    public var config: ConfigFile { ConfigFile(path: paths.configFile) }

    public func settings() throws -> Settings { try config.load() }

    public func database() throws -> AppDatabase {
        if let prefetched = opened.takePrefetch()?.database(at: paths.database) {
            opened.append(prefetched)
            return prefetched
        }
        let database = try AppDatabase.open(at: paths.database)
        opened.append(database)
        return database
    }

    /// Waits for the database the runtime started opening and closes it unused, as it found it: for a command
    /// that ends before it needs it, refused for its settings or its input.
    public func abandonPrefetch() {
        try? opened.takePrefetch()?.database(at: paths.database)?.close(checkpoint: false)
    }

    /// Ends a changing command's process: closes the databases this runtime opened and exits with `status`, before
    /// the deinitializers a return would run. GRDB's queue would unregister its observers (a conformance scan of
    /// the whole binary) and dispose of its dispatch queue, which starts two threads just before the process ends.
    ///
    /// The close leaves the change, committed and fsynced, in the WAL rather than checkpointing it into the
    /// database file, as every close does while the daemon has the database open: a checkpoint and the new WAL
    /// after it cost `w8 add` four fsyncs more than its commit. The next command that reads, or SQLite's own
    /// checkpoint, moves it into the file.
    public func finish(status: Int32 = 0) -> Never {
        abandonPrefetch()
        for database in opened.all { try? database.close(checkpoint: false) }
        if status == 0 { flushStandardOutput() }
        exit(status)
    }

    public var dates: DateFormatting { DateFormatting(timeZone: calendar.timeZone) }

    /// Formats for the terminal and JSON, in the preferred unit and the local time zone.
    public func presenter(_ settings: Settings) -> Presenter { Presenter(unit: settings.unit, dates: dates) }

    public func parseDate(_ text: String?) throws -> Date {
        guard let text else { return now }
        return try DateInput.parse(text, now: now, calendar: calendar)
    }

    /// libnotify, with a deadline well inside the 3 s that `w8 add` may take against a hung server.
    public func sink() -> any NotificationSink {
        LibnotifyNotificationSink(
            deadline: 2.0, dataDirectories: dataDirectories, serviceDirectories: serviceDirectories)
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
        Tracker(
            database: database, sink: sink(),
            context: EvaluationContext(now: now, calendar: calendar, settings: settings),
            statusBar: statusBar(settings))
    }

    public func intakeLog(_ settings: Settings) throws -> IntakeLog {
        IntakeLog(
            database: try database(), sink: sink(), settings: settings, now: now, calendar: calendar,
            statusBar: statusBar(settings))
    }

    public func eventRunner() throws -> EventRunner { try eventRunner(settings: try settings()) }

    public func eventRunner(settings: Settings) throws -> EventRunner {
        eventRunner(database: try database(), sink: sink(), settings: settings, calendar: calendar)
    }

    /// The runner of scheduled events, its summary carrying the sparkline image.
    public func eventRunner(database: AppDatabase, sink: any NotificationSink, settings: Settings, calendar: Calendar)
        -> EventRunner
    {
        EventRunner(
            database: database, sink: sink, settings: settings, calendar: calendar,
            summaryImage: { [paths] summary in
                Runtime.summaryChart(summary, database: database, paths: paths, calendar: calendar)
            },
            statusBar: statusBar(settings))
    }

    /// The trend's days of the last `days` days; the trend itself is computed over the whole last year.
    public func trendPoints(unit: WeightUnit, database: AppDatabase, days: Int) throws -> [TrendPoint] {
        let trend = try database.trend(unit: unit, goal: nil, now: now, calendar: calendar)
        let start = now.addingTimeInterval(-Double(days) * 86400)
        return trend.points.filter { $0.date >= start }
    }

    /// The summary's image, a 128 px sparkline of the last 30 days, written to
    /// `$XDG_CACHE_HOME/w8trackr/summary-chart.png` for the notification server to read (servers draw it at
    /// 48–128 px, so it has no text); nil without weigh-ins or when it cannot be written (the summary goes out
    /// without it). The full chart is `w8 chart --output`.
    public static func summaryChart(
        _ summary: WeeklySummary, database: AppDatabase, paths: Paths, calendar: Calendar
    ) -> String? {
        let start = summary.weekEnd.addingTimeInterval(-30 * 86400)
        guard let points = summary.trendAnalysis?.points.filter({ $0.date >= start }), !points.isEmpty,
            let weighIns = try? weighIns(
                unit: summary.unit, database: database, since: points.first?.date,
                to: summary.weekEnd)
        else {
            return nil
        }
        let path = paths.cacheDirectory + "/summary-chart.png"
        do {
            try FileManager.default.createDirectory(
                atPath: paths.cacheDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try ChartImage(
                points: points, weighIns: weighIns, goal: summary.progress?.goal, unit: summary.unit,
                timeZone: calendar.timeZone,
                width: 128, height: 128, style: .sparkline
            ).write(to: path, format: .png)
            return path
        } catch {
            return nil
        }
    }
}

/// The databases a runtime opened, shared by its copies.
private final class OpenedDatabases: @unchecked Sendable {
    private let lock = NSLock()
    private var databases: [AppDatabase] = []
    private var pending: DatabasePrefetch?

    func append(_ database: AppDatabase) { lock.withLock { databases.append(database) } }

    /// Keeps the database being opened on a second thread until `takePrefetch()` hands it over.
    func hold(_ prefetch: DatabasePrefetch?) { lock.withLock { pending = prefetch } }

    func takePrefetch() -> DatabasePrefetch? {
        lock.withLock {
            defer { pending = nil }
            return pending
        }
    }

    var all: [AppDatabase] { lock.withLock { databases } }
}
