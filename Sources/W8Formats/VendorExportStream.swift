import Foundation
import W8Core
import W8Text

/// Reads the vendors' JSON exports that are one array of records, a record at a time as bytes arrive:
///
/// - Fitbit (Google Takeout, or the older account export): `weight-YYYY-MM-DD.json`, records `{logId, weight, bmi,
///   fat?, date "MM/DD/YY", time "HH:MM:SS", source}` whose weight is in the account's unit, which the file does not
///   name, and whose date and time are the account's wall clock; `steps-YYYY-MM-DD.json`, records
///   `{dateTime "MM/DD/YY HH:MM:SS", value "12"}`, one a minute, in UTC.
/// - Garmin Connect's data export (`DI_CONNECT/DI-Connect-Wellness`): `*_userBioMetrics.json`, records
///   `{metaData: {calendarDate}, weight?: {weight (grams), timestampGMT, bodyFat?}}`; and the daily summaries
///   `UDSFile_*.json`, records `{calendarDate, totalSteps, totalDistanceMeters}`.
///
/// The first record tells which file it is. A bad record is a bad row labelled with its 1-based position, so
/// `--skip-invalid` applies. Memory is bounded by the largest record, and for steps by the minutes in the file
/// (Fitbit writes a month a file), which are remembered so that a minute written twice counts once.
public struct VendorExportStream {
    /// Which file of which export the records are.
    public enum Kind: Sendable, Equatable {
        case fitbitWeight, fitbitSteps, garminBioMetrics, garminDailySummary

        public var format: ImportFormat { [.fitbitWeight, .fitbitSteps].contains(self) ? .fitbit : .garmin }

        /// The file, as the summary names it.
        public var name: String {
            switch self {
            case .fitbitWeight: "Fitbit weight export (weight-*.json)"
            case .fitbitSteps: "Fitbit steps export (steps-*.json, a count a minute)"
            case .garminBioMetrics: "Garmin Connect export (userBioMetrics.json, weights in grams)"
            case .garminDailySummary: "Garmin Connect export (UDSFile daily summaries)"
            }
        }
    }

    public static let fitbitSource = ActivitySource(rawValue: "fitbit")
    public static let garminSource = ActivitySource(rawValue: "garmin")

    private var scanner = JSONObjectStream(topLevelArrayWithMaxValueBytes: 64 * 1024)
    private let options: ImportOptions
    private let fileName: String
    /// `--format fitbit` or `garmin`; nil to take whichever the first record shows.
    private let expected: ImportFormat?
    public private(set) var kind: Kind?
    /// Steps a local day, and the minutes already counted (seconds since 1970, UTC).
    private var stepsByDay: [CalendarDay: Int] = [:]
    private var minutesSeen: Set<Int> = []
    private var summaries: [CalendarDay: ActivityDay] = [:]

    /// Reads `fileName`, "-" for standard input (its base name tells Fitbit's steps file from its other per-minute
    /// files; standard input is taken as a steps file).
    public init(fileName: String, expected: ImportFormat?, options: ImportOptions) {
        self.fileName = fileName
        self.expected = expected
        self.options = options
    }

    /// Where the unit of the weights comes from, once the first record was read; nil for a file of steps.
    public var unitSource: ImportUnitSource? {
        switch kind {
        case .fitbitWeight: options.unit.map { .option($0) } ?? .preferred(options.preferredUnit)
        case .garminBioMetrics: .app(.kg)
        default: nil
        }
    }

