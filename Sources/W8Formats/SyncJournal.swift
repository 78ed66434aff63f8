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

    /// The event of `line` (without its newline); nil when it is not a whole, unchanged journal line: its checksum
    /// must match, and its text must be the canonical text `encode` writes for the event it holds, byte for byte.
    ///
    /// Read by hand, not by JSONSerialization: a merge of one new line cost `w8 status` half a millisecond in
    /// Foundation's parser and in the dynamic casts of its `Any` values (bench/README.md, "Issue 38").
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> SyncEvent? {
        let bytes = Array(line)
        let tail = Array(",\"sum\":\"".utf8)
        // The body, then `,"sum":"` and eight hexadecimal digits, then `"}`.
        let bodyEnd = bytes.count - tail.count - 10
        guard bodyEnd > 0, bytes[bodyEnd..<(bodyEnd + tail.count)].elementsEqual(tail),
            bytes[bytes.count - 2] == UInt8(ascii: "\""), bytes[bytes.count - 1] == UInt8(ascii: "}")
        else { return nil }
        let sum = String(decoding: bytes[(bodyEnd + tail.count)..<(bytes.count - 2)], as: UTF8.self)
        let body = bytes[..<bodyEnd]
        guard checksum(body) == sum, var reader = Optional(LineReader(bytes: bytes, end: bodyEnd)),
            reader.expect("{\"id\":"), let id = reader.string(), reader.expect(",\"hlc\":["),
            let ms = reader.integer(), reader.expect(","), let counter = reader.integer(), reader.expect("],\""),
            let operation = reader.word().flatMap(SyncOperation.init(rawValue:)), reader.expect("\":"),
            let kind = reader.string().flatMap(SyncKind.init(rawValue:)), reader.expect(",\"ent\":"),
            let entity = reader.string()
        else { return nil }
        var data: [String: SyncValue] = [:]
        if operation == .put {
            guard reader.expect(",\"data\":{") else { return nil }
            while !reader.expect("}") {
                guard data.isEmpty || reader.expect(","), let key = reader.string(), reader.expect(":") else {
                    return nil
                }
                if let text = reader.string() {
                    data[key] = .text(text)
                } else if let number = reader.integer() {
                    data[key] = .integer(number)
                } else {
                    return nil
                }
            }
        }
        let dot = id.lastIndex(of: ".")
        guard reader.atEnd, let dot, let sequence = Int64(id[id.index(after: dot)...]), sequence > 0,
            SyncIdentity.isDevice(id[..<dot])
        else { return nil }
        let event = SyncEvent(
            device: String(id[..<dot]), sequence: sequence, clock: HybridClock(milliseconds: ms, counter: counter),
            operation: operation, kind: kind, entity: entity, data: data)
        // Any other spelling of the same JSON (spaces, key order, escapes, "1e3") is no line w8 wrote.
        return canonicalBody(event).utf8.elementsEqual(body) ? event : nil
    }

    /// A cursor over a journal line's body: JSON strings, whole numbers and fixed punctuation.
    struct LineReader {
        let bytes: [UInt8]
        let end: Int
        var at = 0

        var atEnd: Bool { at == end }

        /// Steps over `text` if it comes next.
        mutating func expect(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard end - at >= count else { return false }
            for i in 0..<count where bytes[at + i] != text.utf8Start[i] { return false }
            at += count
            return true
        }

        /// `put` or `del`: the letters up to the next quote.
        mutating func word() -> String? {
            var i = at
            while i < end, bytes[i] >= UInt8(ascii: "a"), bytes[i] <= UInt8(ascii: "z") { i += 1 }
            defer { at = i }
            return String(decoding: bytes[at..<i], as: UTF8.self)
        }

        /// A whole number: an optional minus and digits, within Int64.
        mutating func integer() -> Int64? {
            var i = at
            if i < end, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let digits = i
            while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            guard i > digits, let value = Int64(String(decoding: bytes[at..<i], as: UTF8.self)) else { return nil }
            at = i
            return value
        }

        /// A JSON string, its escapes decoded; nil, without moving, when none comes next or it is not valid.
        mutating func string() -> String? {
            guard at < end, bytes[at] == UInt8(ascii: "\"") else { return nil }
            var i = at + 1
            var scalars = String.UnicodeScalarView()
            var plain = i
            func flush(_ upTo: Int) {
                scalars.append(contentsOf: String(decoding: bytes[plain..<upTo], as: UTF8.self).unicodeScalars)
            }
            while i < end {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    flush(i)
                    at = i + 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(i)
                    guard i + 1 < end else { return nil }
                    let escaped: Unicode.Scalar?
                    switch bytes[i + 1] {
                    case UInt8(ascii: "\""): escaped = "\""
                    case UInt8(ascii: "\\"): escaped = "\\"
                    case UInt8(ascii: "n"): escaped = "\n"
                    case UInt8(ascii: "t"): escaped = "\t"
                    case UInt8(ascii: "r"): escaped = "\r"
                    case UInt8(ascii: "u"):
                        guard i + 6 <= end,
                            let code = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
                        else { return nil }
                        escaped = Unicode.Scalar(code)
                        i += 4
                    default: escaped = nil
                    }
                    guard let escaped else { return nil }
                    scalars.append(escaped)
                    i += 2
                    plain = i
                case let byte where byte < 0x20: return nil
                default: i += 1
                }
            }
            return nil
        }
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

    static func checksum(_ text: String) -> String { checksum(Array(text.utf8)[...]) }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        let crc = bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) }
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
