import Foundation
import W8Core

/// One record of a delimited file: its fields, unquoted, and the line it starts on (1-based).
public struct CSVRecord: Sendable, Equatable {
    public var line: Int
    public var fields: [String]
    /// The index of the first field cut at the reader's caps, if any (the record is then no weigh-in), and that
    /// field's whole length in characters (Unicode scalars), of which it holds only the first.
    public var cutField: Int?
    public var cutCharacters = 0

    public init(line: Int, fields: [String], cutField: Int? = nil, cutCharacters: Int = 0) {
        self.line = line
        self.fields = fields
        self.cutField = cutField
        self.cutCharacters = cutCharacters
    }
}

/// Splits delimited text (RFC 4180) into records as bytes arrive, so a file of any length streams through in
/// bounded memory.
///
/// Quoted fields may hold the separator, doubled quotes and line breaks, which are kept as written (CR, LF or
/// CRLF). A line ends with LF, CRLF or a lone CR. A UTF-8 byte-order mark at the very start is dropped. Lines that
/// are empty, or whose first byte is the comment byte, are not records. Invalid UTF-8 is repaired with U+FFFD rather
/// than refused: the field's own validation will name it.
///
/// The bytes are someone else's, and are never held without end: of a field longer than `maxFieldBytes`, or of a
/// record longer than `maxRecordBytes`, only the first bytes are kept and the record says so (`cutField`), so that its
/// row is refused by line and the rest of the file read on; a quote that is never closed (at the end, or when the
/// field it opens runs over lines past the cap) is refused with the line it opened on.
public struct CSVReader: Sendable {
    public let separator: UInt8
    public let comment: UInt8?
    public let maxFieldBytes: Int
    public let maxRecordBytes: Int
    /// No value of any format w8 reads comes near these: a note is at most 500 characters.
    public static let defaultMaxFieldBytes = 64 * 1024
    public static let defaultMaxRecordBytes = 1024 * 1024

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
    /// The line of the quote that opened the quoted section being read.
    private var quoteLine = 1
    /// The bytes of the current record's fields before the current one.
    private var recordBytes = 0
    /// Characters of the current field past the caps, not kept.
    private var overflow = 0
    private var cut: (field: Int, characters: Int)?
    private var bomChecked = false
    /// The first bytes, held back until it is clear whether they are a byte-order mark.
    private var bom: [UInt8] = []
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public init(
        separator: UInt8 = UInt8(ascii: ","), comment: UInt8? = nil, maxFieldBytes: Int = defaultMaxFieldBytes,
        maxRecordBytes: Int = defaultMaxRecordBytes
    ) {
        self.separator = separator
        self.comment = comment
        self.maxFieldBytes = maxFieldBytes
        self.maxRecordBytes = maxRecordBytes
    }

