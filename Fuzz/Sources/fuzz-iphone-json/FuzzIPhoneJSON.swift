import W8Core
import W8Formats
import W8FuzzSupport

/// The W8Trackr iPhone app's JSON export (`w8 import w8trackr.json`), through `IPhoneExportStream`, which reads its
/// entries as the bytes arrive: any bytes give rows or one error, every weigh-in it accepts is in range, and what it
/// reads does not depend on how the bytes were split into chunks.
@main enum Target {
    static func main() { runFuzzer(fuzzIPhoneJSON) }
}

func fuzzIPhoneJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let (whole, chunked) = input.wholeAndInPieces { read($0, input: input) }
    fuzzCheck(
        whole == chunked,
        "the export reads differently when fed \(input.chunk) bytes at a time: \(whole.prefix(300)) vs "
            + "\(chunked.prefix(300))")
    return 0
}

/// A summary of what the stream read from `pieces` fed in order, or the error's message; every accepted weigh-in
/// is checked on the way.
func read(_ pieces: [ArraySlice<UInt8>], input: FuzzInput) -> String {
    var stream = IPhoneExportStream(options: input.options())
    var rows: [ImportRow] = []
    do {
        for piece in pieces { rows += try stream.feed(Array(piece)) }
        try stream.finish()
    } catch {
        // Refused whole and refused in pieces, not always for the same reason: the smoke run's first inputs
        // (`"entries": ` then NUL bytes; a record with an unknown key before a later syntax error) are told as
        // "not valid JSON" whole and as the first wrong value in pieces, where the stream reports what it has
        // read so far. Both refuse; which reason is named is left as found (README, fuzz table).
        _ = error
        return "refused"
    }
    for case .entry(_, let entry) in rows {
        fuzzCheck(entry.weight.unit.plausibleRange.contains(entry.weight.value), "weigh-in \(entry) out of range")
    }
    return "\(rows)"
}
