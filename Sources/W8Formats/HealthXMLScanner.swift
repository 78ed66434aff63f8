import Foundation
import W8Text

/// The tags of an XML document as its bytes arrive, in memory bounded by its longest tag: a hand-written scanner
/// for Apple Health's `export.xml`, whose gigabytes Foundation's XMLParser reads too slowly. It skips the XML
/// declaration, the `<!DOCTYPE … [ … ]>` internal subset, comments, processing instructions, CDATA and text, and
/// hands on each start tag with its depth (the root is depth 0). Attribute values are read with `attributes`.
///
/// It refuses what libxml2 calls malformed (HealthXMLDifferentialTests compares the two on seeded random
/// documents): an end tag that does not close the open element, a name that is no XML name, an attribute given
/// twice, unquoted, without a blank before it, or holding `<`; an `&` that starts no entity or character reference,
/// in a value or in text; a character XML does not allow; `--` in a comment; `]]>` in text; and text outside the
/// root element. It does not validate against the DTD, nor check encodings other than UTF-8's bytes.
struct HealthXMLScanner {
    /// Why the bytes are no well-formed XML, as far as this scanner looks.
    struct Malformed: Error { let reason: String }

    private var pending: [UInt8] = []
    /// The names of the open elements, the root first: each end tag must close the last.
    private var open: [[UInt8]] = []
    var depth: Int { open.count }
    /// Whether the first bytes were looked at for a byte order mark.
    private var started = false
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
        // A byte order mark may start the document; it is no text outside the root.
        if !started {
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if pending.count < 3, bom.starts(with: pending) { return }
            if pending.starts(with: bom) { pending.removeFirst(3) }
            started = true
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
        // Text held back because it might have ended a reference or `]]>` in the next chunk.
        if pending.contains(where: { !Self.isBlank($0) }) { throw Self.outsideRoot }
    }

    static var outsideRoot: Malformed { Malformed(reason: tr("text outside the root element")) }

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

    /// How far an unfinished `<!DOCTYPE …>` at the start of `pending` was scanned: where to go on (before the quote
    /// or comment it stopped in, relative to the `<`) and whether that is inside the internal subset. Without it
    /// each chunk rescanned the DOCTYPE from its start: fed a few bytes at a time (as the fuzz target feeds it), the
    /// scan spent most of its time there.
    struct DoctypeProgress {
        var at: Int
        var inSubset: Bool
    }

    private var doctypeProgress: DoctypeProgress?

    /// The end of `<!DOCTYPE …>`, past its internal subset (whose declarations hold `>`), or nil, with `progress`
    /// set to where to go on, relative to `start`, once more bytes arrived.
    private static func doctypeEnd(
        _ b: UnsafeBufferPointer<UInt8>, start: Int, progress: inout DoctypeProgress?
    ) -> Int? {
        var i = start + (progress?.at ?? 2)
        var inSubset = progress?.inSubset ?? false
        while i < b.count {
            let construct = i
            switch b[i] {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let q = b[i]
                i += 1
                while i < b.count, b[i] != q { i += 1 }
                guard i < b.count else {
                    progress = DoctypeProgress(at: construct - start, inSubset: inSubset)
                    return nil
                }
            case lt where inSubset:
                let comment = starts(b, at: i, with: "<!--")
                if comment == true, let end = find(Array("-->".utf8), in: b, from: i + 4) {
                    i = end + 2
                } else if comment != false {
                    progress = DoctypeProgress(at: construct - start, inSubset: inSubset)
                    return nil
                }
            case gt where !inSubset:
                progress = nil
                return i
            default: break
            }
            i += 1
        }
        progress = DoctypeProgress(at: i - start, inSubset: inSubset)
        return nil
    }

