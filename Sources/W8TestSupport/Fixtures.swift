import Foundation
import W8Core
import W8Store

/// Calendars pinned to a time zone, including ones whose clocks change for daylight saving.
public enum PinnedCalendar {
    public static func gregorian(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    public static let utc = gregorian("UTC")
    public static let berlin = gregorian("Europe/Berlin")
    public static let newYork = gregorian("America/New_York")
}

extension Calendar {
    /// A local date and time in this calendar, for tests: `date(2026, 3, 29, 2, 30)`.
    public func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 12, _ min: Int = 0, _ s: Int = 0) -> Date {
        date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min, second: s))!
    }
}

/// A real SQLite database in a temporary directory.
public struct TemporaryDatabase: Sendable {
    public let directory: TemporaryDirectory
    public let database: AppDatabase

    public init() throws {
        directory = try TemporaryDirectory()
        database = try AppDatabase.open(at: directory.appending("data/w8trackr/w8trackr.sqlite"))
    }
}
