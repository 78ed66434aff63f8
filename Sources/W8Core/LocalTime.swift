import Foundation

/// A time of day on the wall clock, `HH:MM`, as the config file writes it.
public struct LocalTime: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int = 0) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses `8:00`, `08:00` or `18:30`.
    public init?(_ text: String) {
        // `[0-9]{1,2}:[0-9]{2}`, by hand: a Regex literal is compiled when first used, in every command.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }), let h = Int(parts[0]),
            let min = Int(parts[1]), (0...23).contains(h), (0...59).contains(min)
        else { return nil }
        self.init(hour: h, minute: min)
    }

    public var minutes: Int { hour * 60 + minute }

    public var description: String { String(format: "%02d:%02d", hour, minute) }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }
}

/// Hours in which reminders stay silent (default 22:00–07:00). Milestones from the person's own entries are not
/// affected.
public struct QuietHours: Sendable, Equatable {
    public var enabled: Bool
    public var start: LocalTime
    public var end: LocalTime

    public init(enabled: Bool = true, start: LocalTime = LocalTime(hour: 22), end: LocalTime = LocalTime(hour: 7)) {
        self.enabled = enabled
        self.start = start
        self.end = end
    }

    /// Whether a wall-clock time falls inside the quiet hours; they may wrap past midnight.
    public func contains(_ time: LocalTime) -> Bool {
        guard enabled, start != end else { return false }
        return start < end ? (start <= time && time < end) : (time >= start || time < end)
    }
}

extension Calendar {
    /// The instant a wall-clock time happens on a given local day, the way a person expects:
    /// a time that does not exist (the spring-forward gap) happens at the first valid time after it, and a time
    /// that happens twice (the fall-back hour) happens at its first occurrence.
    public func instant(year: Int, month: Int, day: Int, at time: LocalTime) -> Date? {
        let wanted = DateComponents(year: year, month: month, day: day, hour: time.hour, minute: time.minute)
        guard let guess = date(from: wanted) else { return nil }
        let got = dateComponents([.year, .month, .day, .hour, .minute], from: guess)
        if got == wanted {
            // In a repeated hour, an hour earlier may show the same wall-clock time: take the first.
            let earlier = guess.addingTimeInterval(-3600)
            return dateComponents([.year, .month, .day, .hour, .minute], from: earlier) == wanted ? earlier : guess
        }
        // A gap: the first valid time after it is the moment the clocks jumped.
        let probe = startOfDay(for: guess).addingTimeInterval(-1)
        if let jump = timeZone.nextDaylightSavingTimeTransition(after: probe),
            dateComponents([.year, .month, .day], from: jump) == DateComponents(year: year, month: month, day: day)
        {
            return jump
        }
        return guess
    }

    /// The wall-clock time of an instant in this calendar.
    public func localTime(of date: Date) -> LocalTime {
        let c = dateComponents([.hour, .minute], from: date)
        return LocalTime(hour: c.hour ?? 0, minute: c.minute ?? 0)
    }
}
