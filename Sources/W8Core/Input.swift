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
        let trimmed = text.trimmingBlanks()
        guard let (number, suffix) = numberAndLetters(trimmed) else {
            if trimmed.hasPrefix("-"), numberAndLetters(trimmed.dropFirst()) != nil {
                throw W8CoreError.weightNotPositive(text)
            }
            throw W8CoreError.weightNotANumber(text)
        }
        let value = number
        guard value.isFinite else { throw W8CoreError.weightNotANumber(text) }
        var resolved = unit ?? defaultUnit
        if !suffix.isEmpty {
            let suffix = try WeightInput.unit(suffix)
            if let unit, unit != suffix { throw W8CoreError.conflictingUnits(text, unit) }
            resolved = suffix
        }
        guard value > 0 else { throw W8CoreError.weightNotPositive(text) }
        guard resolved.plausibleRange.contains(value) else { throw W8CoreError.weightOutOfRange(text, resolved) }
        return Weight(value, resolved)
    }

    /// `82,5 kg` as `82.5` and `kg`: a plain decimal number, blanks, then letters only.
    static func numberAndLetters(_ text: some StringProtocol) -> (Double, String)? {
        var scanner = TextScanner(text)
        guard let number = scanner.decimal() else { return nil }
        scanner.skipBlanks()
        guard scanner.restIsLetters else { return nil }
        return (number, scanner.rest)
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
        let trimmed = text.trimmingBlanks()
        var scanner = TextScanner(trimmed)
        let number = scanner.decimal()
        scanner.skipBlanks()
        _ = scanner.take("%")
        guard scanner.atEnd, let value = number, bodyFatRange.contains(value) else {
            throw W8CoreError.bodyFatInvalid(text)
        }
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
    /// The first year a weigh-in may have: an earlier one is a typo (1800 for 2018), not history.
    public static let earliestYear = 1900

    public static func parse(_ text: String, now: Date, calendar: Calendar) throws -> Date {
        let trimmed = text.trimmingBlanks()
        guard let fields = DateInput.fields(trimmed) else { throw W8CoreError.dateInvalid(text) }
        let date: Date
        if let instant = LocalInstant.instant(fields, zone: calendar.timeZone) {
            date = instant
        } else {
            date = try calendarInstant(fields, text: text, calendar: calendar)
        }
        // The year as written: `1900-01-01T00:30+01:00` is still 1900 where it was weighed.
        guard fields.year >= earliestYear else { throw W8CoreError.dateTooEarly(text) }
        var result = date
        result += fields.fraction
        guard result.timeIntervalSince(now) <= futureTolerance else { throw W8CoreError.dateInFuture(text) }
        return result
    }

    typealias Fields = (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offset: Int?
    )

    /// The moment of `fields` (whole seconds) as the calendar reads it: what `LocalInstant` gives without one.
    static func calendarInstant(_ fields: Fields, text: String, calendar: Calendar) throws -> Date {
        var parts = DateComponents()
        parts.year = fields.year
        parts.month = fields.month
        parts.day = fields.day
        parts.hour = fields.hour
        parts.minute = fields.minute
        parts.second = fields.second
        var calendar = calendar
        if let seconds = fields.offset {
            guard let zone = TimeZone(secondsFromGMT: seconds) else { throw W8CoreError.dateInvalid(text) }
            calendar.timeZone = zone
        }
        // Calendar would roll 2025-02-30 over into March: a date must come back as it went in.
        guard parts.hour! < 24, parts.minute! < 60, parts.second! < 60, let date = calendar.date(from: parts),
            calendar.dateComponents([.year, .month, .day], from: date)
                == DateComponents(year: parts.year, month: parts.month, day: parts.day)
        else { throw W8CoreError.dateInvalid(text) }
        return date
    }

    /// `YYYY-MM-DD[(T| )HH:MM[:SS[.fraction]][Z|±HH[:]MM]]`, read into numbers; nil when the text is not that.
    static func fields(_ text: String) -> Fields? {
        var s = TextScanner(text)
        guard let year = s.digits(min: 4, max: 4), s.take("-"), let month = s.digits(min: 2, max: 2), s.take("-"),
            let day = s.digits(min: 2, max: 2)
        else { return nil }
        var (hour, minute, second, fraction, offset) = (0, 0, 0, 0.0, Int?.none)
        if !s.atEnd {
            guard s.take(anyOf: "T ") != nil, let h = s.digits(min: 2, max: 2), s.take(":"),
                let m = s.digits(min: 2, max: 2)
            else { return nil }
            (hour, minute) = (h.value, m.value)
            if s.take(":") {
                guard let sec = s.digits(min: 2, max: 2) else { return nil }
                second = sec.value
                if s.take(".") {
                    guard let f = s.digits(min: 1, max: 9) else { return nil }
                    fraction = Double(f.value) / pow(10, Double(f.count))
                }
            }
            if !s.atEnd {
                guard let seconds = offsetSeconds(s.rest) else { return nil }
                offset = seconds
                s = TextScanner("")
            }
        }
        guard s.atEnd else { return nil }
        return (year.value, month.value, day.value, hour, minute, second, fraction, offset)
    }

    /// `Z`, `+01:00` or `-0530` as seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        var s = TextScanner(text)
        guard let sign = s.take(anyOf: "+-"), let hh = s.digits(min: 2, max: 2) else { return nil }
        _ = s.take(":")
        guard let mm = s.digits(min: 2, max: 2), s.atEnd, hh.value < 24, mm.value < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hh.value * 3600 + mm.value * 60)
    }
}

