import CLibFuzzer
import Foundation
import W8Core
import W8Formats

/// The bytes libFuzzer hands a target, and the fixed context every target parses them in.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>

    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = UnsafeBufferPointer(start: count > 0 ? data : nil, count: count)
    }

    /// The bytes as text, invalid UTF-8 repaired as the command line and the CSV reader repair it.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text split at its first line break: for targets that take two inputs, such as a pattern and a date.
    public var twoLines: (String, String) {
        let text = self.text
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }

    /// The first byte, to pick among variants (unit, chunk size); 0 for empty input.
    public var selector: UInt8 { bytes.first ?? 0 }

    /// The moment the input is read at, after the seed backup's dates: 2026-12-01 12:00 UTC.
    public static let now = Date(timeIntervalSince1970: 1_796_126_400)

    /// Gregorian calendars in zones with daylight saving, with none, and with a half-hour offset.
    public static let calendars: [Calendar] = ["America/New_York", "Europe/Berlin", "UTC", "Asia/Kolkata"].map {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: $0)!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    /// A calendar picked by the selector byte.
    public var calendar: Calendar { Self.calendars[Int(selector) % Self.calendars.count] }

    /// Import options as `w8 import` builds them, with the unit picked by the selector byte.
    public func options(datePattern: DatePattern? = nil) -> ImportOptions {
        let units: [WeightUnit?] = [nil, .kg, .lb]
        return ImportOptions(
            unit: units[Int(selector) % 3], preferredUnit: selector & 8 == 0 ? .lb : .kg, datePattern: datePattern,
            now: Self.now, calendar: calendar)
    }
}

extension FuzzInput {
    /// The size of the pieces that streaming readers are fed, picked by the selector byte: 1 to 7 bytes.
    public var chunk: Int { 1 + Int(selector) % 7 }

    /// What `read` makes of the bytes fed whole and fed `chunk` bytes at a time, for the streaming readers
    /// (CSV, backup) that promise the two are the same; `read` gets the pieces in order.
    public func wholeAndInPieces<Result>(_ read: ([ArraySlice<UInt8>]) -> Result) -> (whole: Result, pieces: Result) {
        let bytes = Array(self.bytes)
        return (read(Self.pieces(of: bytes, size: max(bytes.count, 1))), read(Self.pieces(of: bytes, size: chunk)))
    }

    /// `bytes` cut into pieces of `size` bytes, the last one shorter; none for no bytes.
    public static func pieces(of bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
    }
}

/// Stops the run with `message` when a parser's promise is broken; libFuzzer records the input as a crash.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz check failed: \(message())") }
}

/// Runs libFuzzer (`LLVMFuzzerRunDriver`) with the process's arguments, calling `test` with each input, and exits
/// with its status. Each target's `@main` calls this: SwiftPM links an executable against the target's own main.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// The promise of the streaming readers (Apple Health, the iPhone app's JSON, Fitbit's and Garmin's JSON): `read`
/// makes the same of the bytes fed whole and fed `input.chunk` bytes at a time.
public func fuzzSameWholeAndInPieces(_ input: FuzzInput, _ what: String, _ read: ([ArraySlice<UInt8>]) -> String) {
    let (whole, chunked) = input.wholeAndInPieces(read)
    fuzzCheck(
        whole == chunked,
        "\(what) reads differently when fed \(input.chunk) bytes at a time: \(whole.prefix(300)) vs "
            + "\(chunked.prefix(300))")
}

/// What a streaming reader makes of `pieces` fed in order through `feed`, then `finish`: its rows, each checked on
/// the way (a weigh-in within its unit's range, a day of steps and distance not negative), or the error it threw.
public func fuzzStreamedRows(
    _ pieces: [ArraySlice<UInt8>], feed: ([UInt8]) throws -> [ImportRow], finish: () throws -> [ImportRow]
) -> Result<[ImportRow], any Error> {
    var rows: [ImportRow] = []
    do {
        for piece in pieces { rows += try feed(Array(piece)) }
        rows += try finish()
    } catch {
        return .failure(error)
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
    return .success(rows)
}
