import W8Core
import W8FuzzSupport

/// The CSV reader and the import's format detection: any bytes give rows or one error, and the rows do not depend
/// on how the bytes were split into chunks (the importer reads 64 KiB at a time).
@main enum Target {
    static func main() { runFuzzer(fuzzCSV) }
}

func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let bytes = Array(input.bytes)
    let chunk = 1 + Int(input.selector) % 7
    let whole = importRows(bytes, chunk: max(bytes.count, 1), input: input)
    let chunked = importRows(bytes, chunk: chunk, input: input)
    fuzzCheck(whole == chunked, "rows differ when fed \(chunk) bytes at a time: \(whole) vs \(chunked)")

    for (separator, comment) in [(UInt8(ascii: ","), UInt8?.none), (UInt8(ascii: ";"), UInt8(ascii: "#"))] {
        var reader = CSVReader(separator: separator, comment: comment)
        let records = reader.feed(bytes) + reader.finish()
        var split = CSVReader(separator: separator, comment: comment)
        var pieces: [CSVRecord] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            pieces += split.feed(bytes[start..<min(start + chunk, bytes.count)])
        }
        pieces += split.finish()
        fuzzCheck(records == pieces, "CSV records differ when fed \(chunk) bytes at a time")
    }
    return 0
}

/// The import's rows for `bytes` fed `chunk` bytes at a time, with the format detected; or the error's message.
func importRows(_ bytes: [UInt8], chunk: Int, input: FuzzInput) -> String {
    var reader = DelimitedImport(format: nil, options: input.options())
    var rows: [ImportRow] = []
    do {
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            rows += try reader.feed(bytes[start..<min(start + chunk, bytes.count)])
        }
        rows += try reader.finish()
    } catch {
        return "error: \(error.localizedDescription)"
    }
    return "\(reader.formatName ?? "-"): \(rows)"
}
