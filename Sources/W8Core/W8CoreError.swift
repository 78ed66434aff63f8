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
    case configSyntax(line: Int, message: String)
    case dateAmbiguous(String)
    case datePatternInvalid(String)
    case dateNotInPattern(String, String)
    case importFormatUnknown(String)
    case importNoHeader
    case importColumnMissing(column: String, format: String)
    case importFieldMissing(String)
    case importUnitConflict(file: WeightUnit, option: WeightUnit)
    case importFieldCount(found: Int, expected: Int, separator: Character)
    case importFlagInvalid(column: String, value: String)
    case backupInvalid(String)
    case drinkInvalid(String)
    case drinkNotPositive(String)
    case drinkTooLarge(String)
    case caloriesInvalid(String)
    case foodUnknown(String)

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
        case .configSyntax(let line, let message):
            "line \(line): \(message)"
        case .dateAmbiguous(let text):
            "date '\(text)' is ambiguous; give --date-format MM/DD/YYYY or --date-format DD/MM/YYYY"
        case .datePatternInvalid(let text):
            "date format '\(text)' needs YYYY, MM and DD once each, with separators between, like MM/DD/YYYY"
        case .dateNotInPattern(let text, let pattern):
            "date '\(text)' does not match --date-format \(pattern)"
        case .importFormatUnknown(let line):
            "cannot tell the format from the first line '\(line.prefix(80))'; give --format (w8-csv, w8-json, "
                + "openscale, libra, trendweight or generic)"
        case .importNoHeader:
            "no header or data line in the first 64 KiB"
        case .importColumnMissing(let column, let format):
            "the header has no '\(column)' column, which --format \(format) needs"
        case .importFieldMissing(let column):
            "no \(column)"
        case .importFieldCount(let found, let expected, ","):
            "\(found) fields where the header has \(expected), and reading the extra commas as decimal commas "
                + "(194,2 for 194.2) does not explain them in one way; quote values that hold a comma"
        case .importFieldCount(let found, let expected, let separator):
            "\(found) fields where the header has \(expected); quote values that hold a '\(separator)'"
        case .importFlagInvalid(let column, let value):
            "\(column) is '\(value)'; TrendWeight writes Yes or No"
        case .backupInvalid(let reason):
            "not a W8Trackr backup that can be restored: \(reason)"
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
        case .importUnitConflict(let file, let option):
            "the file says its weights are in \(file.rawValue) but --unit is \(option.rawValue)"
        }
    }
}
