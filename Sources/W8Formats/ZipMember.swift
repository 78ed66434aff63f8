import CZlib
import Foundation
import W8Core
import W8Text

/// What a ZIP archive is read from: a file that can be read at any offset (`pread`), and its size.
public protocol ZipSource: AnyObject {
    /// The file, as errors name it.
    var name: String { get }
    /// Its size in bytes.
    var size: Int64? { get }
    /// Up to `count` bytes at `offset`; fewer only at the end.
    func read(at offset: Int64, count: Int) throws -> [UInt8]
}

/// One member of a ZIP archive, inflated as a stream: the central directory (ZIP64 too, for exports past 4 GB) is
/// read with `pread`, then the member's deflated bytes are read a chunk at a time and inflated through zlib. What
/// comes out is checked against the directory: its CRC-32 and its size, at the member's end.
///
/// Every number the archive states is checked before it is used: a 64-bit field past `Int64.max`, an offset or a
/// size past the file's end, and a count of entries the directory cannot hold are refused as a damaged archive
/// (exit 65), never converted or added unchecked.
public final class ZipMember {
    /// One member, as the central directory describes it.
    public struct Entry: Sendable {
        public var name: String
        public var method: UInt16
        public var compressed: Int64
        public var uncompressed: Int64
        public var crc: UInt32
        public var local: Int64
    }

    public let name: String
    private let file: any ZipSource
    private let method: UInt16
    private let compressedSize: Int64
    private let expectedSize: Int64
    private let expectedCRC: UInt32
    private var offset: Int64
    private var remaining: Int64
    private var stream = z_stream()
    private var inflating = false
    private var input: [UInt8] = []
    private var ended = false
    private var crc: UInt = 0
    private var produced: Int64 = 0
    private var verified = false

    /// The ZIP's first four bytes, `PK\3\4`.
    public static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// Bytes of the member read, and its compressed size, for progress.
    public var progress: (done: Int64, total: Int64) { (compressedSize - remaining, compressedSize) }

    /// The error for an archive w8 cannot read, `reason` saying why.
    static func bad(_ file: any ZipSource, _ reason: String) -> W8FormatsError {
        W8FormatsError.archive(
            // TRANSLATORS: {file} is the file given to w8 import; {reason} one of the ZIP reasons, as "its central
            // directory is damaged".
            tr("{file} is not a ZIP archive w8 can read: {reason}", ["file": file.name, "reason": reason]))
    }

    /// Apple Health's export in `file`, found by what it holds, not by its name: the first XML member whose root is
    /// `HealthData`. An iPhone names the export in its language (`apple_health_export/exportar.xml` in Spanish,
    /// `eksport.xml` in Norwegian, `vienti.xml` in Finnish; iOS 9 put `exportación.xml` at the archive's top), and
    /// beside it `export_cda.xml`, a ClinicalDocument, keeps its English name.
    public static func healthExport(_ file: any ZipSource) throws -> ZipMember {
        for entry in try directory(file) where isXMLName(entry.name) {
            let probe = try ZipMember(file, entry)
            var head: [UInt8] = []
            var verdict: Bool?
            while verdict == nil {
                let chunk = try probe.read(upTo: 64 * 1024)
                head += chunk
                verdict = chunk.isEmpty ? false : ImportFormat.isAppleHealthXML(head)
            }
            if verdict == true { return try ZipMember(file, entry) }
        }
        throw W8FormatsError.archive(
            tr(
                // TRANSLATORS: an error; {file} is the file given to w8 import, {root} the XML element "HealthData".
                "{file} holds no Apple Health export: no XML file in it has the root {root}",
                ["file": file.name, "root": "HealthData"]))
    }

