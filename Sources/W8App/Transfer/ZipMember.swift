import CZlib
import Foundation
import W8Text

/// One member of a ZIP archive, inflated as a stream: the central directory (ZIP64 too, for exports past 4 GB) is
/// read with `pread`, then the member's deflated bytes are read a chunk at a time and inflated through zlib.
final class ZipMember {
    let name: String
    private let file: InputFile
    private let method: UInt16
    private let compressedSize: Int64
    private var offset: Int64
    private var remaining: Int64
    private var stream = z_stream()
    private var inflating = false
    private var input: [UInt8] = []
    private var ended = false

    /// The ZIP's first four bytes, `PK\3\4`.
    static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// Bytes of the member read, and its compressed size, for progress.
    var progress: (done: Int64, total: Int64) { (compressedSize - remaining, compressedSize) }

    /// Finds the member `matching` names in `file`'s central directory. Throws `AppError.badInput` naming what is
    /// wrong.
    init(_ file: InputFile, matching: (String) -> Bool, describe: String) throws {
        self.file = file
        guard let size = file.size, file.isSeekable else {
            throw AppError.badInput(
                tr(
                    // TRANSLATORS: {file} is the file given to w8 import; {member} the file inside the ZIP, as
                    // apple_health_export/export.xml.
                    "{file} is a ZIP archive, which w8 reads only from a file: give its path, or unzip it and import {member}",
                    ["file": file.name, "member": describe]))
        }
        func bad(_ reason: String) -> AppError {
            AppError.badInput(
                // TRANSLATORS: {file} is the file given to w8 import; {reason} one of the ZIP reasons, as "its central
                // directory is damaged".
                tr("{file} is not a ZIP archive w8 can read: {reason}", ["file": file.name, "reason": reason]))
        }
        // The end of central directory record: 22 bytes and a comment of up to 65,535.
        let tailSize = Int(min(size, 22 + 65_535 + 20))
        let tail = try file.read(at: size - Int64(tailSize), count: tailSize)
        guard tail.count >= 22,
            let eocd = (0...(tail.count - 22)).reversed().first(where: {
                tail[$0] == 0x50 && tail[$0 + 1] == 0x4B && tail[$0 + 2] == 0x05 && tail[$0 + 3] == 0x06
            })
        else { throw bad(tr("it has no end of central directory")) }
        var entries = Int64(Self.u16(tail, eocd + 10))
        var directorySize = Int64(Self.u32(tail, eocd + 12))
        var directoryOffset = Int64(Self.u32(tail, eocd + 16))
        // ZIP64: a locator just before the record points at the ZIP64 end of central directory.
        if eocd >= 20, tail[eocd - 20] == 0x50, tail[eocd - 19] == 0x4B, tail[eocd - 18] == 0x06,
            tail[eocd - 17] == 0x07
        {
            let at = Int64(Self.u64(tail, eocd - 20 + 8))
            let record = try file.read(at: at, count: 56)
            guard record.count == 56, record.starts(with: [0x50, 0x4B, 0x06, 0x06]) else {
                throw bad(tr("its ZIP64 end of central directory is missing"))
            }
            entries = Int64(Self.u64(record, 32))
            directorySize = Int64(Self.u64(record, 40))
            directoryOffset = Int64(Self.u64(record, 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= size,
            directorySize < 256 * 1024 * 1024
        else { throw bad(tr("its central directory lies outside the file")) }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        var at = 0
        var found: (name: String, method: UInt16, compressed: Int64, local: Int64)?
        for _ in 0..<entries {
            guard at + 46 <= directory.count, directory[at..<(at + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) else {
                throw bad(tr("its central directory is damaged"))
            }
            let method = Self.u16(directory, at + 10)
            var compressed = Int64(Self.u32(directory, at + 20))
            var uncompressed = Int64(Self.u32(directory, at + 24))
            let nameLength = Int(Self.u16(directory, at + 28))
            let extraLength = Int(Self.u16(directory, at + 30))
            let commentLength = Int(Self.u16(directory, at + 32))
            var local = Int64(Self.u32(directory, at + 42))
            guard at + 46 + nameLength + extraLength <= directory.count else {
                throw bad(tr("its central directory is damaged"))
            }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            // ZIP64 extended information: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.u16(directory, extra)
                let length = Int(Self.u16(directory, extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extraEnd {
                        uncompressed = Int64(Self.u64(directory, field))
                        field += 8
                    }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extraEnd {
                        compressed = Int64(Self.u64(directory, field))
                        field += 8
                    }
                    if local == 0xFFFF_FFFF, field + 8 <= extraEnd { local = Int64(Self.u64(directory, field)) }
                }
                extra += 4 + length
            }
            if found == nil, matching(name) { found = (name, method, compressed, local) }
            at = extraEnd + commentLength
        }
        guard let found else {
            throw AppError.badInput(tr("{file} holds no {member}", ["file": file.name, "member": describe]))
        }
        guard found.method == 8 || found.method == 0 else {
            throw bad(
                tr(
                    "{member} is compressed with method {method}; w8 reads stored and deflated members",
                    ["member": found.name, "method": found.method]))
        }
        let header = try file.read(at: found.local, count: 30)
        guard header.count == 30, header.starts(with: Self.magic) else {
            throw bad(tr("{member} has no local header", ["member": found.name]))
        }
        name = found.name
        method = found.method
        compressedSize = found.compressed
        offset = found.local + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        remaining = found.compressed
        guard offset + remaining <= size else {
            throw bad(tr("{member} runs past the end of the file", ["member": found.name]))
        }
    }

    deinit { if inflating { inflateEnd(&stream) } }

    /// The next inflated chunk; empty at the member's end.
    func read(upTo count: Int = 256 * 1024) throws -> [UInt8] {
        if method == 0 {
            guard remaining > 0 else { return [] }
            let bytes = try file.read(at: offset, count: Int(min(Int64(count), remaining)))
            guard !bytes.isEmpty else {
                throw AppError.badInput(tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
            }
            offset += Int64(bytes.count)
            remaining -= Int64(bytes.count)
            return bytes
        }
        if !inflating {
            guard czlib_inflate_init_raw(&stream) == Z_OK else { throw AppError.badInput(tr("zlib could not start")) }
            inflating = true
        }
        var output = [UInt8](repeating: 0, count: count)
        var produced = 0
        while produced == 0, !ended {
            if stream.avail_in == 0 {
                guard remaining > 0 else {
                    throw AppError.badInput(tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
                }
                input = try file.read(at: offset, count: Int(min(Int64(256 * 1024), remaining)))
                guard !input.isEmpty else {
                    throw AppError.badInput(tr("{file}: {member} is cut short", ["file": file.name, "member": name]))
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
                throw AppError.badInput(
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
