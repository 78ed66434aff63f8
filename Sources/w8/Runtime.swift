import Foundation
import W8App
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
            deadline: 2.0, dataDirectories: LibnotifyNotificationSink.dataDirectories(environment: environment))
    }

    func tracker(settings: Settings) throws -> Tracker {
        Tracker(
            database: try database(), sink: sink(),
            context: EvaluationContext(now: now, calendar: calendar, settings: settings))
    }

    func eventRunner() throws -> EventRunner {
        EventRunner(database: try database(), sink: sink(), settings: try settings(), calendar: calendar)
    }
}
