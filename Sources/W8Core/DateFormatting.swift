import Foundation

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

    /// `2026-11-21T08:03:00+01:00`, or `2026-11-21T08:03:00.250+01:00` when the date has milliseconds: what an
    /// export writes, so that it reads back as the same stored moment. Built from calendar fields rather than a
    /// DateFormatter, which costs too much per row of a long export.
    public func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let whole = Date(timeIntervalSince1970: seconds)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(c.year!)-\(two(c.month!))-\(two(c.day!))T\(two(c.hour!)):\(two(c.minute!)):\(two(c.second!))"
        let fraction = Int(milliseconds - seconds * 1000)
        if fraction != 0 { text += "." + String(String(fraction + 1000).dropFirst()) }
        let offset = timeZone.secondsFromGMT(for: whole)
        return text + (offset < 0 ? "-" : "+") + two(abs(offset) / 3600) + ":" + two(abs(offset) % 3600 / 60)
    }

    /// `2026-11-21T08:03:00+01:00`; `+00:00` rather than `Z` so every date carries a numeric offset.
    public func iso8601(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date)
    }

    /// `Sat 21 Nov 2026 08:03`, for the terminal.
    public func short(_ date: Date) -> String { format(date, "EEE d MMM yyyy HH:mm") }

    /// `Sat 21 Nov 2026`, for a day such as a forecast.
    public func day(_ date: Date) -> String { format(date, "EEE d MMM yyyy") }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
