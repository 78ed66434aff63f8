import Foundation

/// Everything the domain can reject, with a message that names the bad value and says what would work.
public enum W8CoreError: Error, LocalizedError, Equatable, Sendable {
    case weightNotANumber(String)
    case weightNotPositive(String)
    case weightOutOfRange(String, WeightUnit)
    case unknownUnit(String)
    case conflictingUnits(String, WeightUnit)
    case bodyFatInvalid(String)
    case noteTooLong(Int)
    case dateInvalid(String)
    case dateInFuture(String)
    case goalOutOfRange(String, WeightUnit)
    case unknownSetting(String)
    case invalidSettingValue(key: String, value: String, expected: String)
    case configSyntax(line: Int, message: String)

    public var errorDescription: String? {
        switch self {
        case .weightNotANumber(let text):
            "weight '\(text)' is not a number; try 182.4 or 82,5kg"
        case .weightNotPositive(let text):
            "weight '\(text)' must be a positive number; try 182.4 or 82,5kg"
        case .weightOutOfRange(let text, let unit):
            "weight '\(text)' is outside the range \(WeightInput.rangeText(unit))"
        case .unknownUnit(let text):
            "unit '\(text)' is not known; use lb or kg"
        case .conflictingUnits(let text, let unit):
            "weight '\(text)' does not match --unit \(unit.rawValue); give the unit once"
        case .bodyFatInvalid(let text):
            "body fat '\(text)' must be a percentage from 2 to 75"
        case .noteTooLong(let count):
            "note is \(count) characters long; the limit is \(WeightInput.maxNoteLength)"
        case .dateInvalid(let text):
            "date '\(text)' is not a date; use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or ISO 8601 with an offset"
        case .dateInFuture(let text):
            "date '\(text)' is in the future"
        case .goalOutOfRange(let text, let unit):
            "goal '\(text)' is outside the range \(WeightInput.rangeText(unit))"
        case .unknownSetting(let key):
            "setting '\(key)' is not known; 'w8 config' lists the settings"
        case .invalidSettingValue(let key, let value, let expected):
            "value '\(value)' for \(key) is not valid; expected \(expected)"
        case .configSyntax(let line, let message):
            "line \(line): \(message)"
        }
    }
}
