import Foundation

/// The file formats `w8 import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    case w8CSV = "w8-csv"
    case w8JSON = "w8-json"
    case openscale
    case libra
    case trendweight
    case generic

    /// What the format is, for the message that says which one was read.
    public var displayName: String {
        switch self {
        case .w8CSV: "W8Trackr CSV"
        case .w8JSON: "W8Trackr JSON backup"
        case .openscale: "openScale CSV"
        case .libra: "Libra export"
        case .trendweight: "TrendWeight export"
        case .generic: "date,weight CSV"
        }
    }
}

/// What an import needs from outside: the units, the date form, the moment and the person's calendar.
public struct ImportOptions: Sendable {
    /// `--unit`: the unit of weights that carry none, over the format's own default.
    public var unit: WeightUnit?
    /// The preferred unit, for formats that do not say theirs.
    public var preferredUnit: WeightUnit
    /// `--date-format`, for dates such as `03/26/2024` that cannot be read without it.
    public var datePattern: DatePattern?
    public var now: Date
    public var calendar: Calendar

    public init(
        unit: WeightUnit? = nil, preferredUnit: WeightUnit, datePattern: DatePattern? = nil, now: Date,
        calendar: Calendar
    ) {
        self.unit = unit
        self.preferredUnit = preferredUnit
        self.datePattern = datePattern
        self.now = now
        self.calendar = calendar
    }
}

/// A data row of an import file: an entry validated as `w8 add` validates one, a row that is no weigh-in, or why
/// it is not one.
public enum ImportRow: Sendable, Equatable {
    case entry(line: Int, WeightEntry)
    case invalid(line: Int, reason: String)
    /// A well-formed row that is not a weigh-in of its own: counted as skipped, never written.
    case skipped(line: Int, ImportSkip)
}

/// Why a well-formed row is not imported.
public enum ImportSkip: Sendable, Equatable, Hashable {
    /// A day of TrendWeight's computed view whose weight TrendWeight interpolated between two weigh-ins.
    case interpolated
    /// A Libra placeholder at local midnight repeating the weigh-in on `line`, later the same day.
    case placeholder(of: Int)

    /// Why, in words.
    public var reason: String {
        switch self {
        case .interpolated: "an interpolated day: TrendWeight computed this weight between two weigh-ins"
        case .placeholder(let line): "a midnight placeholder: line \(line) holds the same weigh-in later that day"
        }
    }
}

/// Where the unit of weights written without one comes from, so that the summary can say which was assumed.
public enum ImportUnitSource: Sendable, Equatable {
    /// Each row names its unit (the W8Trackr CSV).
    case rows
    /// `--unit`.
    case option(WeightUnit)
    /// The file says so: Libra's `#Units:`, a header such as `Weight (kg)`.
    case file(WeightUnit)
    /// The app never writes another unit (openScale 2.x: kg).
    case app(WeightUnit)
    /// The app's default when the file does not say (Libra without `#Units:`).
    case appDefault(WeightUnit)
    /// Nothing says: the preferred unit is assumed.
    case preferred(WeightUnit)

    /// The unit; nil when the rows carry theirs.
    public var unit: WeightUnit? {
        switch self {
        case .rows: nil
        case .option(let u), .file(let u), .app(let u), .appDefault(let u), .preferred(let u): u
        }
    }

    /// Whether the unit is a guess that `--unit` may have to correct.
    public var isAssumed: Bool {
        switch self {
        case .appDefault, .preferred: true
        case .rows, .option, .file, .app: false
        }
    }
}

/// Reads the delimited formats (everything but the JSON backup) as bytes arrive: it finds the format from the
/// first lines when asked to, maps the columns by their header names, and turns each data row into an `ImportRow`.
public struct DelimitedImport: Sendable {
    public let options: ImportOptions
    /// The format asked for, or the one detected once the header has been read.
    public private(set) var format: ImportFormat?
    /// Whether the format was detected rather than given.
    public let detecting: Bool

    private var held: [UInt8] = []
    private var reader: CSVReader?
    private var layout: ImportLayout?
    private var placeholders: MidnightPlaceholders?
    /// The maximum held back while looking for the header: comment lines before it are short.
    static let headerSearchLimit = 64 * 1024