    /// Scans whole constructs; returns how many bytes it consumed.
    private mutating func scan(
        _ b: UnsafeBufferPointer<UInt8>,
        _ tag: (Int, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> Int {
        var i = 0
        while i < b.count {
            // Text between tags is checked, not kept: outside the root only blanks; inside, references that name
            // something, no `]]>` and no character XML forbids. A reference or `]]` cut by the chunk's end waits.
            guard let p = memchr(b.baseAddress! + i, Int32(Self.lt), b.count - i) else {
                return try checkText(b, from: i, to: b.count, whole: false)
            }
            let start = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            _ = try checkText(b, from: i, to: start, whole: true)
            i = start
            guard start + 1 < b.count else { return start }
            switch b[start + 1] {
            case UInt8(ascii: "?"):
                guard let end = Self.find(Array("?>".utf8), in: b, from: start + 2) else { return start }
                i = end + 2
            case UInt8(ascii: "!"):
                guard let comment = Self.starts(b, at: start, with: "<!--"),
                    let cdata = Self.starts(b, at: start, with: "<![CDATA[")
                else { return start }
                if comment {
                    // XML allows no `--` inside a comment: the first `--` must be its end.
                    guard let end = Self.find(Array("--".utf8), in: b, from: start + 4), end + 2 < b.count else {
                        return start
                    }
                    guard b[end + 2] == Self.gt else { throw Malformed(reason: tr("a comment holds '--'")) }
                    i = end + 3
                } else if cdata {
                    guard let end = Self.find(Array("]]>".utf8), in: b, from: start + 9) else { return start }
                    if open.isEmpty { throw Self.outsideRoot }
                    i = end + 3
                } else {
                    // Progress kept from the last chunk belongs to a DOCTYPE that starts this one.
                    if start != 0 { doctypeProgress = nil }
                    guard let end = Self.doctypeEnd(b, start: start, progress: &doctypeProgress) else { return start }
                    i = end + 1
                }
            case UInt8(ascii: "/"):
                guard let end = Self.tagEnd(b, from: start + 2) else { return start }
                var nameEnd = start + 2
                while nameEnd < end, !Self.isBlank(b[nameEnd]) { nameEnd += 1 }
                let name = b[(start + 2)..<nameEnd]
                guard let last = open.last else { throw Malformed(reason: tr("an end tag closes no element")) }
                guard name.elementsEqual(last) else {
                    throw Malformed(
                        reason: tr(
                            // TRANSLATORS: {found} and {open} are XML element names, as Record and HealthData.
                            "the end tag </{found}> does not close <{open}>",
                            [
                                "found": String(decoding: name, as: UTF8.self).prefix(80),
                                "open": String(decoding: last, as: UTF8.self).prefix(80),
                            ]))
                }
                guard b[nameEnd..<end].allSatisfy(Self.isBlank) else {
                    throw Malformed(reason: tr("an end tag holds more than its name"))
                }
                open.removeLast()
                i = end + 1
            default:
                guard let end = Self.tagEnd(b, from: start + 1) else { return start }
                var nameEnd = start + 1
                while nameEnd < end, !Self.isBlank(b[nameEnd]), b[nameEnd] != UInt8(ascii: "/") { nameEnd += 1 }
                let selfClosing = b[end - 1] == UInt8(ascii: "/")
                let name = UnsafeBufferPointer(rebasing: b[(start + 1)..<nameEnd])
                try Self.checkName(name)
                if root == nil {
                    root = String(decoding: name, as: UTF8.self)
                } else if depth == 0 {
                    throw Malformed(reason: tr("a second root element"))
                }
                let attributes = UnsafeBufferPointer(rebasing: b[nameEnd..<(selfClosing ? end - 1 : end)])
                try Self.checkAttributes(attributes)
                try tag(depth, name, attributes)
                if !selfClosing { open.append(Array(name)) }
                i = end + 1
            }
        }
        return i
    }

    /// Checks text between tags from `from` to `to`; returns where checking stopped: `to`, or, unless `whole`, the
    /// start of a reference or `]]` the chunk's end cuts, which waits for the next chunk.
    private func checkText(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int, whole: Bool) throws -> Int {
        let inside = !open.isEmpty
        var i = from
        while i < to {
            let c = b[i]
            if c == UInt8(ascii: "&") {
                var end = i + 1
                while end < to, end - i <= 12, b[end] != UInt8(ascii: ";") { end += 1 }
                if end == to, !whole, end - i <= 12 { return i }
                guard end < to, b[end] == UInt8(ascii: ";"),
                    Self.reference(UnsafeBufferPointer(rebasing: b[(i + 1)..<end])) != nil
                else { throw Self.badReference(b, at: i, end: end, to: to) }
                guard inside else { throw Self.outsideRoot }
                i = end + 1
                continue
            }
            if c == UInt8(ascii: "]") {
                if !whole, i + 2 >= to { return i }
                if i + 2 < to, b[i + 1] == UInt8(ascii: "]"), b[i + 2] == Self.gt {
                    throw Malformed(reason: tr("']]>' outside a CDATA section"))
                }
            }
            if c < 0x20, !Self.isBlank(c) { throw Self.forbidden(UInt32(c)) }
            if !inside, !Self.isBlank(c) { throw Self.outsideRoot }
            i += 1
        }
        return to
    }

    static func forbidden(_ code: UInt32) -> Malformed {
        Malformed(
            // TRANSLATORS: {code} is a Unicode code point in hexadecimal, as 0001.
            reason: tr("a character XML does not allow: U+{code}", ["code": String(format: "%04X", code)]))
    }

    /// The reference at `i`, whose search for its `;` stopped at `end`: shown up to its `;`, or its first 13 bytes,
    /// never more, so that the message does not depend on how much of the file was read (`fuzz-apple-health`).
    static func badReference(_ b: UnsafeBufferPointer<UInt8>, at i: Int, end: Int, to: Int) -> Malformed {
        let closed = end < to && end - i <= 12 && b[end] == UInt8(ascii: ";")
        let shown = String(
            decoding: UnsafeBufferPointer(rebasing: b[i..<(closed ? end + 1 : min(end, to))]), as: UTF8.self)
        return Malformed(
            // TRANSLATORS: {text} is what follows the '&', as "&nope;" or "& B".
            reason: tr("'&' starts no entity or character reference XML knows: '{text}'", ["text": shown]))
    }

    /// Whether `c` may start an XML name (ASCII letters, `_`, `:`, or any byte of a character past ASCII) or, when
    /// `first` is false, continue one (digits, `-` and `.` too).
    static func isNameByte(_ c: UInt8, first: Bool) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }

    static func checkName(_ name: UnsafeBufferPointer<UInt8>) throws {
        guard let first = name.first, isNameByte(first, first: true), name.allSatisfy({ isNameByte($0, first: false) })
        else {
            throw Malformed(
                // TRANSLATORS: {name} is what stands where an XML element or attribute name should.
                reason: tr(
                    "'{name}' is not an XML name", ["name": String(decoding: name, as: UTF8.self).prefix(80)]))
        }
    }

    /// Where an attribute's quoted value opens, after its name ends at `i`: past blanks, `=` and blanks again, at
    /// the `"` or `'`; both parsers of attributes (`checkAttributes`, `attributes`) take this step alike.
    private static func openingQuote(_ b: UnsafeBufferPointer<UInt8>, after i: Int) throws -> Int {
        var i = i
        while i < b.count, isBlank(b[i]) { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "=") else { throw Malformed(reason: tr("an attribute has no value")) }
        i += 1
        while i < b.count, isBlank(b[i]) { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
            throw Malformed(reason: tr("an attribute value is not quoted"))
        }
        return i
    }

    /// Checks a start tag's attribute bytes as XML does: a blank before each, a name, `=`, a quoted value without
    /// `<` whose references name something, each name once.
    static func checkAttributes(_ b: UnsafeBufferPointer<UInt8>) throws {
        var names: [UnsafeBufferPointer<UInt8>] = []
        var i = 0
        while true {
            let blanks = i
            while i < b.count, isBlank(b[i]) { i += 1 }
            guard i < b.count else { return }
            guard i > blanks else { throw Malformed(reason: tr("attributes are not separated by a blank")) }
            let nameStart = i
            while i < b.count, b[i] != UInt8(ascii: "="), !isBlank(b[i]) { i += 1 }
            let name = UnsafeBufferPointer(rebasing: b[nameStart..<i])
            try checkName(name)
            if names.contains(where: { $0.elementsEqual(name) }) {
                throw Malformed(
                    // TRANSLATORS: {name} is an XML attribute's name.
                    reason: tr("the attribute {name} is given twice", ["name": String(decoding: name, as: UTF8.self)]))
            }
            names.append(name)
            i = try openingQuote(b, after: i)
            let quote = b[i]
            i += 1
            while i < b.count, b[i] != quote {
                switch b[i] {
                case lt: throw Malformed(reason: tr("an attribute value holds '<'"))
                case UInt8(ascii: "&"):
                    var end = i + 1
                    while end < b.count, end - i <= 12, b[end] != UInt8(ascii: ";") { end += 1 }
                    guard end < b.count, b[end] == UInt8(ascii: ";"),
                        reference(UnsafeBufferPointer(rebasing: b[(i + 1)..<end])) != nil
                    else { throw badReference(b, at: i, end: end, to: b.count) }
                    i = end
                case let c where c < 0x20 && !isBlank(c): throw forbidden(UInt32(c))
                default: break
                }
                i += 1
            }
            guard i < b.count else { throw Malformed(reason: tr("an attribute value is not closed")) }
            i += 1
        }
    }

    /// The character a reference's name (between `&` and `;`) stands for: one of the five entities, or a decimal
    /// or hexadecimal reference to a character XML allows; nil for anything else.
    static func reference(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        case let name:
            let code: UInt32?
            if name.hasPrefix("#x") {
                code = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                code = UInt32(name.dropFirst(), radix: 10)
            } else {
                code = nil
            }
            guard let code, isXMLCharacter(code) else { return nil }
            return Unicode.Scalar(code)
        }
    }

