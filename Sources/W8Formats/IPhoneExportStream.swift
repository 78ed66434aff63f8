import Foundation
import W8Core
import W8Text

/// Reads the iPhone W8Trackr app's JSON export as its bytes arrive, an entry at a time, in memory bounded by its
/// largest entry: `{"appVersion", "entries": [{bodyFatPercentage?, date, note?, unit, weight}], "entryCount",
/// "exportDate"}`, keys sorted, dates `2026-01-15T07:30:00` in UTC without a zone (`DataExporter.generateJSON`).
///
/// Each entry is checked as `w8 add` checks its input, and a bad one is a bad row (`line` is its 1-based position
/// in `entries`), so `--skip-invalid` applies. A key the app does not write, or an `entryCount` that the entries
/// do not match, means the file is not the app's export, or not all of it: the whole file is refused.
public struct IPhoneExportStream {
    /// An element of `entries`; the app leaves out the key of a nil value.
    struct Entry: Decodable {
        var date: String?
        var weight: Double?
        var unit: String?
        var note: String?
        var bodyFatPercentage: Double?
    }

    /// The keys the app writes, in its (sorted) order.
    static let keys = ["appVersion", "entries", "entryCount", "exportDate"]

    private var scanner = JSONObjectStream(arrayKey: "entries")
    private let reader: BackupReader
    private let decoder = JSONDecoder()
    private var sawEntries = false
    private var elements = 0
    private var entryCount: Int?
    /// The app's `CFBundleShortVersionString`, once read.
    public private(set) var appVersion: String?

    public init(options: ImportOptions) {
        reader = BackupReader(options: options.readingUTC)
    }

    /// The format and the app version that wrote it, for the summary.
    public var formatName: String {
        let format = "W8Trackr iPhone app JSON"
        // TRANSLATORS: how w8 import read a file; {format} is the format's name, {version} the app's, as 1.4.
        return appVersion.map { tr("{format} (app version {version})", ["format": format, "version": $0]) } ?? format
    }

    /// The entries completed by `bytes`. Throws `W8FormatsError.documentInvalid` (`.iPhoneExport`) when the file is not the app's
    /// export.
    public mutating func feed(_ bytes: [UInt8]) throws -> [ImportRow] {
        let parts: [JSONObjectStream.Part]
        do throws(JSONObjectStream.Malformed) { parts = try scanner.feed(bytes) } catch {
            throw W8FormatsError.documentInvalid(
                .iPhoneExport,
                // TRANSLATORS: who wrote the file, in "more than any entry the app writes": the iPhone app.
                error.reason(maxValueBytes: scanner.maxValueBytes, writer: tr("the app")))
        }
        var rows: [ImportRow] = []
        for part in parts {
            switch part {
            case .member(let key, let value): try member(String(decoding: key, as: UTF8.self), value)
            case .arrayStart: sawEntries = true
            case .element(let index, let value):
                elements += 1
                rows.append(row(index + 1, value))
            }
        }
        return rows
    }

    /// Checks, once the last byte was fed, that the object was closed and held every entry it counts.
    public func finish() throws {
        do throws(JSONObjectStream.Malformed) { try scanner.finish() } catch {
            throw W8FormatsError.documentInvalid(.iPhoneExport, tr("it is not valid JSON"))
        }
        guard sawEntries else {
            // TRANSLATORS: {key} is a JSON key of the file, quoted, as "entries".
            throw W8FormatsError.documentInvalid(.iPhoneExport, tr("it has no {key} array", ["key": "\"entries\""]))
        }
        guard appVersion != nil else {
            // TRANSLATORS: {key} is a JSON key of the file, quoted, as "appVersion".
            throw W8FormatsError.documentInvalid(.iPhoneExport, tr("{key} is missing", ["key": "\"appVersion\""]))
        }
        guard let entryCount else {
            // TRANSLATORS: {key} is a JSON key of the file, quoted, as "entryCount".
            throw W8FormatsError.documentInvalid(.iPhoneExport, tr("{key} is missing", ["key": "\"entryCount\""]))
        }
        guard entryCount == elements else {
            throw W8FormatsError.documentInvalid(
                .iPhoneExport,
                tr(
                    // TRANSLATORS: {countKey} and {arrayKey} are JSON keys of the file, quoted ("entryCount",
                    // "entries"); {count} the number the file gives, {found} the entries it holds.
                    "{countKey} is {count} but {arrayKey} holds {found}; the file is not whole",
                    ["countKey": "\"entryCount\"", "count": entryCount, "arrayKey": "\"entries\"", "found": elements]))
        }
    }

    private mutating func member(_ key: String, _ value: [UInt8]) throws {
        guard Self.keys.contains(key), key != "entries" else {
            throw W8FormatsError.documentInvalid(
                .iPhoneExport,
                key == "entries"
                    // TRANSLATORS: {key} is a JSON key of the file, quoted: "entries".
                    ? tr("{key} is not an array, or comes twice", ["key": "\"entries\""])
                    : tr(
                        // TRANSLATORS: {key} is a JSON key of the file, quoted; {keys} the keys the iPhone app writes.
                        "{key} is not a key the app writes ({keys})",
                        ["key": "\"\(key)\"", "keys": Self.keys.joined(separator: ", ")]))
        }
        do {
            switch key {
            case "appVersion": appVersion = try decoder.decode(String.self, from: Data(value))
            case "entryCount": entryCount = try decoder.decode(Int.self, from: Data(value))
            default: _ = try decoder.decode(String.self, from: Data(value))  // exportDate, not needed
            }
        } catch is DecodingError {
            throw W8FormatsError.documentInvalid(
                // TRANSLATORS: {key} is a JSON key of the file, quoted.
                .iPhoneExport, tr("{key} has a value of the wrong type", ["key": "\"\(key)\""]))
        }
    }

    private func row(_ line: Int, _ value: [UInt8]) -> ImportRow {
        do {
            let item = try decoder.decode(Entry.self, from: Data(value))
            // Read as a backup entry is read, but for its dates in UTC.
            return .entry(
                line: line,
                try reader.entry(
                    BackupDocument.Entry(
                        date: item.date, weight: item.weight, unit: item.unit, note: item.note,
                        bodyFatPercent: item.bodyFatPercentage)))
        } catch let error as DecodingError {
            return .invalid(line: line, reason: BackupDocument.describe(error))
        } catch {
            return .invalid(line: line, reason: error.localizedDescription)
        }
    }
}

extension ImportFormat {
    /// The JSON format whose first key `bytes` show: the iPhone app's export starts with `appVersion` (its keys
    /// are sorted), a w8 backup with `format`. Nil while the first key is not complete.
    public static func jsonFormat(_ bytes: [UInt8]) -> ImportFormat? {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let blanks: [UInt8] = [0x20, 0x0A, 0x0D, 0x09]
        func skipBlanks() { while i < bytes.count, blanks.contains(bytes[i]) { i += 1 } }
        skipBlanks()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return i < bytes.count ? .w8JSON : nil }
        i += 1
        skipBlanks()
        guard i < bytes.count else { return nil }
        let key = Array("\"appVersion\"".utf8)
        guard bytes[i...].starts(with: key) else {
            // Not yet enough bytes to tell, or another key.
            return bytes.count - i < key.count && key.starts(with: bytes[i...]) ? nil : .w8JSON
        }
        return .w8trackrIOS
    }
}
