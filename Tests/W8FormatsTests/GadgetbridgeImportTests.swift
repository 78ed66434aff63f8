import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

/// The samples of Gadgetbridge's database as import rows: scale readings in kg to the app's 0.01, times checked.
@Suite struct GadgetbridgeImportTests {
    static let now = PinnedCalendar.berlin.date(2026, 11, 26, 12)
    static let options = ImportOptions(preferredUnit: .lb, now: now, calendar: PinnedCalendar.berlin)

    @Test(
        "A reading is in kg, rounded to the 0.01 the app shows, at its millisecond instant",
        arguments: [(82.3499984741211, 82.35), (82.0999984741211, 82.1), (81.9499969482422, 81.95), (20.0, 20.0)])
    func readings(stored: Double, kilograms: Double) {
        let reader = GadgetbridgeImport(options: Self.options)
        let row = reader.row((milliseconds: 1_736_841_600_123, kilograms: stored), row: 1)
        let expected = WeightEntry(
            weight: Weight(kilograms, .kg), date: Date(timeIntervalSince1970: 1_736_841_600.123))
        #expect(row == .entry(line: 1, expected))
    }

    @Test(
        "A reading out of range, or at a time before 1900 or in the future, is refused with the row",
        arguments: [
            (1_736_841_600_000, 5.5, "WEIGHT_KG: weight '5.5' is outside the range 20–700 kg"),
            (1_736_841_600_000, Double.nan, "WEIGHT_KG: weight 'nan' is outside the range 20–700 kg"),
            (-2_208_992_401_000, 80, "TIMESTAMP -2208992401000 (1899-12-31T22:59:59Z) is before 1900"),
            (4_102_444_800_000, 80, "TIMESTAMP 4102444800000 (2100-01-01T00:00:00Z) is in the future"),
        ] as [(Int64, Double, String)])
    func badReadings(milliseconds: Int64, kilograms: Double, reason: String) {
        let reader = GadgetbridgeImport(options: Self.options)
        #expect(
            reader.row((milliseconds: milliseconds, kilograms: kilograms), row: 7)
                == .invalid(line: 7, reason: reason))
    }

    @Test("Step samples are checked, counted once a minute, and given out as days of the gadgetbridge source")
    func steps() throws {
        var reader = GadgetbridgeImport(options: Self.options)
        let morning = Int64(PinnedCalendar.berlin.date(2025, 1, 14, 10).timeIntervalSince1970)
        #expect(reader.add((timestamp: morning, device: 2, steps: 90, centimetres: -1), row: 1) == nil)
        #expect(reader.add((timestamp: morning, device: 1, steps: 100, centimetres: -1), row: 1) == nil)
        #expect(
            reader.add((timestamp: 4_102_444_800, device: 1, steps: 10, centimetres: -1), row: 2)
                == .invalid(line: 2, reason: "TIMESTAMP 4102444800 (2100-01-01T00:00:00Z) is in the future"))
        let day = try #require(CalendarDay("2025-01-14"))
        #expect(
            reader.finish() == [
                .activity(ActivityDay(day: day, steps: 100, source: ActivitySource(rawValue: "gadgetbridge")))
            ])
    }
}
