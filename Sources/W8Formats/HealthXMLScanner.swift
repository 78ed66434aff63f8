import Foundation
import W8Text

/// The tags of an XML document as its bytes arrive, in memory bounded by its longest tag: a hand-written scanner
/// for Apple Health's `export.xml`, whose gigabytes Foundation's XMLParser reads too slowly. It skips the XML
/// declaration, the `<!DOCTYPE … [ … ]>` internal subset, comments, processing instructions, CDATA and text, and
/// hands on each start tag with its depth (the root is depth 0). Attribute values are read with `attributes`.
struct HealthXMLScanner {
    /// Why the bytes are no well-formed XML, as far as this scanner looks.
    struct Malformed: Error { let reason: String }

    private var pending: [UInt8] = []
    /// `checkAttributes`' names of the tag it checks.
    private var names: [UnsafeBufferPointer<UInt8>] = []
    /// The names of the elements open now, the root first: an end tag must close the last (Health exports nest
    /// three deep, so this stays small).
    private var open: [[UInt8]] = []
    var depth: Int { open.count }
    /// The root element's name, once its start tag was read.
    private(set) var root: String?
    /// The longest tag held while waiting for its end; a longer one is no export's.
    static let maxTag = 16 * 1024 * 1024

    /// Feeds `bytes`; `tag` is called with the depth and name of each start tag and the bytes of its attributes.
    mutating func feed(
        _ bytes: [UInt8], _ tag: (Int, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        if pending.isEmpty {
            pending = bytes
        } else {
            pending += bytes
        }
        let consumed = try pending.withUnsafeBufferPointer { try scan($0, tag) }
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
        } else {
            pending.removeFirst(consumed)
            if pending.count > Self.maxTag { throw Malformed(reason: tr("a tag longer than 16 MiB")) }
        }
    }

    /// Checks that the document ended after its root element.
    func finish() throws {
        guard root != nil else {
            throw Malformed(
                reason: pending.isEmpty
                    ? tr("it holds no element") : tr("it ends before its root element: the file is not whole"))
        }
        guard depth == 0 else { throw Malformed(reason: tr("it ends inside an element: the file is not whole")) }
        if pending.contains(UInt8(ascii: "<")) {
            throw Malformed(reason: tr("it ends inside a tag: the file is not whole"))
        }
    }

    private static let lt = UInt8(ascii: "<")
    private static let gt = UInt8(ascii: ">")

    /// Index of the first `needle` at or after `from`, or nil.
    private static func find(_ needle: [UInt8], in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard needle.count <= b.count - from else { return nil }
        var i = from
        let first = needle[0]
        while i <= b.count - needle.count {
            guard let p = memchr(b.baseAddress! + i, Int32(first), b.count - needle.count + 1 - i) else { return nil }
            i = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            var k = 1
            while k < needle.count, b[i + k] == needle[k] { k += 1 }
            if k == needle.count { return i }
            i += 1
        }
        return nil
    }

    private static func starts(_ b: UnsafeBufferPointer<UInt8>, at i: Int, with prefix: StaticString) -> Bool? {
        let n = prefix.utf8CodeUnitCount
        let p = prefix.utf8Start
        var k = 0
        while k < n {
            guard i + k < b.count else { return nil }
            if b[i + k] != p[k] { return false }
            k += 1
        }
        return true
    }

