import W8Core
import W8Formats
import W8FuzzSupport

/// Fitbit's and Garmin Connect's JSON record arrays (`w8 import weight-2024-03-01.json`, `steps-*.json`,
/// `*_userBioMetrics.json`, `UDSFile_*.json`), through `VendorExportStream`: any bytes give rows or one error, every
/// weigh-in it accepts is in range, every day of steps is not negative, and the rows it reads, or its refusal, do not
/// depend on how the bytes were split into chunks (a refusal's reason may, as in `fuzz-iphone-json`: a record with
/// an unknown key before a later syntax error is refused for the key in pieces and as "not valid JSON" whole). The
/// selector byte picks the file's name (which tells Fitbit's steps file from its others) and whether `--format
/// fitbit` or `garmin` was given.
@main enum Target {
    static func main() { runFuzzer(fuzzVendorJSON) }
}

let names = ["weight-2024-03-01.json", "steps-2024-03-09.json", "12345678_userBioMetrics.json", "UDSFile_1.json", "-"]
let formats: [ImportFormat?] = [nil, .fitbit, .garmin]

func fuzzVendorJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let selector = Int(input.selector)
    fuzzSameWholeAndInPieces(input, "the file") { pieces in
        var stream = VendorExportStream(
            fileName: names[selector % names.count], expected: formats[(selector / names.count) % formats.count],
            options: input.options())
        let rows = fuzzStreamedRows(pieces, feed: { try stream.feed($0) }, finish: { try stream.finish() })
        return (try? rows.get()).map { "\($0) \(String(describing: stream.kind))" } ?? "refused"
    }
    return 0
}