    /// `format` nil means auto-detection; `.w8JSON` is not delimited and is refused.
    public init(format: ImportFormat?, options: ImportOptions) {
        precondition(format != .w8JSON, "the JSON backup is not a delimited format")
        self.format = format
        self.detecting = format == nil
        self.options = options
    }

    /// The format and its version or view, such as `TrendWeight export (computed view)`, once the header is read.
    public var formatName: String? { layout?.name ?? format?.displayName }

    /// Where the unit of weights without one comes from, once the header is read.
    public var unitSource: ImportUnitSource? { layout?.unitSource(options) }

    /// The rows completed by `bytes`.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws -> [ImportRow] {
        guard reader != nil else {
            held.append(contentsOf: bytes)
            guard let prefix = HeaderPrefix(held, complete: false) else {
                if held.count > DelimitedImport.headerSearchLimit { throw W8CoreError.importNoHeader }
                return []
            }
            return try start(prefix)
        }
        return rows(reader!.feed(bytes))
    }

    /// The rows left at the end of the input.
    public mutating func finish() throws -> [ImportRow] {
        var rows: [ImportRow] = []
        if reader == nil {
            guard let prefix = HeaderPrefix(held, complete: true) else { return [] }  // nothing but blanks
            rows = try start(prefix)
        }
        rows += self.rows(reader!.finish())
        return rows + (placeholders?.finish() ?? [])
    }

    private mutating func start(_ prefix: HeaderPrefix) throws -> [ImportRow] {
        let chosen = try format ?? ImportLayout.detect(prefix, options: options)
        format = chosen
        let layout = try ImportLayout(format: chosen, prefix: prefix, options: options)
        self.layout = layout
        if chosen == .libra { placeholders = MidnightPlaceholders(calendar: options.calendar) }
        reader = CSVReader(separator: layout.separator, comment: chosen == .libra ? UInt8(ascii: "#") : nil)
        let bytes = held
        held = []
        return rows(reader!.feed(bytes))
    }

    private mutating func rows(_ records: [CSVRecord]) -> [ImportRow] {
        guard let layout else { return [] }
        var rows: [ImportRow] = []
        rows.reserveCapacity(records.count)
        for record in records where record.line != layout.headerLine {
            let row = layout.row(record, options: options)
            if placeholders != nil {
                rows += placeholders!.take(row)
            } else {
                rows.append(row)
            }
        }
        return rows
    }
}

/// Older Libra databases hold many weigh-ins twice: a placeholder at local midnight and the real weigh-in, with
/// the same weight, later the same day. The placeholder is skipped when the real one is in the file and the
/// placeholder adds nothing to it (no other note or body fat); a midnight entry alone is a weigh-in.
///
/// Rows of one local day are compared as they stream by: a midnight row waits until its day has passed.
struct MidnightPlaceholders: Sendable {
    let calendar: Calendar
    private var day: DateComponents?
    /// The day's weigh-ins that are not at midnight.
    private var seen: [(line: Int, entry: WeightEntry)] = []
    /// The day's midnight row, not yet matched.
    private var waiting: (line: Int, entry: WeightEntry)?

    init(calendar: Calendar) { self.calendar = calendar }

    mutating func take(_ row: ImportRow) -> [ImportRow] {
        guard case .entry(let line, let entry) = row else { return [row] }
        var out: [ImportRow] = []
        let entryDay = calendar.dateComponents([.era, .year, .month, .day], from: entry.date)
        if entryDay != day {
            out += finish()
            day = entryDay
        }
        if calendar.startOfDay(for: entry.date) == entry.date {
            if let real = seen.first(where: { Self.repeats(entry, $0.entry) }) {
                return out + [.skipped(line: line, .placeholder(of: real.line))]
            }
            if let earlier = waiting { out.append(.entry(line: earlier.line, earlier.entry)) }
            waiting = (line, entry)
            return out
        }
        if let placeholder = waiting, Self.repeats(placeholder.entry, entry) {
            out.append(.skipped(line: placeholder.line, .placeholder(of: line)))
            waiting = nil
        }
        seen.append((line, entry))
        return out + [row]
    }

    /// The midnight row still waiting: no weigh-in of its day repeated it.
    mutating func finish() -> [ImportRow] {
        defer { (waiting, seen, day) = (nil, [], nil) }
        return waiting.map { [.entry(line: $0.line, $0.entry)] } ?? []
    }

