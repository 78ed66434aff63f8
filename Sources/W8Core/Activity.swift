import Foundation

/// A local calendar day, `2026-11-23`: the day a day's steps belong to, whatever the zone it is read in later.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day as given; nil when it is no date of the Gregorian calendar (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        guard (1...9999).contains(year), let noon = utc.date(from: DateComponents(year: year, month: month, day: day)),
            utc.dateComponents([.year, .month, .day], from: noon) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local day of `date` in `calendar`'s time zone.
    public init(_ date: Date, calendar: Calendar) {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        year = c.year!
        month = c.month!
        day = c.day!
    }

    /// `YYYY-MM-DD`, as the store keeps it; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `2026-11-23`.
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// Noon of the day in `calendar`: a moment inside it whatever the clocks do that night.
    public func noon(in calendar: Calendar) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int, calendar: Calendar) -> CalendarDay {
        CalendarDay(calendar.date(byAdding: .day, value: count, to: noon(in: calendar))!, calendar: calendar)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Where a day's steps came from: typed by hand (`manual`) or an importer's name (`apple-health`, `gadgetbridge`).
public struct ActivitySource: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `w8 steps`: the person's own count, which wins over every import.
    public static let manual = ActivitySource(rawValue: "manual")
}

/// One day's steps and walking/running distance from one source (iShnak's steps row, read from HealthKit there).
public struct ActivityDay: Sendable, Equatable {
    public var day: CalendarDay
    public var steps: Int
    /// Whole metres walked or run; 0 when the source gave none (`w8 steps` records none).
    public var distance: Int
    public var source: ActivitySource

    public init(day: CalendarDay, steps: Int, distance: Int = 0, source: ActivitySource) {
        self.day = day
        self.steps = steps
        self.distance = distance
        self.source = source
    }

    /// The most steps one day may have.
    public static let maxSteps = 200_000
    /// The highest `activity.step_goal`.
    public static let maxStepGoal = 100_000

    /// The day's total as every view shows it, from that day's rows, one per source. Sources are never added:
    /// each importer has already counted every stretch of time once, from one device, so two rows are two
    /// readings of the same walk. The manual row wins when there is one; otherwise the imported source first in
    /// `precedence`, then by name (a fixed choice, not the busiest). Nil when `rows` is empty.
    public static func shown(_ rows: [ActivityDay], precedence: [ActivitySource] = []) -> ActivityDay? {
        let order = [ActivitySource.manual] + precedence
        func rank(_ row: ActivityDay) -> (Int, String) {
            (order.firstIndex(of: row.source) ?? order.count, row.source.rawValue)
        }
        return rows.min { rank($0) < rank($1) }
    }

    /// The average steps a day over `days` days, the days without a row counting 0; nil when `shown` is empty.
    public static func dailyAverage(_ shown: [ActivityDay], over days: Int) -> Int? {
        guard !shown.isEmpty, days > 0 else { return nil }
        return Int((Double(shown.reduce(0) { $0 + $1.steps }) / Double(days)).rounded())
    }

    /// One shown total per day of `rows`, newest first.
    public static func shownDays(_ rows: [ActivityDay], precedence: [ActivitySource] = []) -> [ActivityDay] {
        Dictionary(grouping: rows, by: \.day).values.compactMap { shown($0, precedence: precedence) }
            .sorted { $0.day > $1.day }
    }
}

/// Reads what people type for `w8 steps`, and refuses anything else with the value named.
public enum ActivityInput {
    /// A day's steps: a whole number from 0 to 200,000. No separators: `1,5` would be 15 steps or a typo.
    public static func steps(_ text: String) throws -> Int {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
            (0...ActivityDay.maxSteps).contains(value)
        else { throw W8CoreError.stepsInvalid(text) }
        return value
    }
}
