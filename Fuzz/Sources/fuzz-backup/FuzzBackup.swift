import W8Core
import W8Formats
import W8FuzzSupport

/// The JSON backup reader (`w8 import backup.json`), through `BackupStream`, which reads a backup as its bytes
/// arrive: any bytes give entries and a backup or one error, every entry it accepts is in range, and whether and
/// what it reads does not depend on how the bytes were split into chunks.
@main enum Target {
    static func main() { runFuzzer(fuzzBackup) }
}

func fuzzBackup(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let chunk = input.chunk
    let (whole, chunked) = input.wholeAndInPieces { read($0, input: input) }
    // A broken backup is refused either way, but which fault is named first may differ: fed whole, the scanner finds
    // bad JSON before any member is checked; in pieces, a member before it may be refused first.
    let bothRefused = whole.hasPrefix("error: ") && chunked.hasPrefix("error: ")
    fuzzCheck(
        whole == chunked || bothRefused,
        "the backup reads differently when fed \(chunk) bytes at a time: \(whole.prefix(300)) vs \(chunked.prefix(300))"
    )
    return 0
}

/// A summary of what the stream read from `pieces` fed in order (each entry, then the rest), or the error's
/// message; every accepted entry is checked to be in range on the way.
func read(_ pieces: [ArraySlice<UInt8>], input: FuzzInput) -> String {
    var stream = BackupStream(options: input.options())
    var rows: [ImportRow] = []
    do {
        for piece in pieces {
            rows += try stream.feed(Array(piece))
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
