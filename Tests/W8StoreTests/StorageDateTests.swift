import Foundation
import Testing
import W8TestSupport

@testable import W8Store

@Suite struct StorageDateTests {
    // Imported rows are written with StorageDate, rows added one by one with GRDB's own conversion: the two must
    // agree, or ordering by date and "same date" look-ups would mix two spellings.
    @Test func agreesWithGRDBsStorageFormat() throws {
        // Seeded, and the seed is in every failure message: W8_SEED=N repeats a failing run.
        var generator = SeededRandom.fromEnvironment("storage dates")
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400),
            Date(timeIntervalSince1970: 4_107_542_399.999), Date(timeIntervalSince1970: 1_709_251_199.5),
            // Half a millisecond before 1970: found by the random cases below; GRDB rounds it up, not away from 0.
            Date(timeIntervalSince1970: -1_937_544_491.0035),
            // Near 2001, where a single sum of the seconds read back one bit off GRDB's (found in CI): 2000-12-31
            // 18:09:15.918 and the four others of 200,000 random milliseconds.
            Date(timeIntervalSince1970: 978_286_155.918), Date(timeIntervalSince1970: 974_237_577.706),
            Date(timeIntervalSince1970: 978_533_535.382), Date(timeIntervalSince1970: 979_041_088.516),
            Date(timeIntervalSince1970: 978_728_158.693),
        ]
        for _ in 0..<2000 {
            let ms = Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator)
            dates.append(Date(timeIntervalSince1970: Double(ms) / 1000))
            // And a moment between milliseconds, as Date() gives.
            dates.append(
                Date(timeIntervalSince1970: Double(ms) / 1000 + Double.random(in: 0..<0.001, using: &generator)))
        }
        for date in dates {
            let text = StorageDate.text(date)
            #expect(text == StorageDate.grdbText(date), "\(date.timeIntervalSince1970), seed \(generator.seed)")
            // Read back, the text gives the very Date GRDB's own conversion gives.
            let read = StorageDate.date(text)
            #expect(read != nil && read == StorageDate.grdbDate(text), "\(text), seed \(generator.seed)")
        }
    }
}
