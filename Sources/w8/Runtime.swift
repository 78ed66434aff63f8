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
struct Runtime {
    let environment: [String: String]
    let paths: Paths
    let now: Date
    let calendar: Calendar

    init() {
        environment = ProcessInfo.processInfo.environment
        paths = Paths(environment: environment)
        now = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        calendar.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = calendar
    }

    var config: ConfigFile { ConfigFile(path: paths.configFile) }

    func settings() throws -> Settings { try config.load() }

    func database() throws -> AppDatabase { try AppDatabase.open(at: paths.database) }

    var dates: DateFormatting { DateFormatting(timeZone: calendar.timeZone) }

    func parseDate(_ text: String?) throws -> Date {
        guard let text else { return now }
        return try DateInput.parse(text, now: now, calendar: calendar)
    }

    /// libnotify, with a deadline well inside the 3 s that `w8 add` may take against a hung server.
    func sink() -> any NotificationSink {
        LibnotifyNotificationSink(
            deadline: 2.0, dataDirectories: dataDirectories, serviceDirectories: serviceDirectories)
    }

    /// `$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`: where the icon and the session's D-Bus services are installed.
    var dataDirectories: [String] { LibnotifyNotificationSink.dataDirectories(environment: environment) }

    /// Where the session bus reads the notification servers it may start.
    var serviceDirectories: [String] {
        NotificationService.sessionServiceDirectories(environment: environment, dataDirectories: dataDirectories)
    }

    func tracker(settings: Settings) throws -> Tracker {
        Tracker(
            database: try database(), sink: sink(),
            context: EvaluationContext(now: now, calendar: calendar, settings: settings))
    }

    func eventRunner() throws -> EventRunner {
        EventRunner(
            database: try database(), sink: sink(), settings: try settings(), calendar: calendar,
            summaryImage: { [paths, calendar] summary in Runtime.summaryChart(summary, paths: paths, calendar: calendar) })
    }

    /// The trend's days of the last `days` days; the trend itself is computed over the whole last year.
    func trendPoints(unit: WeightUnit, database: AppDatabase, days: Int) throws -> [TrendPoint] {
        let trend = try database.trend(unit: unit, goal: nil, now: now, calendar: calendar)
        let start = now.addingTimeInterval(-Double(days) * 86400)
        return trend.points.filter { $0.date >= start }
    }

    /// The summary's chart, the last 30 days, written to `$XDG_CACHE_HOME/w8trackr/summary-chart.png` for the
    /// notification server to read; nil without weigh-ins or when it cannot be written (the summary goes out
    /// without it).
    static func summaryChart(_ summary: WeeklySummary, paths: Paths, calendar: Calendar) -> String? {
        let start = summary.weekEnd.addingTimeInterval(-30 * 86400)
        guard let points = summary.trendAnalysis?.points.filter({ $0.date >= start }), !points.isEmpty else {
            return nil
        }
        let path = paths.cacheDirectory + "/summary-chart.png"
        do {
            try FileManager.default.createDirectory(
                atPath: paths.cacheDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try ChartImage(
                points: points, goal: summary.progress?.goal, unit: summary.unit, timeZone: calendar.timeZone,
                width: 400, height: 200
            ).write(to: path, format: .png)
            return path
        } catch {
            return nil
        }
    }
}