/// Valid date fields as the moment they name, by arithmetic: with an offset, or in a zone whose offset is the same
/// for two days either side (then no other reading of the wall time exists). Nil otherwise: near a transition, for
/// an invalid date, a year before 1900, an offset Foundation may refuse; the calendar decides those. An import
/// reads a date a row, and the calendar's two conversions were most of reading one (`DateInputTests` compares the
/// two in zones with every kind of transition).
enum LocalInstant {
    /// A stretch of time over which `zone` keeps `offset`, from `start` (seconds since 1970) up to `end`.
    private struct Span {
        var zone: String
        var start: Double
        var end: Double
        var offset: Int
    }

    /// The span of the last zone read, shared by the threads that read dates.
    private final class RecentSpan: @unchecked Sendable {
        private let lock = NSLock()
        private var span: Span?

        var value: Span? {
            get { lock.withLock { span } }
            set { lock.withLock { span = newValue } }
        }
    }

    private static let recent = RecentSpan()
    private static let margin = 2.0 * 86400

    static func instant(_ f: DateInput.Fields, zone: TimeZone) -> Date? {
        guard f.year >= DateInput.earliestYear, (1...12).contains(f.month), f.day >= 1,
            f.day <= daysIn(month: f.month, year: f.year), f.hour < 24, f.minute < 60, f.second < 60
        else { return nil }
        let wall =
            Double(daysSince1970(year: f.year, month: f.month, day: f.day) * 86400)
            + Double(f.hour * 3600 + f.minute * 60 + f.second)
        if let offset = f.offset {
            return abs(offset) <= 14 * 3600 ? Date(timeIntervalSince1970: wall - Double(offset)) : nil
        }
        let id = zone.identifier
        if let span = recent.value, span.zone == id, let moment = inside(span, wall) { return moment }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
        let start = wall - Double(offset) - 3 * 86400
        guard zone.secondsFromGMT(for: Date(timeIntervalSince1970: start)) == offset else { return nil }
        let end =
            zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: start))?
            .timeIntervalSince1970 ?? .infinity
        let span = Span(zone: id, start: start, end: end, offset: offset)
        recent.value = span
        return inside(span, wall)
    }

    private static func inside(_ span: Span, _ wall: Double) -> Date? {
        let moment = wall - Double(span.offset)
        return moment >= span.start + margin && moment < span.end - margin
            ? Date(timeIntervalSince1970: moment) : nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
