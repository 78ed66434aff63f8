import Foundation
import W8Core
import W8Text

/// Where a format keeps each value, found from its header's names.
struct ImportLayout: Sendable {
    var format: ImportFormat
    /// The format with its version or view: `openScale 3.x CSV`, `TrendWeight export (computed view)`.
    var name: String
    var separator: UInt8
    /// The header's line, skipped as data; nil when the file has none.
    var headerLine: Int?
    var date: Int
    /// A separate time-of-day column (openScale 3.x, TrendWeight's raw view).
    var time: Int?
    var weight: Int
    /// The per-row unit column of the W8Trackr CSV.
    var unit: Int?
    var note: Int?
    var bodyFat: Int?
    /// TrendWeight's computed view: `Yes` where the day's weight, or body fat, was interpolated.
    var weightInterpolated: Int?
    var fatInterpolated: Int?
    /// The unit the file declares (Libra's `#Units:`, a generic header's `(kg)`).
    var declaredUnit: WeightUnit?
    /// The unit the app writes when the file says none, and whether it never writes another.
    var appUnit: (unit: WeightUnit, always: Bool)?
    /// Zero in a body-fat column means "not measured" (openScale, Libra, TrendWeight).
    var zeroFatIsMissing: Bool
    /// The header's number of fields: a row with more is rebuilt or refused, never read shifted.
    var columnCount: Int
    /// What a row is: a weigh-in, or a day of steps.
    var kind = RowKind.weighIn
    /// Withings' fat mass and its unit: body fat is fat mass / weight.
    var fatMass: (index: Int, unit: WeightUnit)?
    var steps: Int?
    /// Metres walked or run that day.
    var distance: Int?
    /// Samsung's `source_type`: -2 marks the all-devices total of a day.
    var sourceType: Int?
    /// Samsung ends every data row with one empty field more than its header names.
    var trailingComma = false

    enum RowKind: Sendable, Equatable {
        case weighIn
        /// A day's steps, its date `YYYY-MM-DD`, or in milliseconds since 1970 at UTC midnight (Samsung).
        case stepsDay(millis: Bool)
    }

    /// Libra's columns up to version 5; version 6 adds `muscle mass;muscle mass trend` before `log`.
    static let libraColumns = ["date", "weight", "weight trend", "body fat", "body fat trend", "log"]
    static let libra6Columns = Array(libraColumns.dropLast()) + ["muscle mass", "muscle mass trend", "log"]
    static let trendweightRawColumns: Set<String> = ["date", "time", "weight", "body fat %"]
    static let trendweightComputedColumns: Set<String> = ["actual weight", "weight is interpolated"]
    /// The iPhone app's CSV header (`DataExporter.generateCSV`), lower-cased.
    static let iPhoneColumns = ["date", "weight", "unit", "note", "bodyfat"]

    /// The format a file's first lines show, or an error quoting the line that fits none.
    static func detect(_ prefix: HeaderPrefix, options: ImportOptions, fileName: String? = nil) throws
        -> ImportFormat
    {
        if let vendor = vendorFormat(prefix, fileName: fileName) { return vendor }
        if prefix.comments.contains(where: {
            let comment = $0.lowercased()
            return comment.hasPrefix("units:") || comment.hasPrefix("version:") || isLibraHeader($0)
        }) || isLibraHeader(prefix.first) {
            return .libra
        }
        let raw = fields(prefix.first, separator: separator(prefix.first))
        let header = raw.map { $0.lowercased() }
        if header.starts(with: ["id", "date", "weight", "unit"]) { return .w8CSV }
        if header == iPhoneColumns { return .w8trackrIOS }
        if trendweightComputedColumns.isSubset(of: header) || trendweightRawColumns.isSubset(of: header) {
            return .trendweight
        }
        if header.contains("datetime"), header.contains("weight") { return .openscale }
        // openScale 3.x: DATE and TIME, then one column per measurement type, whichever the app version has.
        if raw.starts(with: ["DATE", "TIME"]) { return .openscale }
        if header.contains("date"), header.contains("time"), header.contains("weight") { return .openscale }
        if genericColumns(header) != nil { return .generic }
        // No header: a first line of date and weight is generic data.
        if raw.count >= 2,
            (try? ImportDates.parse(raw[0], pattern: options.datePattern, options: options)) != nil
                || ImportDates.isSlashed(raw[0])
        {
            return .generic
        }
        throw W8FormatsError.importFormatUnknown(prefix.first)
    }