    /// Whether a member's name is an XML file's: `.xml` at its end, not a folder, not macOS's `__MACOSX/` copies.
    static func isXMLName(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".xml") && !name.hasPrefix("__MACOSX/")
    }

    /// The members `file`'s central directory lists, in its order. Throws `AppError.badInput` naming what is wrong.
    public static func directory(_ file: any ZipSource) throws -> [Entry] {
        guard let size = file.size else { throw bad(file, tr("it has no end of central directory")) }
        let damaged = bad(file, tr("its central directory is damaged"))
        // The end of central directory record: 22 bytes and a comment of up to 65,535.
        let tailSize = Int(min(size, 22 + 65_535 + 20))
        let tail = try file.read(at: size - Int64(tailSize), count: tailSize)
        guard tail.count >= 22,
            let eocd = (0...(tail.count - 22)).reversed().first(where: {
                tail[$0] == 0x50 && tail[$0 + 1] == 0x4B && tail[$0 + 2] == 0x05 && tail[$0 + 3] == 0x06
            })
        else { throw bad(file, tr("it has no end of central directory")) }
        var entries = Int64(u16(tail, eocd + 10))
        var directorySize = Int64(u32(tail, eocd + 12))
        var directoryOffset = Int64(u32(tail, eocd + 16))
        // ZIP64: a locator just before the record points at the ZIP64 end of central directory.
        if eocd >= 20, tail[eocd - 20] == 0x50, tail[eocd - 19] == 0x4B, tail[eocd - 18] == 0x06,
            tail[eocd - 17] == 0x07
        {
            let missing = bad(file, tr("its ZIP64 end of central directory is missing"))
            guard let at = Int64(exactly: u64(tail, eocd - 20 + 8)), at <= size - 56 else { throw missing }
            let record = try file.read(at: at, count: 56)
            guard record.count == 56, record.starts(with: [0x50, 0x4B, 0x06, 0x06]) else { throw missing }
            guard let count = Int64(exactly: u64(record, 32)), let length = Int64(exactly: u64(record, 40)),
                let start = Int64(exactly: u64(record, 48))
            else { throw damaged }
            (entries, directorySize, directoryOffset) = (count, length, start)
        }
        guard directoryOffset <= size, directorySize <= size - directoryOffset, directorySize < 256 * 1024 * 1024
        else { throw bad(file, tr("its central directory lies outside the file")) }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        // Each entry takes 46 bytes at the least: a count past that is a lie, refused before any is read.
        guard entries <= Int64(directory.count / 46) else { throw damaged }
        var at = 0
        var found: [Entry] = []
        for _ in 0..<entries {
            guard at + 46 <= directory.count, directory[at..<(at + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) else {
                throw damaged
            }
            let method = u16(directory, at + 10)
            let crc = u32(directory, at + 16)
            var compressed = Int64(u32(directory, at + 20))
            var uncompressed = Int64(u32(directory, at + 24))
            let nameLength = Int(u16(directory, at + 28))
            let extraLength = Int(u16(directory, at + 30))
            let commentLength = Int(u16(directory, at + 32))
            var local = Int64(u32(directory, at + 42))
            guard at + 46 + nameLength + extraLength <= directory.count else { throw damaged }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            // ZIP64 extended information: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(directory, extra)
                let length = Int(u16(directory, extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    /// The next 64-bit field, refused past `Int64.max`.
                    func next() throws -> Int64? {
                        guard field + 8 <= extraEnd else { return nil }
                        defer { field += 8 }
                        guard let value = Int64(exactly: u64(directory, field)) else { throw damaged }
                        return value
                    }
                    if uncompressed == 0xFFFF_FFFF, let value = try next() { uncompressed = value }
                    if compressed == 0xFFFF_FFFF, let value = try next() { compressed = value }
                    if local == 0xFFFF_FFFF, let value = try next() { local = value }
                }
                extra += 4 + length
            }
            found.append(
                Entry(
                    name: name, method: method, compressed: compressed, uncompressed: uncompressed, crc: crc,
                    local: local))
            at = extraEnd + commentLength
        }
        return found
    }

    /// The member `entry` of `file`, ready to be read from its start.
    public init(_ file: any ZipSource, _ entry: Entry) throws {
        self.file = file
        guard entry.method == 8 || entry.method == 0 else {
            throw Self.bad(
                file,
                tr(
                    "{member} is compressed with method {method}; w8 reads stored and deflated members",
                    ["member": entry.name, "method": entry.method]))
        }
        let size = file.size ?? 0
        guard entry.local <= size - 30 else {
            throw Self.bad(file, tr("{member} has no local header", ["member": entry.name]))
        }
        let header = try file.read(at: entry.local, count: 30)
        guard header.count == 30, header.starts(with: Self.magic) else {
            throw Self.bad(file, tr("{member} has no local header", ["member": entry.name]))
        }
        name = entry.name
        method = entry.method
        compressedSize = entry.compressed
        expectedSize = entry.uncompressed
        expectedCRC = entry.crc
        offset = entry.local + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        remaining = entry.compressed
        guard offset <= size, remaining <= size - offset else {
            throw Self.bad(file, tr("{member} runs past the end of the file", ["member": entry.name]))
        }
    }

    deinit { if inflating { inflateEnd(&stream) } }

    /// The next inflated chunk; empty at the member's end.
    public func read(upTo count: Int = 256 * 1024) throws -> [UInt8] {
        let bytes = try inflated(upTo: count)
        guard !bytes.isEmpty else {
            try verify()
            return []
        }
        crc = bytes.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, UInt32($0.count)) }
        produced += Int64(bytes.count)
        guard produced <= expectedSize else { throw sizeMismatch() }
        return bytes
    }

    /// At the member's end: what came out is what the directory says, in size and CRC-32.
    private func verify() throws {
        guard !verified else { return }
        guard produced == expectedSize else { throw sizeMismatch() }
        guard crc == UInt(expectedCRC) else {
            throw W8FormatsError.archive(
                tr(
                    // TRANSLATORS: an error; {file} is the file given to w8 import, {member} the file inside the ZIP;
                    // {found} and {stated} are CRC-32 checksums in hexadecimal.
                    "{file}: {member} is damaged: its CRC-32 is {found}, its directory says {stated}",
                    [
                        "file": file.name, "member": name, "found": Self.hex(UInt32(truncatingIfNeeded: crc)),
                        "stated": Self.hex(expectedCRC),
                    ]))
        }
        verified = true
    }

    private func sizeMismatch() -> W8FormatsError {
        W8FormatsError.archive(
            tr(
                // TRANSLATORS: an error; {file} is the file given to w8 import, {member} the file inside the ZIP;
                // {found} and {stated} are numbers of bytes.
                "{file}: {member} is damaged: it holds {found} bytes or more, its directory says {stated}",
                ["file": file.name, "member": name, "found": produced, "stated": expectedSize]))
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The next chunk as it comes out of the member, unchecked; empty at its end.
    private func inflated(upTo count: Int) throws -> [UInt8] {
        if method == 0 {
            guard remaining > 0 else { return [] }
            let bytes = try file.read(at: offset, count: Int(min(Int64(count), remaining)))
            guard !bytes.isEmpty else {
                throw W8FormatsError.archive(tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
            }
            offset += Int64(bytes.count)
            remaining -= Int64(bytes.count)
            return bytes
        }
        if !inflating {
            guard czlib_inflate_init_raw(&stream) == Z_OK else {
                throw W8FormatsError.archive(tr("zlib could not start"))
            }
            inflating = true
        }
        var output = [UInt8](repeating: 0, count: count)
        var produced = 0
        while produced == 0, !ended {
            if stream.avail_in == 0 {
                guard remaining > 0 else {
                    throw W8FormatsError.archive(
                        tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
                }
                input = try file.read(at: offset, count: Int(min(Int64(256 * 1024), remaining)))
                guard !input.isEmpty else {
                    throw W8FormatsError.archive(
                        tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
                }
                offset += Int64(input.count)
                remaining -= Int64(input.count)
            }
            let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    if stream.avail_in == 0 {
                        stream.next_in = inBuffer.baseAddress
                        stream.avail_in = UInt32(inBuffer.count)
                    } else {
                        // Resume where the last call stopped in the same input.
                        stream.next_in = inBuffer.baseAddress! + (inBuffer.count - Int(stream.avail_in))
                    }
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
            }
            produced = count - Int(stream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END: ended = true
            default:
                // TRANSLATORS: zlib's error number, when zlib gives no words; ends "… does not inflate: …".
                let reason = stream.msg.map { String(cString: $0) } ?? tr("status {status}", ["status": status])
                throw W8FormatsError.archive(
                    tr(
                        "{file}: {member} does not inflate: {reason}",
                        ["file": file.name, "member": name, "reason": reason]))
            }
        }
        output.removeLast(count - produced)
        return output
    }

    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16
    }
    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32 }
}
