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
        // The year as written: `1900-01-01T00:30+01:00` is still 1900 where it was weighed.
        guard fields.year >= earliestYear else { throw W8CoreError.dateTooEarly(text) }
        var result = date
        result += fields.fraction
        guard result.timeIntervalSince(now) <= futureTolerance else { throw W8CoreError.dateInFuture(text) }
        return result
    }

    /// `YYYY-MM-DD[(T| )HH:MM[:SS[.fraction]][Z|±HH[:]MM]]`, read into numbers; nil when the text is not that.
    static func fields(_ text: String) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offset: Int?
    )? {
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
