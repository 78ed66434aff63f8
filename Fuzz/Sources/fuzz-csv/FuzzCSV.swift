import W8Core
import W8Formats
import W8FuzzSupport

/// The CSV reader and the import's format detection: any bytes give rows or one error, and the rows do not depend
/// on how the bytes were split into chunks (the importer reads 64 KiB at a time).
@main enum Target {
    static func main() { runFuzzer(fuzzCSV) }
}

func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let bytes = Array(input.bytes)
    let chunk = input.chunk
    let (whole, chunked) = input.wholeAndInPieces { importRows($0, input: input) }
    fuzzCheck(whole == chunked, "rows differ when fed \(chunk) bytes at a time: \(whole) vs \(chunked)")

    for (separator, comment) in [(UInt8(ascii: ","), UInt8?.none), (UInt8(ascii: ";"), UInt8(ascii: "#"))] {
        let records = csvRecords([bytes[...]], separator: separator, comment: comment)
        let pieces = csvRecords(FuzzInput.pieces(of: bytes, size: chunk), separator: separator, comment: comment)
        fuzzCheck(records == pieces, "CSV records differ when fed \(chunk) bytes at a time")
    }
    return 0
}

/// The records of `pieces` fed in order, or the error's message.
func csvRecords(_ pieces: [ArraySlice<UInt8>], separator: UInt8, comment: UInt8?) -> String {
    var reader = CSVReader(separator: separator, comment: comment)
    var records: [CSVRecord] = []
    do {
        for piece in pieces { records += try reader.feed(piece) }
        records += try reader.finish()
    } catch {
        return "error: \(error.localizedDescription)"
    }
    return "\(records)"
}

/// The import's rows for `pieces` fed in order, with the format detected; or the error's message.
func importRows(_ pieces: [ArraySlice<UInt8>], input: FuzzInput) -> String {
    var reader = DelimitedImport(format: nil, options: input.options())
    var rows: [ImportRow] = []
    do {
        for piece in pieces {
            rows += try reader.feed(piece)
        }
        rows += try reader.finish()
    } catch {
        return "error: \(error.localizedDescription)"
    }
    return "\(reader.formatName ?? "-"): \(rows)"
}
