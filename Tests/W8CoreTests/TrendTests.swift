import Foundation
import Testing
import W8Core
import W8TestSupport

private let day: TimeInterval = 86400
private let start = PinnedCalendar.utc.date(2026, 10, 1, 12)

/// One entry a day at noon UTC from `start`, day `n` weighing `weight(n)`.
private func daily(_ days: [Int], unit: WeightUnit = .lb, _ weight: (Int) -> Double) -> [WeightEntry] {
    days.map { WeightEntry(weight: Weight(weight($0), unit), date: start.addingTimeInterval(Double($0) * day)) }
}

private func analysis(
    _ entries: [WeightEntry], unit: WeightUnit = .lb, goal: Double? = nil, now: Date,
    calendar: Calendar = PinnedCalendar.utc
) -> TrendAnalysis {
    TrendAnalysis(entries: entries, unit: unit, goal: goal, now: now, calendar: calendar)
}

@Suite struct TrendWeightTests {
    @Test func tauGivesTheHackersDietConstantForOneDay() {
        #expect(abs(TrendAnalysis.tau - 9.491_221_581_029_905) < 1e-12)
        #expect(TrendAnalysis.dailySmoothing == 0.1)
        #expect(abs(TrendAnalysis.smoothing(days: 1) - 0.1) < 1e-15)
    }

    @Test(arguments: [(WeightUnit.lb, 182.4), (.kg, 82.5)])
    func constantWeightsGiveAFlatTrend(unit: WeightUnit, weight: Double) throws {
        let entries = daily(Array(0..<20), unit: unit) { _ in weight }
        let trend = analysis(entries, unit: unit, now: start.addingTimeInterval(20 * day))
        #expect(trend.points.count == 20)
        for point in trend.points {
            #expect(abs(point.trend - weight) < 1e-9)
            #expect(point.weight == weight)
        }
        #expect(abs(try #require(trend.trendWeight) - weight) < 1e-9)
    }

    // 100 for 10 days, then 110 daily: the gap to 110 shrinks by 0.9 a day, so trend = 110 − 10·0.9^k.
    @Test func stepChangeConvergesByPointNineADay() {
        let entries = daily(Array(0..<30)) { $0 < 10 ? 100 : 110 }
        let trend = analysis(entries, now: start.addingTimeInterval(30 * day))
        #expect(trend.points.count == 30)
        for point in trend.points.prefix(10) { #expect(point.trend == 100) }
        for k in 1...20 {
            #expect(abs(trend.points[9 + k].trend - (110 - 10 * pow(0.9, Double(k)))) < 1e-9, "day \(k) after")
        }
    }

    // A gap of Δt days moves the trend by α = 1 − 0.9^Δt: as far as Δt daily weigh-ins of the same weight would.
    @Test(arguments: [(1.0, 101.0), (2, 101.9), (5, 104.0951), (1.5, 101.461_850_317_545_4), (10, 106.513_215_599)])
    func gapUsesTheElapsedTime(days: Double, expected: Double) {
        let entries = [
            WeightEntry(weight: Weight(100, .lb), date: start),
            WeightEntry(weight: Weight(110, .lb), date: start.addingTimeInterval(days * day)),
        ]
        let trend = analysis(entries, now: start.addingTimeInterval(days * day))
        #expect(abs(trend.points[1].trend - expected) < 1e-9)
        #expect(abs(trend.points[1].trend - (100 + (1 - pow(0.9, days)) * 10)) < 1e-9)
    }

    @Test func theDaysEarliestEntryIsUsed() {
        let cal = PinnedCalendar.utc
        // Given the later weigh-in listed first
        let entries = [
            WeightEntry(weight: Weight(105, .lb), date: cal.date(2026, 10, 1, 20)),
            WeightEntry(weight: Weight(100, .lb), date: cal.date(2026, 10, 1, 7)),
            WeightEntry(weight: Weight(110, .lb), date: cal.date(2026, 10, 2, 7)),
            WeightEntry(weight: Weight(90, .lb), date: cal.date(2026, 10, 2, 9)),
        ]
        let trend = analysis(entries, now: cal.date(2026, 10, 2, 21))
        #expect(trend.points.map(\.date) == [cal.date(2026, 10, 1, 7), cal.date(2026, 10, 2, 7)])
        #expect(trend.points.map(\.weight) == [100, 110])
        #expect(trend.points[0].trend == 100)
        #expect(abs(trend.points[1].trend - 101) < 1e-9)
    }

    // 23:30 and 00:30 in Berlin are two days there but one day in UTC.
    @Test(arguments: [("Europe/Berlin", 2), ("UTC", 1)])
    func daysAreLocalToTheCalendar(zone: String, points: Int) {
        let berlin = PinnedCalendar.berlin
        let entries = [
            WeightEntry(weight: Weight(100, .lb), date: berlin.date(2026, 11, 3, 23, 30)),
            WeightEntry(weight: Weight(101, .lb), date: berlin.date(2026, 11, 4, 0, 30)),
        ]
        let trend = analysis(entries, now: berlin.date(2026, 11, 4, 8), calendar: PinnedCalendar.gregorian(zone))
        #expect(trend.points.count == points)
    }

    @Test(arguments: [
        (WeightUnit.kg, 100.0, 99.790_321_4, 99.979_032_14),
        (.lb, 220.462_262_184_877_57, 220, 220.416_035_966_389_8),
    ])
    func mixedUnitsAreConverted(unit: WeightUnit, first: Double, second: Double, trend expected: Double) {
        let entries = [
            WeightEntry(weight: Weight(100, .kg), date: start),
            WeightEntry(weight: Weight(220, .lb), date: start.addingTimeInterval(day)),
        ]
        let trend = analysis(entries, unit: unit, now: start.addingTimeInterval(day))
        #expect(trend.unit == unit)
        #expect(abs(trend.points[0].weight - first) < 1e-9)
        #expect(abs(trend.points[1].weight - second) < 1e-9)
        #expect(abs(trend.points[1].trend - expected) < 1e-9)
    }

    @Test func noEntriesNoTrend() {
        let trend = analysis([], goal: 160, now: start)
        #expect(trend.points.isEmpty)
        #expect(trend.trendWeight == nil)
        #expect(trend.weeklyRate == nil)
        #expect(trend.forecastDate == nil)
    }
}

// Daily weights w0 + b·n with the trend starting at w0 follow trend_n = w0 + b·n − 9b(1 − 0.9^n): it lags the
// weights by 9b in the steady state and its slope, b(1 − 0.9^n), approaches b. The expected rates below are the
// least-squares slopes of that closed form over days 16…29 (the last 14 days), times 7, computed outside Swift.
@Suite struct TrendRateTests {
    static let days = Array(0..<30)
    static let losing = daily(days) { 200 - 0.2 * Double($0) }
    static let gaining = daily(days) { 150 + 0.1 * Double($0) }
    /// The evening of day 29.
    static let now = start.addingTimeInterval(29.25 * day)

