import Foundation
import W8Text

/// Formats dates for JSON and people: ISO 8601 with the offset of the given time zone.
public struct DateFormatting: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The local wall-clock time, `HH:MM`.
    public func time(_ date: Date) -> LocalTime { calendar.localTime(of: date) }

    /// `2026-11-21T08:03:00+01:00`, or `2026-11-21T08:03:00.250+01:00` when the date has milliseconds: what an
    /// export writes, so that it reads back as the same stored moment.
    public func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1000)
        return stamp(Date(timeIntervalSince1970: seconds), fraction: fraction == 0 ? "" : "." + padded(fraction, 3))
    }

    /// `2026-11-21T08:03:00+01:00`; `+00:00` rather than `Z` so every date carries a numeric offset. As ICU does,
    /// the date is rounded to the millisecond and the seconds then truncated.
    public func iso8601(_ date: Date) -> String { stamp(Self.wholeSecond(date), fraction: "") }

    /// `Sat 21 Nov 2026 08:03`, for the terminal.
    public func short(_ date: Date) -> String {
        let c = fields(date)
        return day(c) + " " + padded(c.hour!, 2) + ":" + padded(c.minute!, 2)
    }

    /// `Sat 21 Nov 2026`, for a day such as a forecast.
    public func day(_ date: Date) -> String { day(fields(date)) }

    /// `Mon 23 Nov 2026`, for a local calendar day.
    public func day(_ calendarDay: CalendarDay) -> String { day(fields(calendarDay.noon(in: calendar))) }

    // These are built from calendar fields, as ICU's `en_US_POSIX` patterns `EEE d MMM yyyy HH:mm` and
    // `yyyy-MM-dd'T'HH:mm:ssxxx` write them (DateFormattingTests compares them with a DateFormatter): creating a
    // DateFormatter costs a millisecond, which `w8 add` paid for its one line and `w8 log` for every row.

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private func fields(_ date: Date) -> DateComponents {
        // Every field in the calendar's zone: no Set<Calendar.Component> to build, whose generic metadata would be
        // made at run time, with a scan of every protocol conformance of the binary.
        calendar.dateComponents(in: timeZone, from: Self.wholeSecond(date))
    }

    /// ICU's reading of a date: rounded to the millisecond, then to the second below.
    private static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: ((date.timeIntervalSince1970 * 1000).rounded() / 1000).rounded(.down))
    }

    /// The day in the user's language: the locale's (LC_TIME) names of the weekday and month, in the order of the
    /// catalog (`Mo. 23 Nov.` becomes `Mo., 23. Nov. 2026` in German); English under C.
    private func day(_ c: DateComponents) -> String {
        let weekday = Localization.weekdayName(c.weekday!) ?? Self.weekdays[c.weekday! - 1]
        let month = Localization.monthName(c.month!) ?? Self.months[c.month! - 1]
        let year = padded(c.year!, 4)
        // TRANSLATORS: a day on the terminal, "Mon 23 Nov 2026"; {weekday}, {month}: the locale's (LC_TIME) abbreviations.
        return tr("{weekday} {day} {month} {year}", ["weekday": weekday, "day": c.day!, "month": month, "year": year])
    }

    private func stamp(_ whole: Date, fraction: String) -> String {
        let c = fields(whole)
        let offset = timeZone.secondsFromGMT(for: whole)
        return padded(c.year!, 4) + "-" + padded(c.month!, 2) + "-" + padded(c.day!, 2) + "T" + padded(c.hour!, 2)
            + ":" + padded(c.minute!, 2) + ":" + padded(c.second!, 2) + fraction + (offset < 0 ? "-" : "+")
            + padded(abs(offset) / 3600, 2) + ":" + padded(abs(offset) % 3600 / 60, 2)
    }

    /// `n` with leading zeros to `width` digits.
    private func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
