import Foundation
import Testing
import W8TestSupport

@testable import W8Core

/// `LocalInstant` reads date fields as moments by arithmetic; the calendar (`DateInput.calendarInstant`) is the
/// oracle, in zones with every kind of transition: DST, half-hour DST, standard-offset changes, a skipped day,
/// Ramadan suspensions.
@Suite struct LocalInstantTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Europe/Moscow",
        "America/Caracas", "Asia/Kathmandu", "America/St_Johns", "Africa/Casablanca", "Pacific/Chatham",
        "Asia/Pyongyang", "Antarctica/Troll", "Europe/Dublin",
    ]

    func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    func fields(_ c: DateComponents, offset: Int? = nil) -> DateInput.Fields {
        (c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, 0, offset)
    }

    @Test(arguments: zones)
    func agreesWithTheCalendar(zone name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let calendar = calendar(zone)
        var walls: [DateComponents] = []
        var random = SeededRandom.fromEnvironment("wall times in \(name)")
        for _ in 0..<3000 {
            walls.append(
                DateComponents(
                    year: Int.random(in: 1900...2100, using: &random), month: Int.random(in: 1...12, using: &random),
                    day: Int.random(in: 1...28, using: &random), hour: Int.random(in: 0...23, using: &random),
                    minute: Int.random(in: 0...59, using: &random), second: Int.random(in: 0...59, using: &random)))
        }
        // Every wall time in 15-minute steps from 6 hours before each transition to 6 hours after, on both sides.
        var after = Date(timeIntervalSince1970: -2_208_988_800)
        while let transition = zone.nextDaylightSavingTimeTransition(after: after),
            transition.timeIntervalSince1970 < 2_300_000_000
        {
            for side in [-1.0, 1.0] {
                let base = transition.addingTimeInterval(side)
                for step in -24...24 {
                    walls.append(
                        calendar.dateComponents(
                            [.year, .month, .day, .hour, .minute, .second],
                            from: base.addingTimeInterval(Double(step) * 900)))
                }
            }
            after = transition
        }
        var quick = 0
        for wall in walls where wall.year! >= 1900 {
            let f = fields(wall)
            guard let instant = LocalInstant.instant(f, zone: zone) else { continue }
            quick += 1
            let expected = try DateInput.calendarInstant(f, text: "", calendar: calendar)
            #expect(instant == expected, "\(name) \(wall), seed \(random.seed)")
        }
        // The fast path is taken for most days, so this test compares something.
        #expect(quick > 2500, "\(name): \(quick) of \(walls.count)")
    }

    // The span remembered from one date must not answer for a wall time near its edge: here one begins 15 minutes
    // after New York's clocks went back, and 01:30 that night happened twice (the calendar takes the first).
    @Test func aRememberedSpanDoesNotReadTheRepeatedHour() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let calendar = calendar(zone)
        _ = LocalInstant.instant((2024, 11, 6, 1, 15, 0, 0, nil), zone: zone)
        let repeated: DateInput.Fields = (2024, 11, 3, 1, 30, 0, 0, nil)
        let expected = try DateInput.calendarInstant(repeated, text: "", calendar: calendar)
        #expect(expected == Date(timeIntervalSince1970: 1_730_611_800))  // 05:30 UTC, the first 01:30
        #expect(LocalInstant.instant(repeated, zone: zone) ?? expected == expected)
    }

    @Test func anOffsetIsExact() throws {
        var random = SeededRandom.fromEnvironment("offsets")
        let utc = calendar(TimeZone(identifier: "UTC")!)
        for _ in 0..<2000 {
            let offset =
                Int.random(in: -13...13, using: &random) * 3600 + [0, 1800, 2700].randomElement(using: &random)!
            let moment = Date(
                timeIntervalSince1970: Double(Int.random(in: -2_200_000_000...4_000_000_000, using: &random)))
            let zone = TimeZone(secondsFromGMT: offset)!
            let f = fields(
                calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment),
                offset: offset)
            guard f.year >= 1900 else { continue }
            #expect(LocalInstant.instant(f, zone: utc.timeZone) == moment, "\(f), seed \(random.seed)")
        }
    }

    @Test func invalidDatesAreLeftToTheCalendar() {
        let zone = TimeZone(identifier: "UTC")!
        for (year, month, day) in [(2025, 2, 29), (2024, 2, 30), (2024, 4, 31), (2024, 13, 1), (1899, 12, 31)] {
            #expect(LocalInstant.instant((year, month, day, 12, 0, 0, 0, nil), zone: zone) == nil)
        }
        #expect(LocalInstant.instant((2024, 2, 29, 12, 0, 0, 0, nil), zone: zone) != nil)
        #expect(LocalInstant.instant((2000, 2, 29, 12, 0, 0, 0, nil), zone: zone) != nil)
        #expect(LocalInstant.instant((1900, 2, 29, 12, 0, 0, 0, nil), zone: zone) == nil)
    }
}
