import W8App
import W8Core
import W8FuzzSupport

/// The JSON backup reader (`w8 import backup.json`), through its public entry point that takes the file's bytes:
/// any bytes give a backup or one error, and every entry it accepts is in range.
@main enum Target {
    static func main() { runFuzzer(fuzzBackup) }
}

func fuzzBackup(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    guard let backup = try? Backup(json: Array(input.bytes), options: input.options()) else { return 0 }
    for case .entry(_, let entry) in backup.rows {
        let weight = entry.weight
        fuzzCheck(weight.unit.plausibleRange.contains(weight.value), "backup entry \(weight) out of range")
    }
    return 0
}
