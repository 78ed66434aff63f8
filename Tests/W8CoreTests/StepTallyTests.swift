import Foundation
import Testing
import W8Core
import W8TestSupport

/// Steps of several devices added up into local days, each minute counted once, from one device.
@Suite struct StepTallyTests {
    static let source = ActivitySource(rawValue: "gadgetbridge")

    /// Seconds of a local time in Berlin.
    static func at(_ d: Int, _ h: Int, _ min: Int, month: Int = 1, year: Int = 2025) -> Int64 {
        Int64(PinnedCalendar.berlin.date(year, month, d, h, min).timeIntervalSince1970)
    }

    /// The days `samples` make in Berlin, as "YYYY-MM-DD steps".
    static func days(_ samples: [StepSample]) -> [String] {
        var tally = StepTally(calendar: PinnedCalendar.berlin)
        for sample in samples { tally.add(sample) }
        return tally.finish(source: source).map { "\($0.day) \($0.steps)" }
    }

    @Test(
        "In each minute the device paired first that measured it wins; its steps count when above 0",
        arguments: [
            // Two devices on the same minute: never added, the lower id wins whatever order they come in.
            ([(10, 1, 100), (10, 2, 90)], ["2025-01-14 100"]),
            ([(10, 2, 90), (10, 1, 100)], ["2025-01-14 100"]),
            // Not measured (-1) does not claim the minute; 0 steps measured does.
            ([(10, 1, -1), (10, 2, 70)], ["2025-01-14 70"]),
            ([(10, 1, 0), (10, 2, 50)], []),
            // A minute only the second device has is its own.
            ([(10, 1, 100), (11, 2, 40)], ["2025-01-14 140"]),
            // Only sentinels: no day at all.
            ([(10, 1, -1), (11, 1, -2)], []),
        ] as [([(Int64, Int64, Int)], [String])])
    func theFirstPairedMeasuringDeviceWins(samples: [(Int64, Int64, Int)], days: [String]) {
        let base = Self.at(14, 10, 0)
        let made = samples.map { (timestamp: base + ($0.0 - 10) * 60, device: $0.1, steps: $0.2, centimetres: -1) }
        #expect(Self.days(made) == days)
    }

    @Test("The fixture's morning: 410 steps, not 745 added up nor the busier device's 445")
    func theFixturesMorning() {
        let band = [100, 120, -1, 0, 80]
        let watch = [90, 110, 70, 50, 85, 40]
        var samples: [StepSample] = []
        for (minute, steps) in watch.enumerated() {
            let time = Self.at(14, 10, minute)
            if minute < band.count {
                samples.append((timestamp: time, device: 1, steps: band[minute], centimetres: -1))
            }
            samples.append((timestamp: time, device: 2, steps: steps, centimetres: -1))
        }
        #expect(Self.days(samples) == ["2025-01-14 410"])
    }

    @Test("Samples seconds apart in one minute are that minute's; a minute belongs to its local day")
    func minutesAndLocalDays() {
        let samples: [StepSample] = [
            (timestamp: Self.at(14, 23, 59), device: 2, steps: 5, centimetres: -1),
            (timestamp: Self.at(14, 23, 59) + 30, device: 1, steps: 7, centimetres: -1),
            (timestamp: Self.at(15, 0, 0), device: 2, steps: 11, centimetres: -1),
            // The night the clocks go back in Berlin: 02:30 happens twice, both on the 26th.
            (timestamp: Self.at(26, 2, 30, month: 10, year: 2025) - 3600, device: 1, steps: 20, centimetres: -1),
            (timestamp: Self.at(26, 2, 30, month: 10, year: 2025), device: 1, steps: 30, centimetres: -1),
        ]
        #expect(Self.days(samples) == ["2025-01-14 7", "2025-01-15 11", "2025-10-26 50"])
    }

    @Test("A running total counts what it adds to the device's last total of the day of the second before it")
    func runningTotals() {
        var tally = StepTally(calendar: PinnedCalendar.berlin)
        // Garmin's samples in the fixture: steps and centimetres so far that day.
        let totals: [(Int64, Int, Int)] = [
            (Self.at(17, 8, 0), 100, 7000), (Self.at(17, 8, 1), 250, 17500), (Self.at(17, 8, 2), -1, 0),
            (Self.at(17, 8, 3), 250, 17500), (Self.at(17, 8, 4), 400, 28000), (Self.at(17, 23, 59), 5000, 350_000),
            // Midnight closes the 17th: 100 steps and 70 m more, counted in the minute it is, on the 18th.
            (Self.at(18, 0, 0), 5100, 357_000), (Self.at(18, 0, 1), 30, 2100),
        ]
        for (time, steps, centimetres) in totals {
            tally.add((timestamp: time, device: 6, steps: steps, centimetres: centimetres), runningTotal: true)
        }
        #expect(
            tally.finish(source: Self.source).map { "\($0.day) \($0.steps) \($0.distance) m" } == [
                "2025-01-17 5000 3500 m", "2025-01-18 130 91 m",
            ])
    }

    @Test("The distance is the winning device's: a loser's is not added, and -1 is none")
    func distanceOfTheWinner() {
        var tally = StepTally(calendar: PinnedCalendar.berlin)
        let samples: [StepSample] = [
            (timestamp: Self.at(19, 9, 0), device: 1, steps: 100, centimetres: -1),
            (timestamp: Self.at(19, 9, 0), device: 2, steps: 90, centimetres: 7000),
            (timestamp: Self.at(19, 9, 1), device: 2, steps: 80, centimetres: 6049),
        ]
        for sample in samples { tally.add(sample) }
        #expect(tally.finish(source: Self.source).map { "\($0.steps) \($0.distance) m" } == ["180 60 m"])
    }
}
