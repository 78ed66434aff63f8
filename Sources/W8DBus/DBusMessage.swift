// The D-Bus wire format, as far as a client of org.freedesktop.Notifications needs it: method calls written in
// little-endian, and the replies, errors and signals a bus sends back read in either byte order.
// Specification: https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol-marshaling

/// The four kinds of D-Bus message.
public enum DBusMessageType: UInt8, Sendable {
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4
}

/// Writes D-Bus values, aligned from the start of what it writes: a message's header, or its body (which starts on
/// an 8-byte boundary of the message, so the alignments agree).
public struct DBusWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    public mutating func uint32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    public mutating func int64(_ value: Int64) {
        pad(to: 8)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A string (`s`) or object path (`o`). D-Bus strings hold no NUL, so the text ends at the first one, as the
    /// C string libnotify would pass.
    public mutating func string(_ value: String) {
        let utf8 = value.utf8.prefix { $0 != 0 }
        uint32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    /// A type signature (`g`): one length byte.
    public mutating func signature(_ value: String) {
        let utf8 = Array(value.utf8)
        precondition(utf8.count < 256, "D-Bus signatures are at most 255 bytes")
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    /// An array whose elements are aligned to `alignment` (8 for structs and dict entries), written by `elements`.
    public mutating func array(alignment: Int, _ elements: (inout DBusWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        pad(to: alignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start)
        withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
    }

    /// A struct or dict entry: aligned to 8, then its fields.
    public mutating func structure(_ fields: (inout DBusWriter) -> Void) {
        pad(to: 8)
        fields(&self)
    }

    /// A variant: the signature of its one value, then the value.
    public mutating func variant(_ signature: String, _ value: (inout DBusWriter) -> Void) {
        self.signature(signature)
        value(&self)
    }
}

/// A method call, ready to send.
public struct DBusMethodCall: Sendable {
    public var destination: String
    public var path: String
    public var interface: String
    public var member: String
    /// The body's signature; empty for no arguments.
    public var signature: String
    public var body: DBusWriter

    public init(
        destination: String, path: String, interface: String, member: String, signature: String = "",
        body: DBusWriter = DBusWriter()
    ) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        self.body = body
    }

    /// The whole message with serial `serial`, little-endian, expecting a reply.
    public func encoded(serial: UInt32) -> [UInt8] {
        var header = DBusWriter()
        header.byte(UInt8(ascii: "l"))
        header.byte(DBusMessageType.methodCall.rawValue)
        header.byte(0)  // flags: a reply is wanted, and the bus may start the destination's service
        header.byte(1)  // protocol version
        header.uint32(UInt32(body.bytes.count))
        header.uint32(serial)
        header.array(alignment: 8) { fields in
            func field(_ code: UInt8, _ type: String, _ value: String) {
                fields.structure { entry in
                    entry.byte(code)
                    entry.variant(type) { type == "g" ? $0.signature(value) : $0.string(value) }
                }
            }
            field(DBusHeaderField.path, "o", path)
            field(DBusHeaderField.interface, "s", interface)
            field(DBusHeaderField.member, "s", member)
            field(DBusHeaderField.destination, "s", destination)
            if !signature.isEmpty { field(DBusHeaderField.signature, "g", signature) }
        }
        header.pad(to: 8)
        return header.bytes + body.bytes
    }

    /// `org.freedesktop.DBus.Hello`, the first message every client sends the bus.
    public static let hello = DBusMethodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        member: "Hello")
}

/// The header field codes a client uses.
enum DBusHeaderField {
    static let path: UInt8 = 1
    static let interface: UInt8 = 2
    static let member: UInt8 = 3
    static let errorName: UInt8 = 4
    static let replySerial: UInt8 = 5
    static let destination: UInt8 = 6
    static let sender: UInt8 = 7
    static let signature: UInt8 = 8
}

/// A message read from the bus.
public struct DBusMessage: Sendable {
    public var type: DBusMessageType
    public var serial: UInt32
    /// The serial of the call this answers (method returns and errors).
    public var replySerial: UInt32?
    /// The error's D-Bus name, such as "org.freedesktop.DBus.Error.ServiceUnknown".
    public var errorName: String?
    public var signature: String
    public var body: DBusReader

