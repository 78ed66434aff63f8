import Foundation
import W8Core

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
    private var days = RepeatedDays()
    /// Samsung's metadata line, which is no record.
    private var metadataLine: Int?
    /// The file's name, for formats whose files share a header (Withings' `aggregates_*.csv`).
    public let fileName: String?
    /// The options rows are read with: the iPhone app's dates, which name no zone, are UTC.
    private var rowOptions: ImportOptions
    /// The maximum held back while looking for the header: comment lines before it are short.
    public static let headerSearchLimit = 64 * 1024

    /// `format` nil means auto-detection; `.w8JSON` is not delimited and is refused.
    public init(format: ImportFormat?, options: ImportOptions, fileName: String? = nil) {
        precondition(format != .w8JSON && format != .gadgetbridge, "the JSON backup and SQLite are not delimited")
        self.format = format
        self.fileName = fileName
        self.detecting = format == nil
        self.options = options
        rowOptions = options
    }

    /// The format and its version or view, such as `TrendWeight export (computed view)`, once the header is read.
    public var formatName: String? { layout?.name ?? format?.displayName }

    /// Where the unit of weights without one comes from, once the header is read.
    public var unitSource: ImportUnitSource? {
        layout.flatMap { $0.kind == .weighIn ? $0.unitSource(options) : nil }
    }

    /// The rows completed by `bytes`.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws -> [ImportRow] {
        guard reader != nil else {
            held.append(contentsOf: bytes)
            guard let prefix = HeaderPrefix(held, complete: false) else {
                if held.count > DelimitedImport.headerSearchLimit { throw W8FormatsError.importNoHeader }
                return []
            }
            return try start(prefix)
        }
        return rows(try reader!.feed(bytes))
    }

    /// The rows left at the end of the input.
    public mutating func finish() throws -> [ImportRow] {
        var rows: [ImportRow] = []
        if reader == nil {
            guard let prefix = HeaderPrefix(held, complete: true) else { return [] }  // nothing but blanks
            rows = try start(prefix)
        }
        rows += self.rows(try reader!.finish())
        return rows + (placeholders?.finish() ?? []) + days.finish()
    }

    private mutating func start(_ prefix: HeaderPrefix) throws -> [ImportRow] {
        let chosen = try format ?? ImportLayout.detect(prefix, options: options, fileName: fileName)
        format = chosen
        metadataLine = prefix.metadataLine
        let layout = try ImportLayout(format: chosen, prefix: prefix, options: options, fileName: fileName)
        self.layout = layout
        if chosen == .libra { placeholders = MidnightPlaceholders(calendar: options.calendar) }
        // The iPhone app and Samsung Health write UTC without a zone.
        if [.w8trackrIOS, .samsungHealth].contains(chosen) { rowOptions = options.readingUTC }
        reader = CSVReader(separator: layout.separator, comment: chosen == .libra ? UInt8(ascii: "#") : nil)
        let bytes = held
        held = []
        return rows(try reader!.feed(bytes))
    }

    private mutating func rows(_ records: [CSVRecord]) -> [ImportRow] {
        guard let layout else { return [] }
        var rows: [ImportRow] = []
        rows.reserveCapacity(records.count)
        for record in records where record.line != layout.headerLine && record.line != metadataLine {
            let row = layout.row(record, options: rowOptions)
            if case .activity(let day) = row {
                rows += days.take(day, line: record.line)
            } else if placeholders != nil {
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

/// Days of steps, held to the end of the file: a day given again on a later row is read from that row, and the
/// earlier one is counted as skipped. A file holds one row a day, so this is at most a few thousand.
struct RepeatedDays: Sendable {
    private var held: [CalendarDay: (line: Int, day: ActivityDay)] = [:]

    mutating func take(_ day: ActivityDay, line: Int) -> [ImportRow] {
        let earlier = held.updateValue((line, day), forKey: day.day)
        return earlier.map { [.skipped(line: $0.line, .repeatedDay(by: line))] } ?? []
    }

    /// The days, oldest first.
    mutating func finish() -> [ImportRow] {
        defer { held = [:] }
        return held.values.sorted { $0.day.day < $1.day.day }.map { .activity($0.day) }
    }
}

/// The first lines of a file, up to and including the first that is neither blank nor a `#` comment.
struct HeaderPrefix {
    /// Samsung Health's first line, `com.samsung.health.weight,6305000,1` (its table, version, count), before the
    /// header.
    var metadata: String?
    var metadataLine: Int?
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
            } else if metadata == nil, HeaderPrefix.isSamsungMetadata(text) {
                (metadata, metadataLine) = (text, line)
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
        // Samsung's metadata without a header: nothing to read.
        if metadata != nil { return nil }
        // Only comments (a Libra export without entries): they are the header.
        guard complete, !comments.isEmpty else { return nil }
        (first, firstLine) = ("", 0)
    }
}

extension HeaderPrefix {
    /// `com.samsung.health.weight,6305000,1`: a table name, then numbers; a header's second field is a name.
    static func isSamsungMetadata(_ line: String) -> Bool {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        return fields.count >= 2 && fields[0].lowercased().hasPrefix("com.samsung.") && !fields[0].contains("_time")
            && fields[1].allSatisfy { $0.isASCII && $0.isNumber } && !fields[1].isEmpty
    }
}