    /// Whether `placeholder` is `real` again with nothing of its own.
    static func repeats(_ placeholder: WeightEntry, _ real: WeightEntry) -> Bool {
        placeholder.weight == real.weight && (placeholder.note == nil || placeholder.note == real.note)
            && (placeholder.bodyFatPercent == nil || placeholder.bodyFatPercent == real.bodyFatPercent)
    }
}

/// The first lines of a file, up to and including the first that is neither blank nor a `#` comment.
struct HeaderPrefix {
    /// The `#` lines before it, without the `#`.
    var comments: [String]
    /// The first line that is not blank or a comment, and its 1-based line number.
    var first: String
    var firstLine: Int

    init?(_ bytes: [UInt8], complete: Bool) {
        var start = bytes.starts(with: CSVReader.byteOrderMark) ? 3 : 0
        var line = 1
        comments = []
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
            if end == bytes.count, !complete { return nil }
            let text = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#") {
                comments.append(String(text.dropFirst()))
            } else if !text.isEmpty {
                first = text
                firstLine = line
                return
            }
            if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\r"), bytes[end + 1] == UInt8(ascii: "\n") {
                end += 1
            }
            start = end + 1
            line += 1
        }
        // Only comments (a Libra export without entries): they are the header.
        guard complete, !comments.isEmpty else { return nil }
        (first, firstLine) = ("", 0)
    }
}

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

    /// Libra's columns up to version 5; version 6 adds `muscle mass;muscle mass trend` before `log`.
    static let libraColumns = ["date", "weight", "weight trend", "body fat", "body fat trend", "log"]
    static let libra6Columns = Array(libraColumns.dropLast()) + ["muscle mass", "muscle mass trend", "log"]
    static let trendweightRawColumns: Set<String> = ["date", "time", "weight", "body fat %"]
    static let trendweightComputedColumns: Set<String> = ["actual weight", "weight is interpolated"]

    /// The format a file's first lines show, or an error quoting the line that fits none.
    static func detect(_ prefix: HeaderPrefix, options: ImportOptions) throws -> ImportFormat {
        if prefix.comments.contains(where: {
            let comment = $0.lowercased()
            return comment.hasPrefix("units:") || comment.hasPrefix("version:") || isLibraHeader($0)
        }) || isLibraHeader(prefix.first) {
            return .libra
        }
        let raw = fields(prefix.first, separator: separator(prefix.first))
        let header = raw.map { $0.lowercased() }
        if header.starts(with: ["id", "date", "weight", "unit"]) { return .w8CSV }
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
        throw W8CoreError.importFormatUnknown(prefix.first)
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

    /// A line's fields, unquoted and trimmed.
    static func fields(_ line: String, separator: UInt8) -> [String] {
        var reader = CSVReader(separator: separator)
        return (reader.feed(Array(line.utf8)) + reader.finish()).first?.fields ?? []
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

    init(format: ImportFormat, prefix: HeaderPrefix, options: ImportOptions) throws {
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
        columnCount = header.count
        zeroFatIsMissing = format != .w8CSV && format != .generic
        (date, weight) = (0, 1)
        func column(_ names: String...) throws -> Int {
            guard let index = header.firstIndex(where: names.contains) else {
                throw W8CoreError.importColumnMissing(column: names[0], format: format.rawValue)
            }
            return index
        }
        func optional(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        switch format {
        case .w8CSV:
            (date, weight, unit) = (try column("date"), try column("weight"), try column("unit"))
            (note, bodyFat) = (optional("note"), optional("body_fat_percent"))
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
        case .w8JSON:
            preconditionFailure("the JSON backup is not a delimited format")
        }
        if let declaredUnit, let unit = options.unit, unit != declaredUnit {
            throw W8CoreError.importUnitConflict(file: declaredUnit, option: unit)
        }
    }

    /// Where the unit of weights without one comes from: `--unit`, else what the file says, else the app's
    /// own, else the preferred unit.
    func unitSource(_ options: ImportOptions) -> ImportUnitSource {
        if format == .w8CSV { return .rows }
        if let unit = options.unit { return .option(unit) }
        if let declaredUnit { return .file(declaredUnit) }
        if let appUnit { return appUnit.always ? .app(appUnit.unit) : .appDefault(appUnit.unit) }
        return .preferred(options.preferredUnit)
    }

    /// A record as an entry, a row that is no weigh-in, or the reason it cannot be read.
    func row(_ record: CSVRecord, options: ImportOptions) -> ImportRow {
        do {
            let fields = try fitted(record.fields)
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
        default: throw W8CoreError.importFlagInvalid(column: column, value: text)
        }
    }

    /// The row's fields, one per header column. A row with more was split at commas inside values: it is
    /// rebuilt when decimal commas explain every extra field in one way only (`194,2` → `194.2`), else refused.
    func fitted(_ fields: [String]) throws -> [String] {
        guard fields.count > columnCount, columnCount > 0 else { return fields }
        if separator == UInt8(ascii: ","), let rebuilt = DecimalCommas.rebuild(fields, count: columnCount) {
            return rebuilt
        }
        throw W8CoreError.importFieldCount(
            found: fields.count, expected: columnCount, separator: Character(UnicodeScalar(separator)))
    }

    func entry(_ fields: [String], options: ImportOptions) throws -> WeightEntry {
        func field(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let text = fields[index]
            return text.isEmpty ? nil : text
        }
        guard let dateText = field(date) else { throw W8CoreError.importFieldMissing("date") }
        guard let weightText = field(weight) else { throw W8CoreError.importFieldMissing("weight") }
        var when = dateText
        if let time, let timeText = field(time), !dateText.contains(":") { when += " " + timeText }
        let weight: Weight
        if let unit, format == .w8CSV {
            guard let unitText = field(unit) else { throw W8CoreError.importFieldMissing("unit") }
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
        return WeightEntry(
            weight: weight,
            date: try ImportDates.parse(
                when, pattern: format == .w8CSV ? nil : options.datePattern, options: options),
            note: try WeightInput.note(field(note)), bodyFatPercent: fat)
    }
}

/// Rebuilds the decimal commas of a row that a comma-separated file split apart: TrendWeight writes numbers in
/// the browser's language, so a German download holds `2025-03-01,194,2,No,…` under a header of fewer fields.
enum DecimalCommas {
    /// `fields` with adjacent pairs of digit-only fragments joined as `whole.fraction` so that `count` fields are
    /// left, when exactly one choice of pairs does it; nil when none does or several do.
    static func rebuild(_ fields: [String], count: Int) -> [String]? {
        let joins = fields.count - count
        guard joins > 0 else { return nil }
        let digits = fields.map { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        func joinable(_ i: Int) -> Bool { i + 1 < fields.count && digits[i] && digits[i + 1] }
        // ways[i][j]: the choices of j pairs among fields i…, counted up to 2 (more than one is ambiguous).
        let n = fields.count
        var ways = Array(repeating: Array(repeating: 0, count: joins + 1), count: n + 2)
        for i in stride(from: n, through: 0, by: -1) {
            for j in 0...joins {
                if i == n {
                    ways[i][j] = j == 0 ? 1 : 0
                    continue
                }
                var total = ways[i + 1][j]
                if j > 0, joinable(i) { total += ways[i + 2][j - 1] }
                ways[i][j] = min(total, 2)
            }
        }
        guard ways[0][joins] == 1 else { return nil }
        var rebuilt: [String] = []
        var (i, j) = (0, joins)
        while i < n {
            if j > 0, joinable(i), ways[i + 2][j - 1] == 1, ways[i + 1][j] == 0 {
                rebuilt.append(fields[i] + "." + fields[i + 1])
                (i, j) = (i + 2, j - 1)
            } else {
                rebuilt.append(fields[i])
                i += 1
            }
        }
        return rebuilt
    }
}

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
                throw W8CoreError.datePatternInvalid(text)
            } else {
                parts.append(.literal(first))
                rest = rest.dropFirst()
            }
        }
        guard parts.count { $0 == .year } == 1, parts.count { $0 == .month } == 1, parts.count { $0 == .day } == 1
        else { throw W8CoreError.datePatternInvalid(text) }
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
            throw W8CoreError.dateNotInPattern(text, pattern.text)
        }
        // An ISO date (`2024-03-26…`, four digits and a dash) cannot be a dotted one: skip trying.
        let iso = trimmed.utf8.count > 4 && trimmed.utf8.dropFirst(4).first == UInt8(ascii: "-")
        if !iso, let date = try parse(trimmed, pattern: dotted, original: text, options: options) { return date }
        if isSlashed(trimmed) { throw W8CoreError.dateAmbiguous(text) }
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
