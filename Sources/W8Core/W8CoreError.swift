import Foundation
import W8Text

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
            // TRANSLATORS: errors, printed after "w8: ". Keep what is quoted or is a command, option, unit or format
            // (182.4, 82,5kg, lb, kg, --unit, YYYY-MM-DD, ISO 8601, 'w8 config', ml, l, oz, cup, bottle, meal, snack)
            // as written: people type them. {value} is what the person typed, {range} a range with its unit
            // ("20–700 kg").
            tr("weight '{value}' is not a number; try 182.4 or 82,5kg", ["value": text])
        case .weightNotPositive(let text):
            tr("weight '{value}' must be a positive number; try 182.4 or 82,5kg", ["value": text])
        case .weightOutOfRange(let text, let unit):
            tr("weight '{value}' is outside the range {range}", ["value": text, "range": WeightInput.rangeText(unit)])
        case .unknownUnit(let text):
            tr("unit '{value}' is not known; use lb or kg", ["value": text])
        case .conflictingUnits(let text, let unit):
            // TRANSLATORS: {unit} is lb or kg.
            tr(
                "weight '{value}' does not match --unit {unit}; give the unit once",
                ["value": text, "unit": unit.rawValue])
        case .bodyFatInvalid(let text):
            tr("body fat '{value}' must be a percentage from 2 to 75", ["value": text])
        case .noteTooLong(let count):
            trn(
                "note is {count} character long; the limit is {limit}",
                "note is {count} characters long; the limit is {limit}",
                count, ["count": count, "limit": WeightInput.maxNoteLength])
        case .dateInvalid(let text):
            tr(
                "date '{value}' is not a date; use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or ISO 8601 with an offset",
                ["value": text])
        case .dateInFuture(let text):
            tr("date '{value}' is in the future", ["value": text])
        case .dateTooEarly(let text):
            tr("date '{value}' is before {year}; check the year", ["value": text, "year": DateInput.earliestYear])
        case .goalOutOfRange(let text, let unit):
            tr("goal '{value}' is outside the range {range}", ["value": text, "range": WeightInput.rangeText(unit)])
        case .unknownSetting(let key):
            tr("setting '{key}' is not known; 'w8 config' lists the settings", ["key": key])
        case .invalidSettingValue(let key, let value, let expected):
            // TRANSLATORS: {key} is a setting's name ("summary.hour"), {expected} says what is valid ("a whole hour
            // from 0 to 23").
            tr(
                "value '{value}' for {key} is not valid; expected {expected}",
                ["value": value, "key": key, "expected": expected])
        case .drinkInvalid(let text):
            tr("amount '{value}' is not a drink; try 250, 250ml, 0.5l, 12oz, cup, bottle or 2cups", ["value": text])
        case .drinkNotPositive(let text):
            tr("amount '{value}' must be more than 0; try 250 or cup", ["value": text])
        case .drinkTooLarge(let text):
            tr("amount '{value}' is more than one drink; one drink is at most 5 l (5000 ml)", ["value": text])
        case .caloriesInvalid(let text):
            tr(
                "calories '{value}' must be a whole number from 0 to {max}",
                ["value": text, "max": IntakeSettings.maxCalories])
        case .foodUnknown(let text):
            tr("'{value}' is not something to eat here; use meal or snack", ["value": text])
        case .stepsInvalid(let text):
            tr(
                "steps '{value}' must be a whole number from 0 to {max}; try 8000",
                ["value": text, "max": ActivityDay.maxSteps])
        }
    }
}
