import CZlib
import Foundation
import W8Core

/// A journal line: one `SyncEvent` as one line of JSON, its fields in a fixed order and its checksum last.
///
///     {"id":"k2m4p6q7.12","hlc":[1764586800000,0],"put":"weight","ent":"a1b2c3d4e5","data":{"t":1764586800000,"u":"lb","w":"182.4"},"sum":"5f1c0a9e"}
///
/// - `id` is the device's id and its sequence number; `hlc` the hybrid logical clock, milliseconds and counter;
/// - `put` or `del` names the operation and the kind, `ent` the entity's stable id, `data` (a `put`'s only) its
///   fields, sorted, each a string or a whole number;
/// - `sum` is the CRC-32 of the line's canonical text before `,"sum"`, so that a line the sync engine brought half
///   written, or changed, is never merged.
public enum SyncJournalLine {
    /// The line, without its newline.
    public static func encode(_ event: SyncEvent) -> String { encodeWithSum(event).line }

    /// The event of `line` (without its newline); nil when it is not a whole, unchanged journal line.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> SyncEvent? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let id = object["id"] as? String, let sum = object["sum"] as? String,
            let hlc = object["hlc"] as? [Any], hlc.count == 2, let ms = integer(hlc[0]), let counter = integer(hlc[1]),
            let entity = object["ent"] as? String
        else { return nil }
        let dot = id.lastIndex(of: ".")
        guard let dot, let sequence = Int64(id[id.index(after: dot)...]), sequence > 0,
            SyncIdentity.isDevice(id[..<dot])
        else { return nil }
        let operation: SyncOperation
        let kindName: String
        if let put = object["put"] as? String, object["del"] == nil {
            (operation, kindName) = (.put, put)
        } else if let del = object["del"] as? String, object["put"] == nil, object["data"] == nil {
            (operation, kindName) = (.del, del)
        } else {
            return nil
        }
        guard let kind = SyncKind(rawValue: kindName), object.count == (operation == .put ? 6 : 5) else { return nil }
        var data: [String: SyncValue] = [:]
        if operation == .put {
            guard let fields = object["data"] as? [String: Any] else { return nil }
            for (key, value) in fields {
                if let text = value as? String {
                    data[key] = .text(text)
                } else if let number = integer(value) {
                    data[key] = .integer(number)
                } else {
                    return nil
                }
            }
        }
        let event = SyncEvent(
            device: String(id[..<dot]), sequence: sequence, clock: HybridClock(milliseconds: ms, counter: counter),
            operation: operation, kind: kind, entity: entity, data: data)
        return checksum(canonicalBody(event)) == sum ? event : nil
    }

    static func integer(_ value: Any) -> Int64? {
        guard !(value is String), let number = value as? NSNumber else { return nil }
        let integer = number.int64Value
        return NSNumber(value: integer) == number ? integer : nil
    }

    static func canonicalBody(_ event: SyncEvent) -> String {
        var text = "{\"id\":\"" + event.id + "\",\"hlc\":[" + String(event.clock.milliseconds) + ","
        text += String(event.clock.counter) + "],\"" + event.operation.rawValue + "\":\"" + event.kind.rawValue
        text += "\",\"ent\":" + quoted(event.entity)
        if event.operation == .put {
            text += ",\"data\":{"
            for (index, key) in event.data.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                text += quoted(key) + ":"
                switch event.data[key]! {
                case .text(let value): text += quoted(value)
                case .integer(let value): text += String(value)
                }
            }
            text += "}"
        }
        return text
    }

    /// The checksum an event's line ends with.
    public static func sum(_ event: SyncEvent) -> String { checksum(canonicalBody(event)) }

    /// The line and its checksum.
    public static func encodeWithSum(_ event: SyncEvent) -> (line: String, sum: String) {
        let body = canonicalBody(event)
        let sum = checksum(body)
        return (body + ",\"sum\":\"" + sum + "\"}", sum)
    }

    static func checksum(_ text: String) -> String {
        let crc = Array(text.utf8).withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) }
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// `text` as a JSON string (`JSONText.quoted`).
    public static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}

/// What reading a journal's new bytes found.
public struct SyncJournalChunk: Sendable {
    public var events: [SyncEvent] = []
    /// How many of the bytes were read for good: up to the end of the last line merged or skipped. What follows
    /// (a last line without its newline, or whose checksum fails) is left for the next merge.
    public var consumed = 0
    /// Lines inside the bytes, followed by more lines, that are not journal lines: they are skipped, and named.
    public var badLines: [Int] = []
    /// Whether bytes were left waiting to be complete.
    public var waiting: Bool = false
}

extension SyncJournalLine {
    /// The whole lines of `bytes`, which start at a line's start: a last line without its newline, or a last line
    /// whose checksum fails, is left unread (the sync engine may still be completing it); a bad line followed by
    /// good ones is skipped and its offset named.
    public static func read(_ bytes: some RandomAccessCollection<UInt8>, startingAt base: Int = 0) -> SyncJournalChunk {
        var chunk = SyncJournalChunk()
        var start = bytes.startIndex
        var offset = 0
        var pendingBad: [Int] = []
        while start < bytes.endIndex {
            guard let newline = bytes[start...].firstIndex(of: 10) else {
                chunk.waiting = true
                break
            }
            let length = bytes.distance(from: start, to: newline) + 1
            if let event = decode(bytes[start..<newline]) {
                chunk.events.append(event)
                chunk.badLines += pendingBad
                pendingBad = []
                offset += length
                chunk.consumed = offset
            } else if bytes[start..<newline].allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                offset += length
                if pendingBad.isEmpty { chunk.consumed = offset }
            } else {
                pendingBad.append(base + offset)
                offset += length
            }
            start = bytes.index(after: newline)
        }
        if !pendingBad.isEmpty { chunk.waiting = true }
        return chunk
    }
}

/// The names a sync folder holds, as the journals read them.
public enum SyncFileName {
    /// The journal of one month: `YYYY-MM.jsonl`.
    public static func journal(year: Int, month: Int) -> String {
        (year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "") + "\(year)-"
            + (month < 10 ? "0" : "") + "\(month).jsonl"
    }

    /// Whether `name` is read as journal input: a month's journal, or a copy the sync engine made of one in a
    /// conflict (Syncthing's `2026-12.sync-conflict-20261201-120000-ABCDEFG.jsonl`, Nextcloud's
    /// `2026-12 (conflicted copy 2026-12-01 120000).jsonl`). The engine's temporary files (`.syncthing.*.tmp`,
    /// `~syncthing~*`, anything hidden) are never read.
    public static func isJournalInput(_ name: String) -> Bool {
        guard name.hasSuffix(".jsonl"), !name.hasPrefix("."), !name.hasPrefix("~"), !name.hasSuffix(".tmp") else {
            return false
        }
        let bytes = Array(name.utf8)
        guard bytes.count >= 13 else { return false }
        let digits = [0, 1, 2, 3, 5, 6]
        return digits.allSatisfy { (48...57).contains(bytes[$0]) } && bytes[4] == UInt8(ascii: "-")
    }

    /// Whether `name` is a conflict copy, for `w8 sync status`.
    public static func isConflictCopy(_ name: String) -> Bool {
        isJournalInput(name) && name != String(name.prefix(7)) + ".jsonl"
    }
}

/// JSON's string syntax, written one way everywhere: the journal's lines and the CLI's JSON output.
public enum JSONText {
    /// `text` as a JSON string: quote, backslash and control characters escaped, everything else as it is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
