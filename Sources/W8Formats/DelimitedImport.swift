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
    /// The options rows are read with: the iPhone app's dates, which name no zone, are UTC.
    private var rowOptions: ImportOptions
    /// The maximum held back while looking for the header: comment lines before it are short.
    public static let headerSearchLimit = 64 * 1024

    /// `format` nil means auto-detection; `.w8JSON` is not delimited and is refused.
    public init(format: ImportFormat?, options: ImportOptions) {
        precondition(format != .w8JSON && format != .gadgetbridge, "the JSON backup and SQLite are not delimited")
        self.format = format
        self.detecting = format == nil
        self.options = options
        rowOptions = options
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
        return rows + (placeholders?.finish() ?? [])
    }

    private mutating func start(_ prefix: HeaderPrefix) throws -> [ImportRow] {
        let chosen = try format ?? ImportLayout.detect(prefix, options: options)
        format = chosen
        let layout = try ImportLayout(format: chosen, prefix: prefix, options: options)
        self.layout = layout
        if chosen == .libra { placeholders = MidnightPlaceholders(calendar: options.calendar) }
        if chosen == .w8trackrIOS { rowOptions = options.readingUTC }
        reader = CSVReader(separator: layout.separator, comment: chosen == .libra ? UInt8(ascii: "#") : nil)
        let bytes = held
        held = []
        return rows(try reader!.feed(bytes))
    }

    private mutating func rows(_ records: [CSVRecord]) -> [ImportRow] {
        guard let layout else { return [] }
        var rows: [ImportRow] = []
        rows.reserveCapacity(records.count)
        for record in records where record.line != layout.headerLine {
            let row = layout.row(record, options: rowOptions)
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