    @Test func losingRateIsTheTrendSlopePerWeek() throws {
        let trend = analysis(Self.losing, now: Self.now)
        #expect(abs(try #require(trend.trendWeight) - 195.915_217_683_449_55) < 1e-9)
        let rate = try #require(trend.weeklyRate)
        #expect(abs(rate - -1.269_182_056_679_820_6) < 1e-6)
        // Not the raw weights' slope (−1.4), nor a daily one (−0.18).
        #expect(abs(rate - -1.4) > 0.1)
    }

    @Test func gainingRateIsPositive() throws {
        let trend = analysis(Self.gaining, goal: 155, now: Self.now)
        #expect(abs(try #require(trend.weeklyRate) - 0.634_591_028_339_918_2) < 1e-6)
        let forecast = try #require(trend.forecastDate)
        #expect(abs(forecast.timeIntervalSince(Self.now) - 2_818_763.183_832_779) < 1)
    }

    // Once the warm-up has faded the trend runs parallel to the weights: 0.2 a day is 1.4 a week.
    @Test func steadyStateRateIsTheDailySlopeTimesSeven() throws {
        let entries = daily(Array(0..<90)) { 200 - 0.2 * Double($0) }
        let rate = try #require(analysis(entries, now: start.addingTimeInterval(89.25 * day)).weeklyRate)
        #expect(abs(rate - -1.4) < 0.001)
    }

    // now + (goal − trend) / (rate / 7) days: (190 − 195.9152) / (−1.26918 / 7) = 32.6246 days.
    @Test func forecastFollowsTheFormula() throws {
        let trend = analysis(Self.losing, goal: 190, now: Self.now)
        let forecast = try #require(trend.forecastDate)
        #expect(abs(forecast.timeIntervalSince(Self.now) - 2_818_763.183_832_814_5) < 1)
    }

    @Test func goalInKilogramsUsesThePreferredUnit() throws {
        let entries = daily(Self.days, unit: .kg) { 90 - 0.2 * Double($0) }
        let trend = analysis(entries, unit: .kg, goal: 80, now: Self.now)
        #expect(abs(try #require(trend.weeklyRate) - -1.269_182_056_679_820_6) < 1e-6)
        // (80 − 85.9152) / (−1.26918 / 7) = 32.6246 days, the same as 190 from 195.9152.
        #expect(abs(try #require(trend.forecastDate).timeIntervalSince(Self.now) - 2_818_763.18) < 1)
    }

    // At least 4 weigh-ins in the 7 days before now, counting entries, not days.
    @Test(arguments: [
        ([25, 27, 29], false), ([25, 27, 28, 29], true), ([27, 27, 29, 29], true), ([29, 29, 29], false),
    ])
    func thinDataWithholdsTheRate(recent: [Int], hasRate: Bool) {
        var entries = daily(Array(0...22)) { 200 - 0.2 * Double($0) }
        for (i, n) in recent.enumerated() {
            let date = start.addingTimeInterval(Double(n) * day + Double(i) * 60)
            entries.append(WeightEntry(weight: Weight(200 - 0.2 * Double(n), .lb), date: date))
        }
        let trend = analysis(entries, goal: 190, now: Self.now)
        #expect((trend.weeklyRate != nil) == hasRate)
        #expect((trend.forecastDate != nil) == hasRate)
        #expect(trend.trendWeight != nil)
    }