    /// The records completed by `bytes`. Throws `W8FormatsError.documentInvalid` when the file is no array of
    /// records, or not one of the files this reads.
    public mutating func feed(_ bytes: [UInt8]) throws -> [ImportRow] {
        let parts: [JSONObjectStream.Part]
        do throws(JSONObjectStream.Malformed) { parts = try scanner.feed(bytes) } catch {
            throw W8FormatsError.documentInvalid(
                .vendorExport,
                error.notAnObject
                    ? tr("it is not a JSON array")
                    : error.reason(
                        maxValueBytes: scanner.maxValueBytes,
                        // TRANSLATORS: who wrote the file, in "more than any entry … writes": two companies' names.
                        writer: tr("{first} or {second}", ["first": "Fitbit", "second": "Garmin"])))
        }
        var rows: [ImportRow] = []
        for case .element(let index, let value) in parts {
            let record = try? JSONSerialization.jsonObject(with: Data(value), options: [.fragmentsAllowed])
            guard let fields = record as? [String: Any] else {
                rows.append(.invalid(line: index + 1, reason: tr("it is not a JSON object")))
                continue
            }
            if kind == nil {
                kind = try Self.kind(of: fields, fileName: fileName, expected: expected)
                // Grams say their unit: --unit lb cannot be right.
                if kind == .garminBioMetrics, let unit = options.unit, unit != .kg {
                    throw W8FormatsError.importUnitConflict(file: .kg, option: unit)
                }
            }
            if let row = self.row(index + 1, fields) { rows.append(row) }
        }
        return rows
    }

    /// Checks that the array was closed, and hands out the days of steps summed from the whole file.
    public mutating func finish() throws -> [ImportRow] {
        do throws(JSONObjectStream.Malformed) { try scanner.finish() } catch {
            throw W8FormatsError.documentInvalid(.vendorExport, tr("it is not valid JSON: the array is not closed"))
        }
        if let (day, steps) = stepsByDay.first(where: { $0.value > ActivityDay.maxSteps }) {
            throw W8FormatsError.documentInvalid(
                .vendorExport,
                trn(
                    // TRANSLATORS: a Fitbit steps file refused; {day} is a day as 2024-03-26, {most} the most steps a
                    // day w8 keeps.
                    "its minutes add up to {count} step on {day}, more than the {most} a day w8 keeps",
                    "its minutes add up to {count} steps on {day}, more than the {most} a day w8 keeps", steps,
                    ["count": steps, "day": day, "most": ActivityDay.maxSteps]))
        }
        let days =
            stepsByDay.map { ActivityDay(day: $0.key, steps: $0.value, source: Self.fitbitSource) }
            + summaries.values
        return days.sorted { $0.day < $1.day }.map { .activity($0) }
    }

    /// The file the first record shows, refused when it is none of these or not the `--format` named.
    static func kind(of fields: [String: Any], fileName: String, expected: ImportFormat?) throws -> Kind {
        let keys = Set(fields.keys)
        let kind: Kind
        if keys.isSuperset(of: ["logId", "weight", "date"]) {
            kind = .fitbitWeight
        } else if keys.isSuperset(of: ["dateTime", "value"]) {
            // Fitbit writes distance, calories and altitude a minute in the same shape: the name says which.
            let base = (fileName as NSString).lastPathComponent.lowercased()
            guard base.hasPrefix("steps") || fileName == "-" else {
                throw W8FormatsError.documentInvalid(
                    .vendorExport,
                    tr(
                        // TRANSLATORS: {shape} is the records' JSON keys, {files} the file names w8 reads.
                        "its records are Fitbit's {shape} a minute, but only {files} files are read (distance, calories and heart rate files have the same shape)",
                        ["shape": "{dateTime, value}", "files": "steps-*.json"]))
            }
            kind = .fitbitSteps
        } else if keys.contains("metaData") {
            kind = .garminBioMetrics
        } else if keys.contains("calendarDate"), keys.contains("totalSteps") || keys.contains("userProfilePK") {
            kind = .garminDailySummary
        } else {
            throw W8FormatsError.documentInvalid(
                .vendorExport,
                tr(
                    // TRANSLATORS: {bio} and {uds} are names of Garmin's files; {keys} the record's first JSON keys.
                    "its first record is none of Fitbit's weight or steps records nor Garmin's {bio} or {uds} records (keys: {keys})",
                    [
                        "bio": "userBioMetrics", "uds": "UDSFile",
                        "keys": keys.sorted().prefix(8).map { String($0.prefix(40)) }.joined(separator: ", "),
                    ])
            )
        }
        if let expected, expected != kind.format {
            throw W8FormatsError.documentInvalid(
                .vendorExport,
                tr(
                    // TRANSLATORS: {found} and {expected} are names of files of exports, as "Fitbit weight export
                    // (weight-*.json)"; {format} the value of --format to give.
                    "it is a {found}, not a {expected}; give --format {format}",
                    ["found": kind.name, "expected": expected.displayName, "format": kind.format.rawValue]))
        }
        return kind
    }

