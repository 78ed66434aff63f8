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
    case dateTooEarly(String)
    case goalOutOfRange(String, WeightUnit)
    case unknownSetting(String)
    case invalidSettingValue(key: String, value: String, expected: String)
    case drinkInvalid(String)
    case drinkNotPositive(String)
    case drinkTooLarge(String)
    case caloriesInvalid(String)
    case foodUnknown(String)
    case stepsInvalid(String)

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
        case .dateTooEarly(let text):
            "date '\(text)' is before \(DateInput.earliestYear); check the year"
        case .goalOutOfRange(let text, let unit):
            "goal '\(text)' is outside the range \(WeightInput.rangeText(unit))"
        case .unknownSetting(let key):
            "setting '\(key)' is not known; 'w8 config' lists the settings"
        case .invalidSettingValue(let key, let value, let expected):
            "value '\(value)' for \(key) is not valid; expected \(expected)"
        case .drinkInvalid(let text):
            "amount '\(text)' is not a drink; try 250, 250ml, 0.5l, 12oz, cup, bottle or 2cups"
        case .drinkNotPositive(let text):
            "amount '\(text)' must be more than 0; try 250 or cup"
        case .drinkTooLarge(let text):
            "amount '\(text)' is more than one drink; one drink is at most 5 l (5000 ml)"
        case .caloriesInvalid(let text):
            "calories '\(text)' must be a whole number from 0 to \(IntakeSettings.maxCalories)"
        case .foodUnknown(let text):
            "'\(text)' is not something to eat here; use meal or snack"
        case .stepsInvalid(let text):
            "steps '\(text)' must be a whole number from 0 to \(ActivityDay.maxSteps); try 8000"
        }
    }
}
