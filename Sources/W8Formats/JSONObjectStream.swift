import W8Text

/// Splits a JSON object into its members as bytes arrive, handing out the elements of one array member one by one,
/// so that a document whose bulk is that array streams through in bounded memory.
///
/// It checks only the object's and the array's own punctuation, and finds where each value ends (strings, escapes
/// and nesting); the values' own syntax is left to whoever decodes their bytes.
public struct JSONObjectStream: Sendable {
    /// What the bytes fed so far completed.
    public enum Part: Sendable, Equatable {
        /// A member other than the streamed array: its key's raw bytes (without quotes) and its value's bytes.
        case member(key: [UInt8], value: [UInt8])
        /// The streamed array opens: every member before it has been handed out.
        case arrayStart
        /// One element of the streamed array, 0-based.
        case element(index: Int, value: [UInt8])
    }

    /// Why the bytes are no JSON object: `notAnObject` when the document is some other value, `valueTooLong` when
    /// a member's value or an element is longer than `maxValueBytes`.
    public struct Malformed: Error, Equatable, Sendable {
        public var notAnObject = false
        public var valueTooLong = false

        public init(notAnObject: Bool = false, valueTooLong: Bool = false) {
            self.notAnObject = notAnObject
            self.valueTooLong = valueTooLong
        }

        /// Why, in words, for a file whose longest value `writer` never makes longer than `maxValueBytes`.
        public func reason(maxValueBytes: Int, writer: String) -> String {
            // TRANSLATORS: why a file is refused, after "not a W8Trackr backup that can be restored: "; "it" is the
            // file.
            if notAnObject { return tr("it is not a JSON object") }
            guard valueTooLong else { return tr("it is not valid JSON") }
            return trn(
                // TRANSLATORS: why a JSON file is refused; {count} is a number of bytes, {writer} the program that
                // wrote the file ("w8", "the app", "Fitbit or Garmin").
                "a value in it is longer than {count} byte, more than any entry {writer} writes",
                "a value in it is longer than {count} bytes, more than any entry {writer} writes", maxValueBytes,
                ["count": maxValueBytes, "writer": writer])
        }
    }

    /// No member or entry w8 writes comes near it; bytes from elsewhere are not held without end.
    public static let defaultMaxValueBytes = 1024 * 1024
    public let maxValueBytes: Int

    private enum Phase {
        case start, beforeKey, key, colon, value, beforeElement, element, afterArray, end
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private let arrayKey: [UInt8]
    /// Whether the document itself is the streamed array (`[{…},{…}]`), as vendors' exports are.
    private let topLevel: Bool
    private var phase = Phase.start
    private var key: [UInt8] = []
    private var value: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Members handed out so far, the streamed array counting as one.
    private var members = 0
    /// Elements handed out so far.
    private var index = 0
    /// Whether the streamed array has been opened: a second member of that name is an ordinary member.
    private var streaming = false
    private var bomBytes = 0

    /// Streams the elements of the member named `arrayKey` (its key as written, without escapes).
    public init(arrayKey: String, maxValueBytes: Int = defaultMaxValueBytes) {
        self.arrayKey = Array(arrayKey.utf8)
        self.maxValueBytes = maxValueBytes
        topLevel = false
    }

    /// Streams the elements of a document that is one array; `notAnObject` then means it is no array.
    public init(topLevelArrayWithMaxValueBytes maxValueBytes: Int = defaultMaxValueBytes) {
        arrayKey = []
        self.maxValueBytes = maxValueBytes
        topLevel = true
    }

    /// The parts completed by `bytes`; throws at the first byte that cannot belong to a JSON object.
    public mutating func feed(_ bytes: [UInt8]) throws(Malformed) -> [Part] {
        var parts: [Part] = []
        for byte in bytes { try consume(byte, into: &parts) }
        return parts
    }

    /// Throws unless the object was closed (trailing blanks aside).
    public func finish() throws(Malformed) {
        guard phase == .end else { throw Malformed() }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private mutating func consume(_ byte: UInt8, into parts: inout [Part]) throws(Malformed) {
        switch phase {
        case .start:
            if bomBytes < 3, byte == Self.byteOrderMark[bomBytes] {
                bomBytes += 1
                return
            }
            bomBytes = 3
            if Self.isBlank(byte) { return }
            if topLevel {
                guard byte == UInt8(ascii: "[") else { throw Malformed(notAnObject: true) }
                (streaming, phase) = (true, .beforeElement)
                parts.append(.arrayStart)
                return
            }
            guard byte == UInt8(ascii: "{") else { throw Malformed(notAnObject: true) }
            phase = .beforeKey
        case .beforeKey:
            if Self.isBlank(byte) { return }
            if byte == UInt8(ascii: "}"), members == 0 {
                phase = .end
                return
            }
            guard byte == UInt8(ascii: "\"") else { throw Malformed() }
            key = []
            phase = .key
        case .key:
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                phase = .colon
                return
            }
            guard key.count < maxValueBytes else { throw Malformed(valueTooLong: true) }
            key.append(byte)
        case .colon:
            if Self.isBlank(byte) { return }
            guard byte == UInt8(ascii: ":") else { throw Malformed() }
            value = []
            phase = .value
        case .value:
            if value.isEmpty, Self.isBlank(byte) { return }
            if value.isEmpty, key == arrayKey, !streaming, byte == UInt8(ascii: "[") {
                (streaming, phase) = (true, .beforeElement)
                members += 1
                parts.append(.arrayStart)
                return
            }
            guard try scan(byte, closer: UInt8(ascii: "}")) else { return try append(byte) }
            parts.append(.member(key: key, value: trimmed(value)))
            members += 1
            phase = byte == UInt8(ascii: ",") ? .beforeKey : .end
        case .beforeElement:
            if Self.isBlank(byte) { return }
            if byte == UInt8(ascii: "]"), index == 0 {
                phase = topLevel ? .end : .afterArray
                return
            }
            (value, phase) = ([], .element)
            try element(byte, into: &parts)
        case .element:
            try element(byte, into: &parts)
        case .afterArray:
            if Self.isBlank(byte) { return }
            switch byte {
            case UInt8(ascii: ","): phase = .beforeKey
            case UInt8(ascii: "}"): phase = .end
            default: throw Malformed()
            }
        case .end:
            guard Self.isBlank(byte) else { throw Malformed() }
        }
    }

    private mutating func element(_ byte: UInt8, into parts: inout [Part]) throws(Malformed) {
        guard try scan(byte, closer: UInt8(ascii: "]")) else { return try append(byte) }
        parts.append(.element(index: index, value: trimmed(value)))
        index += 1
        phase = byte == UInt8(ascii: ",") ? .beforeElement : topLevel ? .end : .afterArray
    }

    private mutating func append(_ byte: UInt8) throws(Malformed) {
        guard value.count < maxValueBytes else { throw Malformed(valueTooLong: true) }
        value.append(byte)
    }

    /// Follows strings and nesting inside a value; true when `byte` is the `,` or `closer` that ends it.
    private mutating func scan(_ byte: UInt8, closer: UInt8) throws(Malformed) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            if depth == 0 {
                guard byte == closer, !value.isEmpty else { throw Malformed() }
                return true
            }
            depth -= 1
        case UInt8(ascii: ","):
            if depth == 0 {
                guard !value.isEmpty else { throw Malformed() }
                return true
            }
        default: break
        }
        return false
    }

    private func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 0, Self.isBlank(bytes[end - 1]) { end -= 1 }
        return end == bytes.count ? bytes : Array(bytes[..<end])
    }
}