    static func isLibraHeader(_ line: String) -> Bool {
        line.trimmingBlanks().lowercased().hasPrefix("date;weight;weight trend")
    }

    /// `;` when the line has at least as many as commas, a tab when it has more tabs, else a comma.
    static func separator(_ line: String) -> UInt8 {
        let commas = line.count { $0 == "," }
        let semicolons = line.count { $0 == ";" }
        let tabs = line.count { $0 == "\t" }
        // `26.03.2024;82,5`: a decimal comma is no separator when semicolons are there too.
        if semicolons > 0, semicolons >= commas, semicolons >= tabs { return UInt8(ascii: ";") }
        if tabs > commas { return UInt8(ascii: "\t") }
        return UInt8(ascii: ",")
    }

    /// A line's fields, unquoted and trimmed; none when a quote in it is not closed (the import's reader then names
    /// the line).
    static func fields(_ line: String, separator: UInt8) -> [String] {
        var reader = CSVReader(separator: separator)
        return ((try? reader.feed(Array(line.utf8)) + reader.finish()) ?? []).first?.fields ?? []
    }

    /// The header's names, lower-cased: formats' headers are matched whatever their case.
    static func names(_ line: String, separator: UInt8) -> [String] {
        fields(line, separator: separator).map { $0.lowercased() }
    }

    /// A generic header's date and weight columns: the first whose name says so.
    static func genericColumns(_ header: [String]) -> (date: Int, weight: Int)? {
        guard let date = header.firstIndex(where: { $0.contains("date") || $0 == "day" || $0 == "time" }),
            let weight = header.firstIndex(where: {
                $0.contains("weight") || ["kg", "lb", "lbs", "mass"].contains($0)
                    || $0.hasSuffix("(kg)") || $0.hasSuffix("(lb)") || $0.hasSuffix("(lbs)")
            })
        else { return nil }
        return (date, weight)
    }

