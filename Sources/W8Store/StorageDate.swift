import Foundation
import GRDB

/// Dates as GRDB stores them, `yyyy-MM-dd HH:mm:ss.SSS` in UTC, computed with integer arithmetic: GRDB's own
/// conversion goes through a DateFormatter, which costs more than the rest of an imported row.
enum StorageDate {
    /// What GRDB itself stores for `date`: what `text(_:)` must equal.
    static func grdbText(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }

    static func text(_ date: Date) -> String {
        // As CoreFoundation's date formatter computes it before ICU reads the fields: half a millisecond up, then
        // floor, also before 1970 (where `rounded()` would round away from zero).
        let milliseconds = Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down))
        var days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let inDay = milliseconds - days * 86_400_000
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else {
            func pad(_ n: Int64, _ width: Int) -> String {
                let s = String(n)
                return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
            }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(inDay / 3_600_000, 2)):"
                + "\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))"
        }
        // The 23 bytes written in place: an import formats three of these a row.
        return String(unsafeUninitializedCapacity: 23) { text in
            func put(_ n: Int64, _ width: Int, at end: Int) {
                var n = n
                for i in stride(from: end - 1, through: end - width, by: -1) {
                    text[i] = UInt8(48 + n % 10)
                    n /= 10
                }
            }
            put(year, 4, at: 4)
            put(month, 2, at: 7)
            put(day, 2, at: 10)
            put(inDay / 3_600_000, 2, at: 13)
            put(inDay / 60_000 % 60, 2, at: 16)
            put(inDay / 1000 % 60, 2, at: 19)
            put(inDay % 1000, 3, at: 23)
            for (i, byte) in [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":"), (19, ".")] as [(Int, Unicode.Scalar)]
            {
                text[i] = UInt8(ascii: byte)
            }
            return 23
        }
    }
}