    /// XML 1.0's Char: tab, line feed, carriage return, and U+0020 on but surrogates, U+FFFE and U+FFFF.
    static func isXMLCharacter(_ code: UInt32) -> Bool {
        code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code)
            || (0xE000...0xFFFD).contains(code) || (0x1_0000...0x10_FFFF).contains(code)
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
            i = try openingQuote(b, after: i)
            let quote = b[i]
            let valueStart = i + 1
            i = valueStart
            while i < b.count, b[i] != quote { i += 1 }
            guard i < b.count else { throw Malformed(reason: tr("an attribute value is not closed")) }
            guard
                each(
                    UnsafeBufferPointer(rebasing: b[nameStart..<nameEnd]),
                    UnsafeBufferPointer(rebasing: b[valueStart..<i]))
            else { return }
            i += 1
        }
    }

    /// An attribute value with its five entities and numeric character references decoded, and each literal tab,
    /// line feed or carriage return (a CR LF pair once) turned into a space, as XML normalizes attribute values;
    /// nil for an unknown entity or a reference to a character XML does not allow.
    static func decode(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.contains(where: { $0 == UInt8(ascii: "&") || ($0 < 0x20) }) else {
            return String(decoding: b, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "&"):
                var end = i + 1
                while end < b.count, b[end] != UInt8(ascii: ";") { end += 1 }
                guard end < b.count, let scalar = reference(UnsafeBufferPointer(rebasing: b[(i + 1)..<end])) else {
                    return nil
                }
                out += Array(String(Character(scalar)).utf8)
                i = end + 1
            case UInt8(ascii: "\r") where i + 1 < b.count && b[i + 1] == UInt8(ascii: "\n"):
                out.append(UInt8(ascii: " "))
                i += 2
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                out.append(UInt8(ascii: " "))
                i += 1
            default:
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