    /// The end of a tag: the `>` outside quoted values, or nil when it has not arrived yet.
    private static func tagEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < b.count {
            switch b[i] {
            case gt: return i
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let q = b[i]
                guard let p = memchr(b.baseAddress! + i + 1, Int32(q), b.count - i - 1) else { return nil }
                i = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self)) + 1
            default: i += 1
            }
        }
        return nil
    }

    /// The end of `<!DOCTYPE …>`, past its internal subset (whose declarations hold `>`), or nil.
    private static func doctypeEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        var inSubset = false
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let q = b[i]
                i += 1
                while i < b.count, b[i] != q { i += 1 }
                guard i < b.count else { return nil }
            case lt where inSubset:
                guard let comment = starts(b, at: i, with: "<!--") else { return nil }
                if comment {
                    guard let end = find(Array("-->".utf8), in: b, from: i + 4) else { return nil }
                    i = end + 2
                }
            case gt where !inSubset: return i
            default: break
            }
            i += 1
        }
        return nil
    }

    /// Scans whole constructs; returns how many bytes it consumed.
    private mutating func scan(
        _ b: UnsafeBufferPointer<UInt8>,
        _ tag: (Int, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> Int {
        var i = 0
        while i < b.count {
            // Text between tags is not read, but its references must be XML's (a bare `&` is not).
            guard let p = memchr(b.baseAddress! + i, Int32(Self.lt), b.count - i) else {
                // Text may end in a reference cut in two by the chunk: only whole ones are checked.
                let last = (i..<b.count).last { b[$0] == UInt8(ascii: "&") } ?? b.count
                try Self.checkReferences(UnsafeBufferPointer(rebasing: b[i..<last]))
                return last
            }
            let open = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            try Self.checkReferences(UnsafeBufferPointer(rebasing: b[i..<open]))
            i = open
            guard open + 1 < b.count else { return open }
            switch b[open + 1] {
            case UInt8(ascii: "?"):
                guard let end = Self.find(Array("?>".utf8), in: b, from: open + 2) else { return open }
                i = end + 2
            case UInt8(ascii: "!"):
                guard let comment = Self.starts(b, at: open, with: "<!--"),
                    let cdata = Self.starts(b, at: open, with: "<![CDATA[")
                else { return open }
                if comment {
                    guard let end = Self.find(Array("-->".utf8), in: b, from: open + 4) else { return open }
                    i = end + 3
                } else if cdata {
                    guard let end = Self.find(Array("]]>".utf8), in: b, from: open + 9) else { return open }
                    i = end + 3
                } else {
                    guard let end = Self.doctypeEnd(b, from: open + 2) else { return open }
                    i = end + 1
                }
            case UInt8(ascii: "/"):
                guard let end = Self.tagEnd(b, from: open + 2) else { return open }
                var nameEnd = end
                while nameEnd > open + 2, Self.isBlank(b[nameEnd - 1]) { nameEnd -= 1 }
                guard let last = self.open.popLast() else {
                    throw Malformed(reason: tr("an end tag closes no element"))
                }
                guard b[(open + 2)..<nameEnd].elementsEqual(last) else {
                    throw Malformed(
                        reason: tr(
                            // TRANSLATORS: why an XML file is malformed; {end} and {start} are element names.
                            "the end tag {end} closes the element {start}",
                            [
                                "end": String(
                                    decoding: UnsafeBufferPointer(rebasing: b[(open + 2)..<nameEnd]), as: UTF8.self),
                                "start": String(decoding: last, as: UTF8.self),
                            ]))
                }
                i = end + 1
            default:
                guard let end = Self.tagEnd(b, from: open + 1) else { return open }
                var nameEnd = open + 1
                while nameEnd < end, !Self.isBlank(b[nameEnd]), b[nameEnd] != UInt8(ascii: "/") { nameEnd += 1 }
                let selfClosing = b[end - 1] == UInt8(ascii: "/")
                let name = UnsafeBufferPointer(rebasing: b[(open + 1)..<nameEnd])
                if root == nil {
                    root = String(decoding: name, as: UTF8.self)
                } else if depth == 0 {
                    throw Malformed(reason: tr("a second root element"))
                }
                let attributes = UnsafeBufferPointer(rebasing: b[nameEnd..<(selfClosing ? end - 1 : end)])
                try checkAttributes(attributes)
                try tag(depth, name, attributes)
                if !selfClosing { self.open.append(Array(name)) }
                i = end + 1
            }
        }
        return i
    }

    /// Checks a start tag's attributes as XML requires of every tag, not only the records w8 reads: each a name,
    /// `=` and a quoted value, no name twice, no `<` in a value, and every reference one of XML's five entities or a
    /// character's number.
    private mutating func checkAttributes(_ b: UnsafeBufferPointer<UInt8>) throws {
        // The names seen so far in this tag, for the duplicate check, in storage kept from tag to tag.
        var names: [UnsafeBufferPointer<UInt8>] = []
        swap(&names, &self.names)
        names.removeAll(keepingCapacity: true)
        defer { swap(&names, &self.names) }
        var problem: String?
        try Self.attributes(b) { name, value in
            if name.isEmpty || Self.has(Self.lt, in: name) || Self.has(Self.amp, in: name) {
                problem = tr("an attribute has no name")
            } else if names.contains(where: { Self.same($0, name) }) {
                // TRANSLATORS: why an XML file is malformed; {name} is an attribute's name.
                problem = tr("the attribute {name} is given twice", ["name": String(decoding: name, as: UTF8.self)])
            } else if Self.has(Self.lt, in: value) {
                problem = tr("an attribute value holds a '<'")
            } else if Self.has(Self.amp, in: value), Self.decode(value) == nil {
                problem = tr("an attribute value holds an '&' that starts no entity XML knows")
            }
            names.append(name)
            return problem == nil
        }
        if let problem { throw Malformed(reason: problem) }
    }

    private static let amp = UInt8(ascii: "&")

    /// Whether `byte` is in `b` (memchr).
    @inline(__always)
    static func has(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        b.count > 0 && memchr(b.baseAddress!, Int32(byte), b.count) != nil
    }

    /// Whether `a` and `b` hold the same bytes (memcmp).
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Checks that every `&` in text starts one of XML's five entities or a character's number.
    static func checkReferences(_ b: UnsafeBufferPointer<UInt8>) throws {
        guard has(amp, in: b) else { return }
        guard decode(b) != nil else {
            throw Malformed(reason: tr("the text holds an '&' that starts no entity XML knows"))
        }
    }

    static func isBlank(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r")
    }

    /// Calls `each` with every `name="value"` of a tag's attribute bytes, the value still escaped, until it
    /// returns false.
    static func attributes(
        _ b: UnsafeBufferPointer<UInt8>, _ each: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
    ) throws {
        var i = 0
        while true {
            while i < b.count, isBlank(b[i]) { i += 1 }
            guard i < b.count else { return }
            let nameStart = i
            while i < b.count, b[i] != UInt8(ascii: "="), !isBlank(b[i]) { i += 1 }
            let nameEnd = i
            while i < b.count, isBlank(b[i]) { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "=") else {
                throw Malformed(reason: tr("an attribute has no value"))
            }
            i += 1
            while i < b.count, isBlank(b[i]) { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw Malformed(reason: tr("an attribute value is not quoted"))
            }
            let quote = b[i]
            let valueStart = i + 1
            guard valueStart < b.count,
                let close = memchr(b.baseAddress! + valueStart, Int32(quote), b.count - valueStart)
            else { throw Malformed(reason: tr("an attribute value is not closed")) }
            i = b.baseAddress!.distance(to: close.assumingMemoryBound(to: UInt8.self))
            guard
                each(
                    UnsafeBufferPointer(rebasing: b[nameStart..<nameEnd]),
                    UnsafeBufferPointer(rebasing: b[valueStart..<i]))
            else { return }
            i += 1
        }
    }

    /// An attribute value with its five entities and numeric character references decoded; nil for an unknown
    /// entity or a reference to no character.
    ///
    /// As XML normalizes an attribute's value, a tab, line feed or carriage return written as itself becomes a space
    /// (a CR LF pair one space); written as a reference (`&#9;`) it stays what it is.
    static func decode(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard has(amp, in: b) || b.contains(where: { $0 == 0x9 || $0 == 0xA || $0 == 0xD }) else {
            return String(decoding: b, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "&") else {
                switch b[i] {
                case 0xD where i + 1 < b.count && b[i + 1] == 0xA: break  // CR LF: the LF makes the space
                case 0x9, 0xA, 0xD: out.append(UInt8(ascii: " "))
                default: out.append(b[i])
                }
                i += 1
                continue
            }
            var end = i + 1
            while end < b.count, b[end] != UInt8(ascii: ";") { end += 1 }
            guard end < b.count else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
            switch name {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let code: UInt32?
                if name.hasPrefix("#x"), name.dropFirst(2).allSatisfy(\.isHexDigit) {
                    code = UInt32(name.dropFirst(2), radix: 16)
                } else if name.hasPrefix("#"), name.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
                    code = UInt32(name.dropFirst(), radix: 10)
                } else {
                    code = nil
                }
                // XML 1.0's Char: tab, line feed, carriage return, and from U+0020 on but the surrogates, U+FFFE
                // and U+FFFF.
                guard let code, code == 0x9 || code == 0xA || code == 0xD || (0x20...0x10FFFF).contains(code),
                    code != 0xFFFE, code != 0xFFFF, let scalar = Unicode.Scalar(code)
                else { return nil }
                out += Array(String(Character(scalar)).utf8)
            }
            i = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
