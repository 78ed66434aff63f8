import Foundation
import W8Core

/// A date form given with `--date-format`: `YYYY`, `MM` and `DD` with the separators between them, such as
/// `MM/DD/YYYY`; a time `HH:MM[:SS]` may follow the date.
public struct DatePattern: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case year, month, day
        case literal(Character)
    }

    public let text: String
    let parts: [Part]

    public init(_ text: String) throws {
        self.text = text
        var parts: [Part] = []
        var rest = Substring(text)
        while let first = rest.first {
            if rest.hasPrefix("YYYY") {
                parts.append(.year)
                rest = rest.dropFirst(4)
            } else if rest.hasPrefix("MM") {
                parts.append(.month)
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("DD") {
                parts.append(.day)
                rest = rest.dropFirst(2)
            } else if first.isLetter || first.isNumber {
                throw W8FormatsError.datePatternInvalid(text)
            } else {
                parts.append(.literal(first))
                rest = rest.dropFirst()
            }
        }
        guard parts.count { $0 == .year } == 1, parts.count { $0 == .month } == 1, parts.count { $0 == .day } == 1
        else { throw W8FormatsError.datePatternInvalid(text) }
        self.parts = parts
    }

    /// The year, month and day of `text` and what follows them, or nil when the text does not fit.
    func match(_ text: Substring) -> (year: Int, month: Int, day: Int, rest: Substring)? {
        var rest = text
        var values: [Int] = [0, 0, 0]
        for part in parts {
            switch part {
            case .literal(let c):
                guard rest.first == c else { return nil }
                rest = rest.dropFirst()
            case .year, .month, .day:
                let maxDigits = part == .year ? 4 : 2
                let digits = rest.prefix(maxDigits).prefix { $0.isASCII && $0.isNumber }
                guard part == .year ? digits.count == 4 : !digits.isEmpty, let value = Int(digits) else { return nil }
                values[part == .year ? 0 : part == .month ? 1 : 2] = value
                rest = rest.dropFirst(digits.count)
            }
        }
        return (values[0], values[1], values[2], rest)
    }
}

/// The dates import files hold: ISO 8601 (as `w8 add --date` takes them), `26.03.2024`, and with a pattern
/// any order of year, month and day; each may carry a time `HH:MM[:SS]`.
public enum ImportDates {
    static let dotted = try! DatePattern("DD.MM.YYYY")

    public static func parse(_ text: String, pattern: DatePattern?, options: ImportOptions) throws -> Date {
        let trimmed = text.trimmingBlanks()
        if let pattern {
            if let date = try parse(trimmed, pattern: pattern, original: text, options: options) { return date }
            throw W8FormatsError.dateNotInPattern(text, pattern.text)
        }
        // An ISO date (`2024-03-26…`, four digits and a dash) cannot be a dotted one: skip trying.
        let iso = trimmed.utf8.count > 4 && trimmed.utf8.dropFirst(4).first == UInt8(ascii: "-")
        if !iso, let date = try parse(trimmed, pattern: dotted, original: text, options: options) { return date }
        if isSlashed(trimmed) { throw W8FormatsError.dateAmbiguous(text) }
        return try DateInput.parse(trimmed, now: options.now, calendar: options.calendar)
    }

    /// `03/26/2024` or `3/4/24`: a date whose order cannot be told without `--date-format`.
    static func isSlashed(_ text: String) -> Bool {
        var s = TextScanner(text)
        return s.digits(min: 1, max: 2) != nil && s.take("/") && s.digits(min: 1, max: 2) != nil && s.take("/")
            && s.digits(min: 2, max: 4) != nil
    }

    /// `7:05`, `07:05:30` or `07:05:30.250`.
    static func isTime(_ text: String) -> Bool {
        var s = TextScanner(text)
        guard s.digits(min: 1, max: 2) != nil, s.take(":"), s.digits(min: 2, max: 2) != nil else { return false }
        if s.take(":") {
            guard s.digits(min: 2, max: 2) != nil else { return false }
            if s.take("."), s.digits(min: 1, max: 9) == nil { return false }
        }
        return s.atEnd
    }

    /// nil when the text does not fit the pattern; an error when it fits but is no date.
    static func parse(_ text: String, pattern: DatePattern, original: String, options: ImportOptions) throws -> Date? {
        guard let m = pattern.match(Substring(text)) else { return nil }
        let time = m.rest.trimmingBlanks()
        guard time.isEmpty || isTime(time) else { throw W8CoreError.dateInvalid(original) }
        var hourMinute = time
        if let colon = time.firstIndex(of: ":"), time.distance(from: time.startIndex, to: colon) == 1 {
            hourMinute = "0" + time
        }
        let iso = String(format: "%04d-%02d-%02d", m.year, m.month, m.day) + (time.isEmpty ? "" : "T" + hourMinute)
        do {
            return try DateInput.parse(iso, now: options.now, calendar: options.calendar)
        } catch W8CoreError.dateInFuture {
            throw W8CoreError.dateInFuture(original)
        } catch W8CoreError.dateTooEarly {
            throw W8CoreError.dateTooEarly(original)
        } catch {
            throw W8CoreError.dateInvalid(original)
        }
    }
}