    /// The length of the whole message that starts `bytes`, once its fixed header (16 bytes) is there; nil while it
    /// is not. Throws for what is not a D-Bus message.
    static func length(startOf bytes: ArraySlice<UInt8>) throws(DBusProtocolError) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let reader = try DBusReader(bytes: Array(bytes.prefix(16)), endianness: bytes[bytes.startIndex])
        var fixed = reader
        fixed.offset = 4
        let bodyLength = Int(try fixed.uint32())
        fixed.offset = 12
        let fieldsLength = Int(try fixed.uint32())
        // The specification's limit on a whole message: 128 MiB.
        guard bodyLength <= 1 << 27, fieldsLength <= 1 << 27 else { throw DBusProtocolError("message too long") }
        return (16 + fieldsLength + 7) / 8 * 8 + bodyLength
    }

    /// Reads one whole message (`length(startOf:)` bytes).
    init(bytes: [UInt8]) throws(DBusProtocolError) {
        var reader = try DBusReader(bytes: bytes, endianness: bytes[0])
        reader.offset = 1
        guard let type = DBusMessageType(rawValue: try reader.byte()) else {
            throw DBusProtocolError("unknown message type \(bytes[1])")
        }
        self.type = type
        reader.offset = 4
        let bodyLength = Int(try reader.uint32())
        serial = try reader.uint32()
        let fieldsLength = Int(try reader.uint32())
        let fieldsEnd = reader.offset + fieldsLength
        var signature = ""
        while reader.offset < fieldsEnd {
            reader.align(8)
            let code = try reader.byte()
            let type = try reader.signature()
            switch (code, type) {
            case (DBusHeaderField.replySerial, "u"): replySerial = try reader.uint32()
            case (DBusHeaderField.errorName, "s"): errorName = try reader.string()
            case (DBusHeaderField.signature, "g"): signature = try reader.signature()
            default: try reader.skip(type)
            }
        }
        reader.offset = fieldsEnd
        reader.align(8)
        guard reader.offset + bodyLength == bytes.count else { throw DBusProtocolError("message length mismatch") }
        self.signature = signature
        body = try DBusReader(bytes: Array(bytes[reader.offset...]), endianness: bytes[0])
    }
}

/// What was not a well-formed D-Bus message or conversation.
public struct DBusProtocolError: Error, Sendable, Equatable {
    public var detail: String
    init(_ detail: String) { self.detail = detail }
}

/// Reads D-Bus values from a message body or header, in the message's byte order.
public struct DBusReader: Sendable {
    let bytes: [UInt8]
    let bigEndian: Bool
    var offset = 0

    init(bytes: [UInt8], endianness: UInt8) throws(DBusProtocolError) {
        switch endianness {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: throw DBusProtocolError("unknown byte order \(endianness)")
        }
        self.bytes = bytes
    }

    public var atEnd: Bool { offset >= bytes.count }

    mutating func align(_ alignment: Int) { offset = (offset + alignment - 1) / alignment * alignment }

    mutating func take(_ count: Int) throws(DBusProtocolError) -> ArraySlice<UInt8> {
        guard count >= 0, offset + count <= bytes.count else { throw DBusProtocolError("message ends early") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    public mutating func byte() throws(DBusProtocolError) -> UInt8 { try take(1).first! }

    public mutating func uint32() throws(DBusProtocolError) -> UInt32 {
        align(4)
        let raw = try take(4)
        var value: UInt32 = 0
        for byte in bigEndian ? Array(raw) : raw.reversed() { value = value << 8 | UInt32(byte) }
        return value
    }

    public mutating func string() throws(DBusProtocolError) -> String {
        let length = Int(try uint32())
        let text = try take(length)
        _ = try take(1)  // the NUL
        return String(decoding: text, as: UTF8.self)
    }

    public mutating func signature() throws(DBusProtocolError) -> String {
        let length = Int(try byte())
        let text = try take(length)
        _ = try take(1)
        return String(decoding: text, as: UTF8.self)
    }

    /// An array of strings (`as`).
    public mutating func strings() throws(DBusProtocolError) -> [String] {
        let length = Int(try uint32())
        let end = offset + length
        var result: [String] = []
        while offset < end { result.append(try string()) }
        return result
    }

    /// Skips one value of a basic type, for header fields this client does not read.
    mutating func skip(_ type: String) throws(DBusProtocolError) {
        switch type {
        case "y": _ = try take(1)
        case "n", "q":
            align(2)
            _ = try take(2)
        case "b", "i", "u", "h": _ = try uint32()
        case "x", "t", "d":
            align(8)
            _ = try take(8)
        case "s", "o": _ = try string()
        case "g": _ = try signature()
        default: throw DBusProtocolError("unexpected header field type \(type)")
        }
    }
}
