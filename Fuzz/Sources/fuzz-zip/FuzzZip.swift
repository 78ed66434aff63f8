import W8Core
import W8Formats
import W8FuzzSupport

/// The ZIP reader of `w8 import export.zip` (`ZipMember`): any bytes give the Apple Health export, read to its end,
/// or one error. Never a trap: every number the archive states (counts, offsets, sizes, ZIP64's 64-bit fields) is
/// checked before it is used. What it reads is at most what the directory says, and a member read to its end has
/// the size the directory states.
@main enum Target {
    static func main() { runFuzzer(fuzzZip) }
}

/// The fuzzer's bytes as a file read at any offset.
final class Bytes: ZipSource {
    let bytes: [UInt8]
    let name = "fuzz.zip"
    var size: Int64? { Int64(bytes.count) }
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        fuzzCheck(offset >= 0 && count >= 0, "read at \(offset), \(count) bytes")
        guard offset < Int64(bytes.count) else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}

func fuzzZip(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let file = Bytes(Array(FuzzInput(data, count).bytes))
    do {
        let entries = try ZipMember.directory(file)
        fuzzCheck(entries.allSatisfy { $0.compressed >= 0 && $0.uncompressed >= 0 && $0.local >= 0 }, "\(entries)")
        let member = try ZipMember.healthExport(file)
        let entry = entries.first { $0.name == member.name }
        var total: Int64 = 0
        while true {
            let chunk = try member.read(upTo: 4096)
            if chunk.isEmpty { break }
            total += Int64(chunk.count)
            fuzzCheck(total <= entry?.uncompressed ?? .max, "read \(total) bytes of \(String(describing: entry))")
        }
        fuzzCheck(total == entry?.uncompressed, "read \(total) bytes to the end of \(String(describing: entry))")
    } catch {
        fuzzCheck(error is W8FormatsError, "an error that is no W8FormatsError: \(error)")
    }
    return 0
}
