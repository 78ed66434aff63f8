import Foundation
import W8Core
import W8Formats
import W8FuzzSupport

/// `--date` (DateInput) on the whole input, and a `--date-format` pattern (first line) with an import date
/// (the rest): an accepted date is never in the future and never before 1900.
@main enum Target {
    static func main() { runFuzzer(fuzzDates) }
}

func fuzzDates(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let calendar = input.calendar
    let now = FuzzInput.now
    if let date = try? DateInput.parse(input.text, now: now, calendar: calendar) {
        fuzzCheck(date.timeIntervalSince(now) <= DateInput.futureTolerance, "future date from '\(input.text)'")
    }
    let (patternText, dateText) = input.twoLines
    let pattern = try? DatePattern(patternText)
    let options = input.options(datePattern: pattern)
    for candidate in [pattern, nil] {
        if let date = try? ImportDates.parse(dateText, pattern: candidate, options: options) {
            fuzzCheck(date.timeIntervalSince(now) <= DateInput.futureTolerance, "future date from '\(dateText)'")
            // 1900-01-01 00:00 at UTC+14, the earliest local midnight of 1900 anywhere.
            fuzzCheck(date.timeIntervalSince1970 > -2_208_988_800 - 14 * 3600, "date before 1900 from '\(dateText)'")
        }
    }
    return 0
}
