import Foundation

/// Parses and validates what a person types for a weight, a body-fat percentage or a note.
public enum WeightInput {
    public static let maxNoteLength = 500
    public static let bodyFatRange: ClosedRange<Double> = 2...75

    static func rangeText(_ unit: WeightUnit) -> String {
        let r = unit.plausibleRange
        return "\(Int(r.lowerBound))–\(Int(r.upperBound)) \(unit.rawValue)"
    }

    /// Parses `182.4`, `82,5`, `82.5kg` or `182 lb`; `unit` is the --unit option, `defaultUnit` the preferred one.
    ///
    /// Only plain decimal numbers are accepted: no sign, exponent, hex, `nan` or `inf`.
    public static func weight(_ text: String, unit: WeightUnit?, defaultUnit: WeightUnit) throws -> Weight {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let match = trimmed.wholeMatch(of: #/([0-9]+(?:[.,][0-9]+)?)\s*([A-Za-z]*)/#) else {
            if trimmed.hasPrefix("-"), trimmed.dropFirst().wholeMatch(of: #/[0-9]+(?:[.,][0-9]+)?\s*[A-Za-z]*/#) != nil {
                throw W8CoreError.weightNotPositive(text)
            }
            throw W8CoreError.weightNotANumber(text)
        }
        guard let value = Double(match.1.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
            throw W8CoreError.weightNotANumber(text)
        }
        var resolved = unit ?? defaultUnit
        if !match.2.isEmpty {
            let suffix = try WeightInput.unit(String(match.2))
            if let unit, unit != suffix { throw W8CoreError.conflictingUnits(text, unit) }
            resolved = suffix
        }
        guard value > 0 else { throw W8CoreError.weightNotPositive(text) }
        guard resolved.plausibleRange.contains(value) else { throw W8CoreError.weightOutOfRange(text, resolved) }
        return Weight(value, resolved)
    }

    /// Parses a unit name: `lb`, `lbs`, `kg`, in any case.
    public static func unit(_ text: String) throws -> WeightUnit {
        switch text.lowercased() {
        case "lb", "lbs": .lb
        case "kg", "kgs": .kg
        default: throw W8CoreError.unknownUnit(text)
        }
    }

    /// Parses a body-fat percentage such as `22.5`, `22,5` or `22.5%`, from 2 to 75.
    public static func bodyFat(_ text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let match = trimmed.wholeMatch(of: #/([0-9]+(?:[.,][0-9]+)?)\s*%?/#),
            let value = Double(match.1.replacingOccurrences(of: ",", with: ".")),
            bodyFatRange.contains(value)
        else { throw W8CoreError.bodyFatInvalid(text) }
        return value
    }

    /// Checks a note's length; an empty note is no note.
    public static func note(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.count <= maxNoteLength else { throw W8CoreError.noteTooLong(text.count) }
        return text
    }

    /// A goal is a weight in the same plausible range.
    public static func goal(_ text: String, unit: WeightUnit?, defaultUnit: WeightUnit) throws -> Weight {
        do {
            return try weight(text, unit: unit, defaultUnit: defaultUnit)
        } catch W8CoreError.weightOutOfRange(let text, let unit) {
            throw W8CoreError.goalOutOfRange(text, unit)
        }
    }
}

/// Parses the dates a person types: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` in local time, or ISO 8601 with an offset.
public enum DateInput {
    /// How far in the future a date may be, to allow for clocks that disagree a little.
    public static let futureTolerance: TimeInterval = 5 * 60

    public static func parse(_ text: String, now: Date, calendar: Calendar) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let pattern = #/(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?/#
        guard let m = trimmed.wholeMatch(of: pattern) else { throw W8CoreError.dateInvalid(text) }
        var parts = DateComponents()
        parts.year = Int(m.1)
        parts.month = Int(m.2)
        parts.day = Int(m.3)
        parts.hour = m.4.flatMap { Int($0) } ?? 0
        parts.minute = m.5.flatMap { Int($0) } ?? 0
        parts.second = m.6.flatMap { Int($0) } ?? 0
        var calendar = calendar
        if let offset = m.8 {
            guard let seconds = offsetSeconds(String(offset)), let zone = TimeZone(secondsFromGMT: seconds) else {
                throw W8CoreError.dateInvalid(text)
            }
            calendar.timeZone = zone
        }
        // Calendar would roll 2025-02-30 over into March: a date must come back as it went in.
        guard parts.hour! < 24, parts.minute! < 60, parts.second! < 60, let date = calendar.date(from: parts),
            calendar.dateComponents([.year, .month, .day], from: date)
                == DateComponents(year: parts.year, month: parts.month, day: parts.day)
        else { throw W8CoreError.dateInvalid(text) }
        var result = date
        if let fraction = m.7 { result += Double("0." + fraction) ?? 0 }
        guard result.timeIntervalSince(now) <= futureTolerance else { throw W8CoreError.dateInFuture(text) }
        return result
    }

    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        let sign = text.hasPrefix("-") ? -1 : 1
        let digits = text.dropFirst().replacingOccurrences(of: ":", with: "")
        guard digits.count == 4, let hh = Int(digits.prefix(2)), let mm = Int(digits.suffix(2)), hh < 24, mm < 60 else {
            return nil
        }
        return sign * (hh * 3600 + mm * 60)
    }
}

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