    private mutating func row(_ line: Int, _ fields: [String: Any]) -> ImportRow? {
        do {
            switch kind {
            case .fitbitWeight?: return .entry(line: line, try fitbitWeight(fields))
            case .fitbitSteps?: try fitbitSteps(fields)
            case .garminBioMetrics?: return try garminWeight(fields).map { .entry(line: line, $0) }
            case .garminDailySummary?: try garminDay(fields)
            case nil: break
            }
            return nil
        } catch {
            return .invalid(line: line, reason: error.localizedDescription.withQuotedValuesCapped)
        }
    }

    // MARK: Fitbit

    private func fitbitWeight(_ fields: [String: Any]) throws -> WeightEntry {
        let value = try Self.number(fields["weight"], "weight")
        let unit = options.unit ?? options.preferredUnit
        let date = try Self.fitbitDate(Self.text(fields["date"], "date"), time: Self.text(fields["time"], "time"))
        let fat = try Self.optionalNumber(fields["fat"], "fat").flatMap { $0 == 0 ? nil : $0 }
        return WeightEntry(
            weight: try WeightInput.weight(value.roundTripText, unit: unit, defaultUnit: unit),
            // The account's wall clock: Fitbit's own "last second of the day" for a weight logged without a time.
            date: try DateInput.parse(date, now: options.now, calendar: options.calendar),
            bodyFatPercent: try fat.map { try WeightInput.bodyFat($0.roundTripText) })
    }

