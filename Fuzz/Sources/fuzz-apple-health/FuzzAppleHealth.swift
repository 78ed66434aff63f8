import W8Core
import W8Formats
import W8FuzzSupport

/// Apple Health's export.xml reader (`w8 import export.xml`), through `AppleHealthStream`, which scans the XML as its
/// bytes arrive: any bytes give rows or one error, every weigh-in it accepts is in range, every day of steps is not
/// negative, and what it reads (the error's words included) does not depend on how the bytes were split into chunks.
@main enum Target {
    static func main() { runFuzzer(fuzzAppleHealth) }
}

func fuzzAppleHealth(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    fuzzSameWholeAndInPieces(input, "the export") { pieces in
        var stream = AppleHealthStream(options: input.options())
        switch fuzzStreamedRows(pieces, feed: { try stream.feed($0) }, finish: { try stream.finish() }) {
        case .success(let rows): return "\(rows) \(stream.duplicates)"
        case .failure(let error): return "error: \(error.localizedDescription)"
        }
    }
    return 0
}
