import Foundation

/// Encodes an `Encodable` value as a `JSON` value: keys in the order the type encodes them (Foundation's
/// `JSONEncoder` orders them by hash unless told to sort), `nil` optionals as `null` rather than left out, and
/// whole doubles as `1.0`. The backup file is written through it and read back with `JSONDecoder`.
public struct JSONValueEncoder {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSON {
        let box = JSONBox()
        try box.store(value, codingPath: [])
        return box.resolved
    }
}

/// A JSON value being built: a leaf, or an object or array whose members are still being encoded.
final class JSONBox {
    private var leaf: JSON = .null
    private var pairs: [(String, JSONBox)]?
    private var items: [JSONBox]?

    var resolved: JSON {
        if let pairs { return .object(pairs.map { ($0.0, $0.1.resolved) }) }
        if let items { return .array(items.map(\.resolved)) }
        return leaf
    }

    func set(_ value: JSON) { leaf = value }

    func member(_ key: String) -> JSONBox {
        if pairs == nil { pairs = [] }
        let child = JSONBox()
        pairs!.append((key, child))
        return child
    }

    func element() -> JSONBox {
        if items == nil { items = [] }
        let child = JSONBox()
        items!.append(child)
        return child
    }

    var count: Int { items?.count ?? 0 }

    func becomeObject() { if pairs == nil { pairs = [] } }
    func becomeArray() { if items == nil { items = [] } }

    /// Stores `value`: JSON's own types and every number directly, anything else through its `encode(to:)` (a
    /// number sent there would come back here through `SingleJSONBox`, without end).
    func store<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
        switch value {
        case let v as String: leaf = .string(v)
        case let v as Bool: leaf = .bool(v)
        case let v as Double: leaf = .number(v)
        // A Float as it reads (0.1), not as the Double nearest it (0.10000000149011612).
        case let v as Float: leaf = .number(Double("\(v)") ?? Double(v))
        case let v as any BinaryFloatingPoint: leaf = .number(Double(v))
        case let v as any BinaryInteger:
            guard let integer = Int64(exactly: v) else {
                throw EncodingError.invalidValue(
                    value, .init(codingPath: codingPath, debugDescription: "\(v) is beyond a 64-bit JSON integer"))
            }
            leaf = .integer(integer)
        default: try value.encode(to: JSONBoxEncoder(box: self, codingPath: codingPath))
        }
    }
}

struct JSONBoxEncoder: Encoder {
    let box: JSONBox
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.becomeObject()
        return KeyedEncodingContainer(KeyedJSONBox<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        box.becomeArray()
        return UnkeyedJSONBox(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleJSONBox(box: box, codingPath: codingPath) }
}

struct KeyedJSONBox<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONBox
    let codingPath: [CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.member(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try box.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    // A missing optional is written as null: the backup's readers see every field.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        JSONBoxEncoder(box: box.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        JSONBoxEncoder(box: box.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { JSONBoxEncoder(box: box.member("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder {
        JSONBoxEncoder(box: box.member(key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedJSONBox: UnkeyedEncodingContainer {
    let box: JSONBox
    let codingPath: [CodingKey]
    var count: Int { box.count }

    mutating func encodeNil() throws { box.element().set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try box.element().store(value, codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        JSONBoxEncoder(box: box.element(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        JSONBoxEncoder(box: box.element(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { JSONBoxEncoder(box: box.element(), codingPath: codingPath) }
}

struct SingleJSONBox: SingleValueEncodingContainer {
    let box: JSONBox
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { box.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try box.store(value, codingPath: codingPath) }
}
