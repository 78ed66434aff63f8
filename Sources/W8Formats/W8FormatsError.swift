import Foundation
import W8Core

/// Everything the file formats can reject, with a message that names the bad value or line and says what would work.
public enum W8FormatsError: Error, LocalizedError, Equatable, Sendable {
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
    /// A vendor's file that is not one w8 reads, or a value its format does not allow: the sentence says which.
    case importVendorFile(String)
    case importValueInvalid(column: String, value: String, expected: String)
    case documentInvalid(JSONDocument, String)
    case fieldTooLong(column: String, start: String, characters: Int)
    case csvQuoteNotClosed(line: Int)
    /// A kept Apple Health record's value or date that w8 cannot read.
    case appleHealthValue(String)
    /// A kept Apple Health record's unit, and the units its type may have.
    case appleHealthUnit(String, String)

    public var errorDescription: String? {
        switch self {
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
                + "w8trackr-ios, openscale, libra, trendweight, withings, google-fit, samsung-health, fitbit, garmin "
                + "or generic)"
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
        case .importVendorFile(let message):
            message
        case .importValueInvalid(let column, let value, let expected):
            "\(column) '\(value)' is not \(expected)"
        case .documentInvalid(let document, let reason):
            "not \(document == .appleHealth ? "an" : "a") \(document.name) that can be \(document == .backup ? "restored" : "read"): \(reason)"
        case .fieldTooLong(let column, let start, let characters):
            // Quoted as `withQuotedValuesCapped` cuts a value: the field itself was never held.
            "\(column) '\(start)…' (\(characters) characters) is longer than any value w8 reads"
        case .csvQuoteNotClosed(let line):
            "line \(line): a quote opens a field here and is not closed; a quoted value ends with \", and a quote "
                + "inside it is written twice (\"\")"
        case .appleHealthValue(let reason):
            reason
        case .appleHealthUnit(let unit, let expected):
            "unit '\(unit)' is not one w8 reads for this type (\(expected))"
        case .importUnitConflict(let file, let option):
            "the file says its weights are in \(file.rawValue) but --unit is \(option.rawValue)"
        }
    }
}

/// The JSON files w8 reads as a stream, named in the sentence that refuses one.
public enum JSONDocument: Sendable, Equatable {
    case backup, iPhoneExport
    /// Fitbit's or Garmin's export: a JSON array of records.
    case vendorExport
    /// Apple Health's export.xml: XML, read as a stream as the JSON files are.
    case appleHealth

    var name: String {
        switch self {
        case .backup: "W8Trackr backup"
        case .iPhoneExport: "W8Trackr iPhone app export"
        case .vendorExport: "Fitbit or Garmin export"
        case .appleHealth: "Apple Health export"
        }
    }
}

extension W8FormatsError: ReportableError {
    /// Every format error is about a file or value the person gave.
    public var exitStatus: ExitStatus { .dataError }
}
