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

/// A data row of an import file: an entry validated as `w8 add` validates one, or why it is not one.
public enum ImportRow: Sendable, Equatable {
    case entry(line: Int, WeightEntry)
    case invalid(line: Int, reason: String)
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
    /// The maximum held back while looking for the header: comment lines before it are short.
    static let headerSearchLimit = 64 * 1024

    /// `format` nil means auto-detection; `.w8JSON` is not delimited and is refused.
    public init(format: ImportFormat?, options: ImportOptions) {
        precondition(format != .w8JSON, "the JSON backup is not a delimited format")
        self.format = format
        self.detecting = format == nil
        self.options = options
    }

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
        return rows + self.rows(reader!.finish())
    }

    private mutating func start(_ prefix: HeaderPrefix) throws -> [ImportRow] {
        let chosen = try format ?? ImportLayout.detect(prefix, options: options)
        format = chosen
        let layout = try ImportLayout(format: chosen, prefix: prefix, options: options)
        self.layout = layout
        reader = CSVReader(separator: layout.separator, comment: chosen == .libra ? UInt8(ascii: "#") : nil)
        let bytes = held
        held = []
        return rows(reader!.feed(bytes))
    }

    private mutating func rows(_ records: [CSVRecord]) -> [ImportRow] {
        guard let layout else { return [] }
        var rows: [ImportRow] = []
        rows.reserveCapacity(records.count)
        for record in records {
            if record.line == layout.headerLine { continue }
            do {
                rows.append(.entry(line: record.line, try layout.entry(record.fields, options: options)))
            } catch {
                rows.append(.invalid(line: record.line, reason: error.localizedDescription))
            }
        }
        return rows
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
            if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\r"), bytes[end + 1] == UInt8(ascii: "\n") { end += 1 }
            start = end + 1
            line += 1
        }
        // Only comments (a Libra export without entries): they are the header.
        guard complete, !comments.isEmpty else { return nil }
        (first, firstLine) = ("", 0)
    }
}

/// Where a format keeps each value, found from its header.
struct ImportLayout: Sendable {
    var format: ImportFormat
    var separator: UInt8
    /// The header's line, skipped as data; nil when the file has none.
    var headerLine: Int?
    var date: Int
    /// A separate time-of-day column (openScale 3.x, TrendWeight).
    var time: Int?
    var weight: Int
    /// The per-row unit column of the W8Trackr CSV.
    var unit: Int?
    var note: Int?
    var bodyFat: Int?
    /// The unit the file declares (Libra's `#Units:`).
    var declaredUnit: WeightUnit?
    /// Zero in a body-fat column means "not measured" (openScale, Libra, TrendWeight).
    var zeroFatIsMissing: Bool
    var columnCount: Int

    static let libraColumns = ["date", "weight", "weight trend", "body fat", "body fat trend", "log"]
    static let trendweightColumns: Set<String> = ["date", "time", "weight", "body fat %"]

    /// The format a file's first lines show, or an error quoting the line that fits none.
    static func detect(_ prefix: HeaderPrefix, options: ImportOptions) throws -> ImportFormat {
        if prefix.comments.contains(where: { $0.lowercased().hasPrefix("units:") || isLibraHeader($0) })
            || isLibraHeader(prefix.first)
        {
            return .libra
        }
        let raw = fields(prefix.first, separator: separator(prefix.first))
        let header = raw.map { $0.lowercased() }
        if header.starts(with: ["id", "date", "weight", "unit"]) { return .w8CSV }
        if header.contains("datetime"), header.contains("weight") { return .openscale }
        if Set(header) == trendweightColumns { return .trendweight }
        if header.contains("date"), header.contains("time"), header.contains("weight") { return .openscale }
        if genericColumns(header) != nil { return .generic }
        // No header: a first line of date and weight is generic data.
        if raw.count >= 2, (try? ImportDates.parse(raw[0], pattern: options.datePattern, options: options)) != nil
            || ImportDates.isSlashed(raw[0])
        {
            return .generic
        }
        throw W8CoreError.importFormatUnknown(prefix.first)
    }

    static func isLibraHeader(_ line: String) -> Bool { line.lowercased().hasPrefix("date;weight;weight trend") }

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
        separator = format == .libra ? UInt8(ascii: ";") : ImportLayout.separator(prefix.first)
        let header = ImportLayout.names(prefix.first, separator: separator)
        columnCount = header.count
        zeroFatIsMissing = format != .w8CSV && format != .generic
        func column(_ names: String...) throws -> Int {
            guard let index = header.firstIndex(where: names.contains) else {
                throw W8CoreError.importColumnMissing(column: names[0], format: format.rawValue)
            }
            return index
        }
        func optional(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        headerLine = prefix.firstLine
        switch format {
        case .w8CSV:
            (date, weight, unit) = (try column("date"), try column("weight"), try column("unit"))
            (note, bodyFat) = (optional("note"), optional("body_fat_percent"))
        case .openscale:
            if let dateTime = optional("datetime") {
                date = dateTime
            } else {
                (date, time) = (try column("date"), try column("time"))
            }
            weight = try column("weight")
            (note, bodyFat) = (optional("comment"), optional("fat", "body_fat"))
        case .trendweight:
            (date, time, weight, bodyFat) = (try column("date"), try column("time"), try column("weight"), optional("body fat %"))
        case .libra:
            (date, weight, bodyFat, note) = (0, 1, 3, 5)
            columnCount = ImportLayout.libraColumns.count
            // The header is a comment; a first line that is data is read as data.
            headerLine = ImportLayout.isLibraHeader(prefix.first) ? prefix.firstLine : nil
            for comment in prefix.comments {
                let parts = comment.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0].lowercased() == "units" { declaredUnit = try WeightInput.unit(parts[1]) }
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

    /// The unit of weights without one: `--unit`, else what the file says, else the format's own, else the
    /// preferred unit.
    func defaultUnit(_ options: ImportOptions) -> WeightUnit {
        if let unit = options.unit ?? declaredUnit { return unit }
        return format == .openscale || format == .libra ? .kg : options.preferredUnit
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
            weight = try WeightInput.weight(
                weightText, unit: options.unit ?? declaredUnit, defaultUnit: defaultUnit(options))
        }
        var fat: Double?
        if let fatText = field(bodyFat), !(zeroFatIsMissing && Double(fatText.replacingOccurrences(of: ",", with: ".")) == 0) {
            fat = try WeightInput.bodyFat(fatText)
        }
        return WeightEntry(
            weight: weight,
            date: try ImportDates.parse(
                when, pattern: format == .w8CSV ? nil : options.datePattern, options: options),
            note: try WeightInput.note(field(note)), bodyFatPercent: fat)
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
        if let date = try parse(trimmed, pattern: dotted, original: text, options: options) { return date }
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