    init(format: ImportFormat, prefix: HeaderPrefix, options: ImportOptions, fileName: String? = nil) throws {
        self.format = format
        name = format.displayName
        separator = format == .libra ? UInt8(ascii: ";") : ImportLayout.separator(prefix.first)
        headerLine = prefix.firstLine
        var header = ImportLayout.names(prefix.first, separator: separator)
        if format == .libra {
            // The header is a comment; a first line that is data is read as data.
            if let comment = prefix.comments.last(where: ImportLayout.isLibraHeader) {
                header = ImportLayout.names(comment, separator: separator)
                headerLine = nil
            } else if ImportLayout.isLibraHeader(prefix.first) {
                header = ImportLayout.names(prefix.first, separator: separator)
            } else {
                // No header: the columns of the version the file names, else version 5's.
                let six = prefix.comments.contains {
                    $0.lowercased().filter { $0 != " " }.hasPrefix("version:6")
                }
                (header, headerLine) = (six ? ImportLayout.libra6Columns : ImportLayout.libraColumns, nil)
            }
        }
        if format == .samsungHealth {
            // `com.samsung.health.weight.start_time` or `start_time`, by export version.
            header = header.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        }
        columnCount = header.count
        zeroFatIsMissing = ![.w8CSV, .generic, .w8trackrIOS].contains(format)
        (date, weight) = (0, 1)
        func column(_ names: String...) throws -> Int { try ImportLayout.column(header, names, format: format) }
        func optional(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        switch format {
        case .w8CSV:
            (date, weight, unit) = (try column("date"), try column("weight"), try column("unit"))
            (note, bodyFat) = (optional("note"), optional("body_fat_percent"))
        case .w8trackrIOS:
            // Each row names its unit (`lb`, `kg`, or `lbs` once edited in the app); dates are UTC without a zone.
            name = "W8Trackr iPhone app CSV"
            (date, weight, unit) = (try column("date"), try column("weight"), try column("unit"))
            (note, bodyFat) = (optional("note"), optional("bodyfat"))
        case .openscale:
            if let dateTime = optional("datetime") {
                // 2.x: weights are kept and written in kg, whatever the unit shown.
                name = "openScale 2.x CSV"
                date = dateTime
                appUnit = (.kg, true)
                (note, bodyFat) = (optional("comment"), optional("fat"))
            } else {
                // 3.x: each type's values are written in the unit chosen for it in the app, which the file
                // does not say.
                name = "openScale 3.x CSV"
                (date, time) = (try column("date"), try column("time"))
                (note, bodyFat) = (optional("comment"), optional("body_fat"))
            }
            weight = try column("weight")
        case .trendweight:
            date = try column("date")
            if let actual = optional("actual weight") {
                name = "TrendWeight export (computed view)"
                weight = actual
                weightInterpolated = try column("weight is interpolated")
                bodyFat = optional("actual fat %")
                fatInterpolated = bodyFat == nil ? nil : try column("fat is interpolated")
            } else {
                name = "TrendWeight export (raw view)"
                (time, weight, bodyFat) = (try column("time"), try column("weight"), optional("body fat %"))
            }
        case .libra:
            (date, weight) = (try column("date"), try column("weight"))
            (bodyFat, note) = (optional("body fat"), optional("log"))
            appUnit = (.kg, false)
            for comment in prefix.comments {
                let parts = comment.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0].lowercased() {
                case "units": declaredUnit = try WeightInput.unit(parts[1])
                case "version": name = "Libra export (version \(parts[1]))"
                default: break
                }
            }
        case .generic:
            if let (d, w) = ImportLayout.genericColumns(header) {
                (date, weight) = (d, w)
                // "Weight (kg)": the header says the unit.
                let name = header[w]
                if name.contains("kg") {
                    declaredUnit = .kg
                } else if name.contains("lb") {
                    declaredUnit = .lb
                }
            } else {
                // No header: the first line is data, date then weight.
                (date, weight, headerLine, columnCount) = (0, 1, nil, 2)
            }
        case .withings, .googleFit, .samsungHealth:
            try vendorColumns(header, prefix: prefix, fileName: fileName)
        case .w8JSON, .fitbit, .garmin, .appleHealth:
            preconditionFailure("\(format.rawValue) is JSON or XML, not a delimited format")
        case .gadgetbridge:
            preconditionFailure("gadgetbridge is an SQLite database, not a delimited format")
        }
        if let declaredUnit, let unit = options.unit, unit != declaredUnit {
            throw W8FormatsError.importUnitConflict(file: declaredUnit, option: unit)
        }
    }

    /// The first column named one of `names`, or the error naming the first.
    static func column(_ header: [String], _ names: [String], format: ImportFormat) throws -> Int {
        guard let index = header.firstIndex(where: names.contains) else {
            throw W8FormatsError.importColumnMissing(column: names[0], format: format.rawValue)
        }
        return index
    }

    /// Where the unit of weights without one comes from: `--unit`, else what the file says, else the app's
    /// own, else the preferred unit.
    func unitSource(_ options: ImportOptions) -> ImportUnitSource {
        if format.rowsNameUnits { return .rows }
        if let unit = options.unit { return .option(unit) }
        if let declaredUnit { return .file(declaredUnit) }
        if let appUnit { return appUnit.always ? .app(appUnit.unit) : .appDefault(appUnit.unit) }
        return .preferred(options.preferredUnit)
    }