    @Test(arguments: [(48.0, true), (49, false), (72, false)])
    func staleDataWithholdsTheRate(hoursSinceLatest: Double, hasRate: Bool) {
        let now = start.addingTimeInterval(29 * day + hoursSinceLatest * 3600)
        let trend = analysis(Self.losing, goal: 190, now: now)
        #expect((trend.weeklyRate != nil) == hasRate)
        #expect((trend.forecastDate != nil) == hasRate)
    }

    // Four weigh-ins in one day are one point: no slope to fit.
    @Test func onePointInTheWindowHasNoRate() {
        let entries = (0..<4).map {
            WeightEntry(weight: Weight(180, .lb), date: start.addingTimeInterval(Double($0) * 3600))
        }
        #expect(analysis(entries, now: start.addingTimeInterval(4 * 3600)).weeklyRate == nil)
    }

    @Test func flatTrendHasNoForecast() throws {
        let entries = daily(Self.days) { _ in 180 }
        let trend = analysis(entries, goal: 170, now: Self.now)
        #expect(try #require(trend.weeklyRate) == 0)
        #expect(trend.forecastDate == nil)
    }

    @Test(arguments: [("losing", 210.0), ("gaining", 140)])
    func movingAwayFromTheGoalHasNoForecast(series: String, goal: Double) {
        let trend = analysis(series == "losing" ? Self.losing : Self.gaining, goal: goal, now: Self.now)
        #expect(trend.weeklyRate != nil)
        #expect(trend.forecastDate == nil)
    }

    // Losing 0.005 a day: the trend is 199.8979 at −0.0317295 a week, so 195.0 is 1080.5 days out, 194.8 is 1124.7.
    @Test(arguments: [(195.0, 1_080.543_580_463_178_6 as Double?), (194.8, nil)])
    func forecastsBeyondThreeYearsAreNotMade(goal: Double, days: Double?) throws {
        let entries = daily(Self.days) { 200 - 0.005 * Double($0) }
        let trend = analysis(entries, goal: goal, now: Self.now)
        #expect(trend.weeklyRate != nil)
        if let days {
            let forecast = try #require(trend.forecastDate)
            #expect(abs(forecast.timeIntervalSince(Self.now) / day - days) < 1e-6)
        } else {
            #expect(trend.forecastDate == nil)
        }
    }

    // Within 0.05 of the goal (the trend is 195.9152) there is nothing left to forecast.
    @Test(arguments: [(195.88, false), (195.87, false), (195.86, true)])
    func trendAtTheGoalHasNoForecast(goal: Double, hasForecast: Bool) {
        let trend = analysis(Self.losing, goal: goal, now: Self.now)
        #expect((trend.forecastDate != nil) == hasForecast)
    }

    @Test func noGoalNoForecast() {
        let trend = analysis(Self.losing, goal: nil, now: Self.now)
        #expect(trend.weeklyRate != nil)
        #expect(trend.forecastDate == nil)
    }
}

/// `LocalDayEnds` counts midnights in whole days between the zone's transitions: it must give what the calendar gives.
@Suite struct LocalDayEndsTests {
    @Test(arguments: [
        "UTC", "Europe/Berlin", "America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe",
        "Asia/Kathmandu", "Africa/Casablanca", "Pacific/Apia", "Europe/Moscow",
    ])
    func givesWhatTheCalendarGives(zone: String) {
        let calendar = PinnedCalendar.gregorian(zone)
        var random = SeededRandom.fromEnvironment("day ends in \(zone)")
        var ends = LocalDayEnds(calendar: calendar)
        // Moments in increasing order over 2010 to 2027 (Apia skipped a day in 2011, Moscow changed its standard
        // offset in 2011 and 2014), gaps of minutes to weeks, and the last moments before and at a midnight.
        var moment = calendar.date(2010, 1, 1, 0)
        let last = calendar.date(2027, 12, 31, 0)
        while moment < last {
            let expected = calendar.dateInterval(of: .day, for: moment)?.end
            #expect(ends.end(of: moment) == expected, "\(moment)")
            if let expected, Int.random(in: 0..<4, using: &random) == 0 {
                for edge in [expected.addingTimeInterval(-0.001), expected] {
                    #expect(ends.end(of: edge) == calendar.dateInterval(of: .day, for: edge)?.end, "\(edge)")
                }
                moment = expected
            }
            moment +=
                [60, 3600, 86400, 5 * 86400, 20 * 86400].randomElement(using: &random)!
                * Double.random(in: 0.1..<1.5, using: &random)
        }
    }
}