    /// The records completed by `bytes`; throws `W8FormatsError.csvQuoteNotClosed` when a quoted field runs over
    /// lines past the cap.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [CSVRecord] {
        var records: [CSVRecord] = []
        // Called from other modules, this generic function is not specialized: each byte of a plain sequence is a
        // witness-table call (a tenth of an import). Bytes in memory (Data, arrays) are read as a buffer.
        let done = try bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { try consume(byte, into: &records) }
        }
        if done == nil {
            for byte in bytes { try consume(byte, into: &records) }
        }
        return records
    }

    /// The last record, when the text does not end with a line break; throws when a quote was never closed.
    public mutating func finish() throws -> [CSVRecord] {
        var records: [CSVRecord] = []
        if !bomChecked { try replayHeldBytes(into: &records) }
        if inQuotes { throw W8FormatsError.csvQuoteNotClosed(line: quoteLine) }
        if !atLineStart { endRecord(into: &records) }
        return records
    }

    /// Adds a byte to the field, or counts it when the field or the record is over its cap.
    private mutating func append(_ byte: UInt8) throws {
        guard field.count < maxFieldBytes, recordBytes + field.count < maxRecordBytes else {
            // A quoted section that ran on over lines past the cap is most likely a quote never closed.
            if inQuotes, quoteLine != line { throw W8FormatsError.csvQuoteNotClosed(line: quoteLine) }
            if byte & 0xC0 != 0x80 { overflow += 1 }  // not a UTF-8 continuation byte: one more scalar
            return
        }
        field.append(byte)
    }

    private mutating func consume(_ byte: UInt8, into records: inout [CSVRecord]) throws {
        if !bomChecked {
            bom.append(byte)
            if bom == Array(CSVReader.byteOrderMark.prefix(bom.count)) {
                if bom.count == 3 { (bomChecked, bom) = (true, []) }
                return
            }
            try replayHeldBytes(into: &records)
            return
        }
        if afterCR {
            afterCR = false
            if byte == UInt8(ascii: "\n") {
                // A CRLF inside quotes is kept as written; either way it ends one line.
                if inQuotes { try append(byte) }
                return
            }
        }
        if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
            afterCR = byte == UInt8(ascii: "\r")
            line += 1
            if inQuotes {
                try append(byte)
                return
            }
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
                try append(byte)
            }
            return
        }
        if byte == UInt8(ascii: "\"") {
            if quoteClosed {
                try append(byte)
                inQuotes = true
                quoteClosed = false
            } else if field.allSatisfy({ $0 == UInt8(ascii: " ") }) {
                field = []
                inQuotes = true
                fieldWasQuoted = true
                quoteLine = line
            } else {
                try append(byte)
            }
            return
        }
        quoteClosed = false
        if byte == separator {
            endField()
        } else {
            try append(byte)
        }
    }

    /// The held-back bytes were not a byte-order mark: read them as text.
    private mutating func replayHeldBytes(into records: inout [CSVRecord]) throws {
        let held = bom
        (bomChecked, bom) = (true, [])
        for byte in held { try consume(byte, into: &records) }
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
        recordBytes += field.count
        if overflow > 0, cut == nil {
            cut = (fields.count - 1, fields.last!.unicodeScalars.count + overflow)
        }
        overflow = 0
        field = []
        fieldWasQuoted = false
        quoteClosed = false
    }

    private mutating func endRecord(into records: inout [CSVRecord]) {
        endField()
        inQuotes = false
        atLineStart = true
        let record = CSVRecord(
            line: recordLine, fields: fields, cutField: cut?.field, cutCharacters: cut?.characters ?? 0)
        fields = []
        recordBytes = 0
        cut = nil
        // A line of only separators and blanks is as empty as an empty line.
        if record.fields.contains(where: { !$0.isEmpty }) { records.append(record) }
    }
}

/// Writes RFC 4180 fields that `CSVReader` reads back as written: quoted only when they hold the separator, a
/// quote or a line break, or begin or end with a blank (which the reader trims from unquoted fields), or begin
/// with a byte-order mark.
public struct CSVWriter: Sendable {
    public let separator: Character

    public init(separator: Character = ",") { self.separator = separator }

    /// One record and its LF.
    public func line(_ fields: [String]) -> String {
        fields.map { field in
            guard needsQuotes(field) else { return field }
            // Scalars again: a quote followed by a combining mark is one Character, which a replace would miss.
            var quoted = String.UnicodeScalarView()
            for scalar in field.unicodeScalars {
                if scalar == "\"" { quoted.append(scalar) }
                quoted.append(scalar)
            }
            return "\"" + String(quoted) + "\""
        }.joined(separator: String(separator)) + "\n"
    }

    func needsQuotes(_ field: String) -> Bool {
        if let first = field.unicodeScalars.first, let last = field.unicodeScalars.last,
            first == " " || first == "\t" || last == " " || last == "\t"
                // A byte-order mark first in the file would be taken for one and dropped.
                || first == "\u{FEFF}"
        {
            return true
        }
        // Unicode scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        return field.unicodeScalars.contains {
            $0 == separator.unicodeScalars.first || $0 == "\"" || $0 == "\n" || $0 == "\r"
        }
    }
}
