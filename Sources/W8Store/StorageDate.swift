import Foundation
import GRDB

/// Dates as GRDB stores them, `yyyy-MM-dd HH:mm:ss.SSS` in UTC, computed with integer arithmetic instead of GRDB's
/// DateFormatter: for the bench row "w8 import of a 100k-row CSV / sqlite3 .import" (bench/README.md, "Start-up
/// tricks").
enum StorageDate {
    /// What GRDB itself stores for `date`: what `text(_:)` must equal.
    static func grdbText(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }
    /// What GRDB itself reads from `text`: what `date(_:)` must equal.
    static func grdbDate(_ text: String) -> Date? { Date.fromDatabaseValue(text.databaseValue) }

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

    /// The date of a column, as GRDB reads it; the spelling `text(_:)` writes is read with integer arithmetic (GRDB
    /// goes through `DateComponents` and a `Calendar`, which cost most of reading a year of entries for the trend).
    static func date(in row: Row, _ column: String) -> Date { date(row[column]) }

    /// A stored date, as GRDB reads it (and as `row[column] as Date` does, a value that is no date is a
    /// programming error).
    static func date(_ value: DatabaseValue) -> Date {
        if let text = String.fromDatabaseValue(value), let date = date(text) { return date }
        return Date.fromDatabaseValue(value)!
    }

    /// The inverse of `text(_:)`; nil for any other spelling.
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { b -> Date? in
            guard b.count == 23, b[4] == 45, b[7] == 45, b[10] == 32, b[13] == 58, b[16] == 58, b[19] == 46 else {
                return nil
            }
            func number(_ range: Range<Int>) -> Int64? {
                var n: Int64 = 0
                for i in range {
                    let digit = b[i] &- 48
                    guard digit < 10 else { return nil }
                    n = n * 10 + Int64(digit)
                }
                return n
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                let millisecond = number(20..<23), (1...12).contains(month), (1...31).contains(day), hour < 24,
                minute < 60, second < 60
            else { return nil }
            // Days since 1970-01-01 from the civil date (Howard Hinnant's algorithm), March-based years.
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            // Summed as Foundation's calendar sums them (`Date.fromDatabaseValue` asks it): the day's start, then the
            // time of day with its fraction. One sum of all the seconds differs in the last bit for 5 dates in
            // 200,000, all within two months of 2001 (StorageDateTests found 2000-12-31 18:09:15.918).
            let secondsOfDay = Double(hour * 3600 + minute * 60 + second) + Double(millisecond) / 1000
            return Date(timeIntervalSinceReferenceDate: Double(days * 86400 - 978_307_200) + secondsOfDay)
        }
    }
}
