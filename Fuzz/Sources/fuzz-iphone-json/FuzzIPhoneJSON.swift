import W8Core
import W8Formats
import W8FuzzSupport

/// The W8Trackr iPhone app's JSON export (`w8 import w8trackr.json`), through `IPhoneExportStream`, which reads its
/// entries as the bytes arrive: any bytes give rows or one error, every weigh-in it accepts is in range, and the rows
/// it reads, or its refusal, do not depend on how the bytes were split into chunks.
///
/// A refusal's reason may: the smoke run's first input (`"entries": ` then NUL bytes) is "not valid JSON" whole and
/// `"entries" is not an array` in pieces, where the stream reports what it has read so far. Both refuse; which
/// reason is named is left as found (README, fuzz table).
@main enum Target {
    static func main() { runFuzzer(fuzzIPhoneJSON) }
}

func fuzzIPhoneJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    fuzzSameWholeAndInPieces(input, "the export") { pieces in
        var stream = IPhoneExportStream(options: input.options())
        let rows = fuzzStreamedRows(
            pieces, feed: { try stream.feed($0) },
            finish: {
                try stream.finish()
                return []
            })
        return (try? rows.get()).map { "\($0)" } ?? "refused"
    }
    return 0
}