    private mutating func fitbitSteps(_ fields: [String: Any]) throws {
        let text = try Self.text(fields["dateTime"], "dateTime")
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw W8CoreError.dateInvalid(text) }
        let stamp = try Self.fitbitDate(String(parts[0]), time: String(parts[1]))
        // In UTC: the day it counts for is the local day of that instant.
        let instant = try DateInput.parse(stamp + "Z", now: options.now, calendar: options.calendar)
        let steps: Int
        switch fields["value"] {
        case let text as String: steps = try ActivityInput.steps(text)
        case let number as NSNumber: steps = try ActivityInput.steps(number.stringValue)
        default: throw W8FormatsError.importFieldMissing("value")
        }
        guard minutesSeen.insert(Int(instant.timeIntervalSince1970)).inserted else { return }
        stepsByDay[CalendarDay(instant, calendar: options.calendar), default: 0] += steps
    }

    /// `MM/DD/YY` and `HH:MM:SS` as `20YY-MM-DDTHH:MM:SS`: Fitbit writes two-digit years, all after 2000.
    static func fitbitDate(_ date: String, time: String) throws -> String {
        let d = date.split(separator: "/", omittingEmptySubsequences: false)
        let t = time.split(separator: ":", omittingEmptySubsequences: false)
        func digits(_ parts: [Substring]) -> Bool {
            parts.count == 3 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        }
        guard digits(d) else { throw W8CoreError.dateInvalid(date) }
        guard digits(t) else { throw W8CoreError.dateInvalid(time) }
        return "20\(d[2])-\(d[0])-\(d[1])T\(time)"
    }

    // MARK: Garmin

    /// A weigh-in, or nil for a record that holds other measurements (height, lactate threshold) and no weight.
    private func garminWeight(_ fields: [String: Any]) throws -> WeightEntry? {
        guard let weight = fields["weight"], !(weight is NSNull) else { return nil }
        guard let reading = weight as? [String: Any] else {
            // TRANSLATORS: {key} is a JSON key of Garmin's file, weight.
            throw W8FormatsError.importVendorFile(tr("no {key} object", ["key": "weight"]))
        }
        let grams = try Self.number(reading["weight"], "weight")
        let date: Date
        switch reading["timestampGMT"] {
        case let text as String:
            date = try DateInput.parse(
                text + (text.hasSuffix("Z") ? "" : "Z"), now: options.now, calendar: options.calendar)
        case let ms as NSNumber:
            let instant = Date(timeIntervalSince1970: ms.doubleValue / 1000)
            date = try DateInput.parse(
                ISO8601DateFormatter().string(from: instant), now: options.now, calendar: options.calendar)
        default:
            // No moment: the day Garmin filed it under, read as that local day.
            let meta = fields["metaData"] as? [String: Any]
            let day = try Self.text(meta?["calendarDate"], "metaData.calendarDate")
            date = try DateInput.parse(String(day.prefix(10)), now: options.now, calendar: options.calendar)
        }
        // 0 is the scale's failed impedance reading, not a body-fat percentage.
        let fat = try Self.optionalNumber(reading["bodyFat"], "bodyFat").flatMap { $0 == 0 ? nil : $0 }
        return WeightEntry(
            weight: try WeightInput.weight((grams / 1000).roundTripText, unit: .kg, defaultUnit: .kg), date: date,
            bodyFatPercent: try fat.map { try WeightInput.bodyFat($0.roundTripText) })
    }

    private mutating func garminDay(_ fields: [String: Any]) throws {
        let text = try Self.text(fields["calendarDate"], "calendarDate")
        guard let day = CalendarDay(String(text.prefix(10))) else { throw W8CoreError.dateInvalid(text) }
        // A day the watch was not worn has no total.
        guard let stepsValue = fields["totalSteps"], !(stepsValue is NSNull) else { return }
        let count = try Self.number(stepsValue, "totalSteps")
        // A whole count Int can hold is given as its digits; any other (a fraction, 1e76) as text the check refuses.
        let whole = count == count.rounded(.towardZero) && abs(count) < 0x1p53
        let steps = try ActivityInput.steps(whole ? String(Int(count)) : "\(count)")
        let metres = try Self.optionalNumber(fields["totalDistanceMeters"], "totalDistanceMeters") ?? 0
        guard metres >= 0, metres < 1_000_000 else {
            throw W8FormatsError.importVendorFile(
                // TRANSLATORS: {key} is a JSON key of Garmin's file.
                tr("{key} is not a distance from 0 to 1000 km", ["key": "totalDistanceMeters"]))
        }
        summaries[day] = ActivityDay(day: day, steps: steps, distance: Int(metres.rounded()), source: Self.garminSource)
    }

    // MARK: Values

    static func text(_ value: Any?, _ name: String) throws -> String {
        guard let text = value as? String else { throw W8FormatsError.importFieldMissing(name) }
        return text
    }

    static func number(_ value: Any?, _ name: String) throws -> Double {
        guard let number = try optionalNumber(value, name) else { throw W8FormatsError.importFieldMissing(name) }
        return number
    }

    static func optionalNumber(_ value: Any?, _ name: String) throws -> Double? {
        switch value {
        case nil, is NSNull: return nil
        case let number as NSNumber:
            guard number.doubleValue.isFinite else {
                // TRANSLATORS: {key} is a JSON key of the file.
                throw W8FormatsError.importVendorFile(tr("{key} is not a finite number", ["key": name]))
            }
            return number.doubleValue
        // TRANSLATORS: {key} is a JSON key of the file.
        default: throw W8FormatsError.importVendorFile(tr("{key} is not a number", ["key": name]))
        }
    }
}
