import Foundation
import W8Core

/// One record of a delimited file: its fields, unquoted, and the line it starts on (1-based).
public struct CSVRecord: Sendable, Equatable {
    public var line: Int
    public var fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// Splits delimited text (RFC 4180) into records as bytes arrive, so a file of any length streams through in
/// bounded memory.
///
/// Quoted fields may hold the separator, doubled quotes and line breaks. A line ends with LF, CRLF or a lone CR.
/// A UTF-8 byte-order mark at the very start is dropped. Lines that are empty, or whose first byte is the comment
/// byte, are not records. Invalid UTF-8 is repaired with U+FFFD rather than refused: the field's own validation
/// will name it.
public struct CSVReader: Sendable {
    public let separator: UInt8
    public let comment: UInt8?

    private var field: [UInt8] = []
    private var fields: [String] = []
    private var inQuotes = false
    /// The previous byte closed a quoted section: a quote now is an escaped quote.
    private var quoteClosed = false
    private var fieldWasQuoted = false
    private var afterCR = false
    private var atLineStart = true
    private var inComment = false
    private var line = 1
    private var recordLine = 1
    private var bomChecked = false
    /// The first bytes, held back until it is clear whether they are a byte-order mark.
    private var bom: [UInt8] = []
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public init(separator: UInt8 = UInt8(ascii: ","), comment: UInt8? = nil) {
        self.separator = separator
        self.comment = comment
    }

    /// The records completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [CSVRecord] {
        var records: [CSVRecord] = []
        // Called from other modules, this generic function is not specialized: each byte of a plain sequence is a
        // witness-table call (a tenth of an import). Bytes in memory (Data, arrays) are read as a buffer.
        let done = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { consume(byte, into: &records) }
        }
        if done == nil {
            for byte in bytes { consume(byte, into: &records) }
        }
        return records
    }

    /// The last record, when the text does not end with a line break.
    public mutating func finish() -> [CSVRecord] {
        var records: [CSVRecord] = []
        if !bomChecked { replayHeldBytes(into: &records) }
        if !atLineStart || inQuotes { endRecord(into: &records) }
        return records
    }

    private mutating func consume(_ byte: UInt8, into records: inout [CSVRecord]) {
        if !bomChecked {
            bom.append(byte)
            if bom == Array(CSVReader.byteOrderMark.prefix(bom.count)) {
                if bom.count == 3 { (bomChecked, bom) = (true, []) }
                return
            }
            replayHeldBytes(into: &records)
            return
        }
        if afterCR {
            afterCR = false
            if byte == UInt8(ascii: "\n") { return }
        }
        if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
            afterCR = byte == UInt8(ascii: "\r")
            if inQuotes {
                field.append(UInt8(ascii: "\n"))
                line += 1
                return
            }
            line += 1
            if inComment {
                inComment = false
                atLineStart = true
            } else if !atLineStart {
                endRecord(into: &records)
            }
            return
        }
        if atLineStart {
            atLineStart = false
            recordLine = line
            if let comment, byte == comment {
                inComment = true
                return
            }
        }
        if inComment { return }
        if inQuotes {
            if byte == UInt8(ascii: "\"") {
                inQuotes = false
                quoteClosed = true
            } else {
                field.append(byte)
            }
            return
        }
        if byte == UInt8(ascii: "\"") {
            if quoteClosed {
                field.append(byte)
                inQuotes = true
                quoteClosed = false
            } else if field.allSatisfy({ $0 == UInt8(ascii: " ") }) {
                field = []
                inQuotes = true
                fieldWasQuoted = true
            } else {
                field.append(byte)
            }
            return
        }
        quoteClosed = false
        if byte == separator {
            endField()
        } else {
            field.append(byte)
        }
    }

    /// The held-back bytes were not a byte-order mark: read them as text.
    private mutating func replayHeldBytes(into records: inout [CSVRecord]) {
        let held = bom
        (bomChecked, bom) = (true, [])
        for byte in held { consume(byte, into: &records) }
    }

    private mutating func endField() {
        var bytes = field[...]
        if !fieldWasQuoted {
            while let b = bytes.first, b == 32 || b == 9 { bytes.removeFirst() }
            while let b = bytes.last, b == 32 || b == 9 { bytes.removeLast() }
        }
        fields.append(
            bytes.count == field.count
                ? String(decoding: field, as: UTF8.self) : String(decoding: Array(bytes), as: UTF8.self))
        field = []
        fieldWasQuoted = false
        quoteClosed = false
    }

    private mutating func endRecord(into records: inout [CSVRecord]) {
        endField()
        inQuotes = false
        atLineStart = true
        let record = CSVRecord(line: recordLine, fields: fields)
        fields = []
        // A line of only separators and blanks is as empty as an empty line.
        if record.fields.contains(where: { !$0.isEmpty }) { records.append(record) }
    }
}

/// Writes RFC 4180 fields: quoted only when they hold the separator, a quote or a line break.
public struct CSVWriter: Sendable {
    public let separator: Character

    public init(separator: Character = ",") { self.separator = separator }

    /// One record and its LF.
    public func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
                return field
            }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: String(separator)) + "\n"
    }
}
