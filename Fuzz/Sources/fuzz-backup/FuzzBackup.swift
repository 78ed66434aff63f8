import W8App
import W8Core
import W8FuzzSupport

/// The JSON backup reader (`w8 import backup.json`), through `BackupStream`, which reads a backup as its bytes
/// arrive: any bytes give entries and a backup or one error, every entry it accepts is in range, and whether and
/// what it reads does not depend on how the bytes were split into chunks.
@main enum Target {
    static func main() { runFuzzer(fuzzBackup) }
}

func fuzzBackup(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let bytes = Array(input.bytes)
    let chunk = 1 + Int(input.selector) % 7
    let whole = read(bytes, chunk: max(bytes.count, 1), input: input)
    let chunked = read(bytes, chunk: chunk, input: input)
    // A broken backup is refused either way, but which fault is named first may differ: fed whole, the scanner finds
    // bad JSON before any member is checked; in pieces, a member before it may be refused first.
    let bothRefused = whole.hasPrefix("error: ") && chunked.hasPrefix("error: ")
    fuzzCheck(
        whole == chunked || bothRefused,
        "the backup reads differently when fed \(chunk) bytes at a time: \(whole.prefix(300)) vs \(chunked.prefix(300))"
    )
    return 0
}

/// A summary of what the stream read from `bytes` fed `chunk` bytes at a time (each entry, then the rest), or the
/// error's message; every accepted entry is checked to be in range on the way.
func read(_ bytes: [UInt8], chunk: Int, input: FuzzInput) -> String {
    var stream = BackupStream(options: input.options())
    var rows: [ImportRow] = []
    do {
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            rows += try stream.feed(Array(bytes[start..<min(start + chunk, bytes.count)]))
        }
        let backup = try stream.finish()
        for case .entry(_, let entry) in rows {
            let weight = entry.weight
            fuzzCheck(weight.unit.plausibleRange.contains(weight.value), "backup entry \(weight) out of range")
        }
        return "\(rows) \(backup.journey) \(backup.settings.count) \(backup.unknownSettings)"
    } catch {
        return "error: \(error.localizedDescription)"
    }
}
