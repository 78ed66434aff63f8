import Foundation
import W8Core
import W8Text

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
    /// A ZIP archive w8 cannot read, or a member of it that is damaged: the sentence says which.
    case archive(String)
    /// A kept Apple Health record's value or date that w8 cannot read.
    case appleHealthValue(String)
    /// A kept Apple Health record's unit, and the units its type may have.
    case appleHealthUnit(String, String)

    public var errorDescription: String? {
        switch self {
        case .configSyntax(let line, let message):
            // TRANSLATORS: errors, printed after "w8: ". Keep what is quoted, and every command, option, format, unit,
            // column, key or value people type or a file holds (--date-format, MM/DD/YYYY, --format, --unit, Yes, No,
            // 194,2) as written; keep the '…' around quoted values. Here: {line} is a line number of config.toml,
            // {message} what is wrong with it.
            tr("line {line}: {message}", ["line": line, "message": message])
        case .dateAmbiguous(let text):
            tr(
                "date '{value}' is ambiguous; give --date-format MM/DD/YYYY or --date-format DD/MM/YYYY",
                ["value": text])
        case .datePatternInvalid(let text):
            tr(
                "date format '{value}' needs YYYY, MM and DD once each, with separators between, like MM/DD/YYYY",
                ["value": text])
        case .dateNotInPattern(let text, let pattern):
            tr("date '{value}' does not match --date-format {pattern}", ["value": text, "pattern": pattern])
        case .importFormatUnknown(let line):
            tr(
                // TRANSLATORS: {line} is the start of the file's first line; {formats} and {last} are the names
                // --format takes ("w8-csv, w8-json, …, garmin" and "generic").
                "cannot tell the format from the first line '{line}'; give --format ({formats} or {last})",
                [
                    "line": line.prefix(80),
                    "formats":
                        "w8-csv, w8-json, w8trackr-ios, openscale, libra, trendweight, withings, google-fit, "
                        + "samsung-health, fitbit, garmin",
                    "last": "generic",
                ])
        case .importNoHeader:
            tr("no header or data line in the first 64 KiB")
        case .importColumnMissing(let column, let format):
            tr(
                // TRANSLATORS: {column} is a column's name as the file's header writes it, {format} a name --format
                // takes.
                "the header has no '{column}' column, which --format {format} needs",
                ["column": column, "format": format])
        case .importFieldMissing(let field):
            // TRANSLATORS: a row or record of an import file lacks a value; {field} names it as the file's columns or
            // keys do ("date", "weight", "startDate").
            tr("no {field}", ["field": field])
        case .importFieldCount(let found, let expected, ","):
            trn(
                // TRANSLATORS: a CSV row has more fields than its header; {count} of them (always more than one), where
                // the header has {expected}.
                "{count} field where the header has {expected}, and reading the extra commas as decimal commas (194,2 for 194.2) does not explain them in one way; quote values that hold a comma",
                "{count} fields where the header has {expected}, and reading the extra commas as decimal commas (194,2 for 194.2) does not explain them in one way; quote values that hold a comma",
                found, ["count": found, "expected": expected])
        case .importFieldCount(let found, let expected, let separator):
            trn(
                // TRANSLATORS: {separator} is the file's separator, such as ";".
                "{count} field where the header has {expected}; quote values that hold a '{separator}'",
                "{count} fields where the header has {expected}; quote values that hold a '{separator}'", found,
                ["count": found, "expected": expected, "separator": separator])
        case .importFlagInvalid(let column, let value):
            // TRANSLATORS: {column} is a column of TrendWeight's export ("Weight Is Interpolated"); Yes and No are its
            // values, as the file writes them.
            tr("{column} is '{value}'; TrendWeight writes Yes or No", ["column": column, "value": value])
        case .importVendorFile(let message), .archive(let message):
            message
        case .importValueInvalid(let column, let value, let expected):
            // TRANSLATORS: {column} is a column of the file, {expected} what its values must be ("a whole number").
            tr("{column} '{value}' is not {expected}", ["column": column, "value": value, "expected": expected])
        case .documentInvalid(let document, let reason):
            document.refusal(reason)
        case .fieldTooLong(let column, let start, let characters):
            // Quoted as `withQuotedValuesCapped` cuts a value: the field itself was never held.
            trn(
                // TRANSLATORS: {column} names the column ("weight", "field 7"), {start} is the value's first
                // characters, {count} its length (always more than 60).
                "{column} '{start}…' ({count} character) is longer than any value w8 reads",
                "{column} '{start}…' ({count} characters) is longer than any value w8 reads", characters,
                ["column": column, "start": start, "count": characters])
        case .csvQuoteNotClosed(let line):
            tr(
                // TRANSLATORS: {line} is a line number of the file.
                "line {line}: a quote opens a field here and is not closed; a quoted value ends with \", and a quote inside it is written twice (\"\")",
                ["line": line])
        case .appleHealthValue(let reason):
            reason
        case .appleHealthUnit(let unit, let expected):
            // TRANSLATORS: {unit} is the unit an Apple Health record gives, {expected} the units w8 reads ("kg, lb").
            tr("unit '{unit}' is not one w8 reads for this type ({expected})", ["unit": unit, "expected": expected])
        case .importUnitConflict(let file, let option):
            tr(
                // TRANSLATORS: {file} and {option} are units, "kg" or "lb".
                "the file says its weights are in {file} but --unit is {option}",
                ["file": file.rawValue, "option": option.rawValue])
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

    /// The sentence that refuses the file, `reason` after it: one whole sentence a document, for the translators.
    func refusal(_ reason: String) -> String {
        switch self {
        case .backup:
            // TRANSLATORS: {reason} says why: "its version 9 is newer than this w8 reads (3)".
            tr("not a W8Trackr backup that can be restored: {reason}", ["reason": reason])
        case .iPhoneExport: tr("not a W8Trackr iPhone app export that can be read: {reason}", ["reason": reason])
        case .vendorExport: tr("not a Fitbit or Garmin export that can be read: {reason}", ["reason": reason])
        case .appleHealth: tr("not an Apple Health export that can be read: {reason}", ["reason": reason])
        }
    }
}

extension W8FormatsError: ReportableError {
    /// Every format error is about a file or value the person gave.
    public var exitStatus: ExitStatus { .dataError }
}