    /// A record as an entry, a row that is no weigh-in, or the reason it cannot be read.
    func row(_ record: CSVRecord, options: ImportOptions) -> ImportRow {
        if let cut = record.cutField {
            let named: [(Int?, String)] = [
                (date, "date"), (time, "time"), (weight, "weight"), (unit, "unit"), (note, "note"),
                (bodyFat, "body fat"),
            ]
            // TRANSLATORS: a column the header does not name, by its position: "field 7".
            let column = named.first { $0.0 == cut }?.1 ?? tr("field {number}", ["number": cut + 1])
            let start = String(record.fields[cut].prefix(String.quotedValueLimit))
            let error = W8FormatsError.fieldTooLong(column: column, start: start, characters: record.cutCharacters)
            return .invalid(line: record.line, reason: error.localizedDescription)
        }
        do {
            let fields = try fitted(record.fields)
            if case .stepsDay(let millis) = kind {
                return try dayRow(fields, line: record.line, millis: millis, options: options)
            }
            if let weightInterpolated, try ImportLayout.yes(fields, weightInterpolated, "Weight Is Interpolated") {
                return .skipped(line: record.line, .interpolated)
            }
            return .entry(line: record.line, try entry(fields, options: options))
        } catch {
            return .invalid(line: record.line, reason: error.localizedDescription.withQuotedValuesCapped)
        }
    }

    /// A computed-view flag: `Yes` or `No`.
    static func yes(_ fields: [String], _ index: Int, _ column: String) throws -> Bool {
        let text = index < fields.count ? fields[index] : ""
        switch text.lowercased() {
        case "yes": return true
        case "no": return false
        default: throw W8FormatsError.importFlagInvalid(column: column, value: text)
        }
    }

    /// The row's fields, one per header column. A row with more was split at commas inside values: it is
    /// rebuilt when decimal commas explain every extra field in one way only (`194,2` → `194.2`), else refused.
    func fitted(_ fields: [String]) throws -> [String] {
        guard fields.count > columnCount, columnCount > 0 else { return fields }
        if trailingComma, fields[columnCount...].allSatisfy(\.isEmpty) { return Array(fields.prefix(columnCount)) }
        if separator == UInt8(ascii: ","), let rebuilt = DecimalCommas.rebuild(fields, count: columnCount) {
            return rebuilt
        }
        throw W8FormatsError.importFieldCount(
            found: fields.count, expected: columnCount, separator: Character(UnicodeScalar(separator)))
    }

    func entry(_ fields: [String], options: ImportOptions) throws -> WeightEntry {
        func field(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let text = fields[index]
            return text.isEmpty ? nil : text
        }
        guard let dateText = field(date) else { throw W8FormatsError.importFieldMissing("date") }
        guard let weightText = field(weight) else { throw W8FormatsError.importFieldMissing("weight") }
        var when = dateText
        if let time, let timeText = field(time), !dateText.contains(":") { when += " " + timeText }
        let weight: Weight
        if let unit, format.rowsNameUnits {
            guard let unitText = field(unit) else { throw W8FormatsError.importFieldMissing("unit") }
            weight = try WeightInput.weight(weightText, unit: try WeightInput.unit(unitText), defaultUnit: .lb)
        } else {
            let source = unitSource(options)
            weight = try WeightInput.weight(
                weightText, unit: options.unit ?? declaredUnit, defaultUnit: source.unit ?? options.preferredUnit)
        }
        var fat: Double?
        // TrendWeight's computed view fills days between two body-fat readings with interpolated ones.
        let fatMeasured = try fatInterpolated.map { try !ImportLayout.yes(fields, $0, "Fat Is Interpolated") } ?? true
        if fatMeasured, let fatText = field(bodyFat),
            !(zeroFatIsMissing && Double(fatText.replacingOccurrences(of: ",", with: ".")) == 0)
        {
            fat = try WeightInput.bodyFat(fatText)
        }
        if fat == nil, let fatMass, let massText = field(fatMass.index) {
            fat = try ImportLayout.bodyFat(mass: massText, unit: fatMass.unit, of: weight)
        }
        return WeightEntry(
            weight: weight,
            date: try ImportDates.parse(
                when, pattern: [.w8CSV, .w8trackrIOS].contains(format) ? nil : options.datePattern,
                options: options),
            note: try WeightInput.note(field(note)), bodyFatPercent: fat)
    }
}
