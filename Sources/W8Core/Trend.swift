import Foundation
import W8Text

/// One local calendar day of the trend: the day's earliest weight and the smoothed trend weight after it, both in
/// the preferred unit. Shared by the trend analysis, the terminal chart and the chart image.
public struct TrendPoint: Sendable, Equatable {
    /// The date of the day's earliest entry.
    public var date: Date
    public var weight: Double
    public var trend: Double
}

/// One weigh-in as a chart draws it, a dot: its date and its weight in the chart's unit. The trend takes a day's
/// earliest weight; the dots show every weigh-in, so that a chart shows the latest weight its text speaks of.
public struct ChartWeighIn: Sendable, Equatable {
    public var date: Date
    public var weight: Double

    public init(date: Date, weight: Double) {
        self.date = date
        self.weight = weight
    }

    /// The weigh-ins of `entries` in `unit`.
    public static func of(_ entries: [WeightEntry], unit: WeightUnit) -> [ChartWeighIn] {
        entries.map { ChartWeighIn(date: $0.date, weight: $0.weight.value(in: unit)) }
    }

    /// The dots of `points` alone: each day's earliest weight.
    public static func of(_ points: [TrendPoint]) -> [ChartWeighIn] {
        points.map { ChartWeighIn(date: $0.date, weight: $0.weight) }
    }
}

/// The smoothed trend of the weigh-ins, its weekly rate of change and when it reaches the goal, in the preferred
/// unit.
///
/// The trend is an exponentially smoothed moving average (The Hacker's Diet) made time-aware, so that a gap of
/// several days moves it as far as the same number of daily weigh-ins would have.
public struct TrendAnalysis: Sendable, Equatable {
    public var unit: WeightUnit
    /// One point per local calendar day (in the calendar given) that has entries, oldest first.
    public var points: [TrendPoint]
    /// The latest point's trend; nil without entries.
    public var trendWeight: Double?
    /// Change of the trend in units per week (negative = losing); nil when withheld for thin or stale data.
    public var weeklyRate: Double?
    /// When the trend reaches the goal at `weeklyRate`; nil without a goal or a rate, when moving away from the
    /// goal, when more than 3 years out, and when the trend already is at the goal (within 0.05 units).
    public var forecastDate: Date?

    /// α for a gap of one day: the Hacker's Diet constant.
    public static let dailySmoothing = 0.1
    /// The time constant in days, chosen so that α = 1 − e^(−1/τ) = 0.1 for one day (≈ 9.49).
    public static let tau = -1 / log(1 - dailySmoothing)
    /// The rate is the slope of the trend over the points in this many days up to `now`.
    public static let rateWindowDays = 14.0
    /// The rate needs at least this many weigh-ins (entries, not days) in the 7 days up to `now`…
    public static let minimumWeeklyWeighIns = 4
    /// …and a latest entry at most this many days old.
    public static let maximumStalenessDays = 2.0
    /// Forecasts further out than this many days (3 years) are not made.
    public static let forecastHorizonDays = 3 * 365.25
    /// A trend this close to the goal is at the goal: there is nothing to forecast.
    public static let atGoalTolerance = 0.05

    static let day: TimeInterval = 86400

    /// The analysis of `entries` (any units, any order) as of `now`, with days taken in `calendar`.
    public init(entries: [WeightEntry], unit: WeightUnit, goal: Double?, now: Date, calendar: Calendar) {
        let weekStart = now.addingTimeInterval(-7 * TrendAnalysis.day)
        self.init(
            points: TrendAnalysis.points(entries: entries, unit: unit, calendar: calendar), unit: unit, goal: goal,
            now: now, latest: entries.map(\.date).max(),
            weekWeighIns: entries.count { $0.date > weekStart && $0.date <= now })
    }

    /// The analysis from what it needs of the entries, so that a store can read only that: the earliest entry of
    /// each local calendar day, oldest first (`firstOfEachDay`), the latest entry's date, and how many entries are
    /// dated in the 7 days up to `now` (after `now − 7 days`, up to `now` included).
    public init(
        firstOfEachDay: [WeightEntry], unit: WeightUnit, goal: Double?, now: Date, latest: Date?, weekWeighIns: Int
    ) {
        var smoother = TrendSmoother()
        self.init(
            points: firstOfEachDay.map { smoother.add(date: $0.date, weight: $0.weight.value(in: unit)) }, unit: unit,
            goal: goal, now: now, latest: latest, weekWeighIns: weekWeighIns)
    }

    private init(points: [TrendPoint], unit: WeightUnit, goal: Double?, now: Date, latest: Date?, weekWeighIns: Int) {
        self.unit = unit
        self.points = points
        trendWeight = points.last?.trend
        weeklyRate = TrendAnalysis.weeklyRate(points: points, latest: latest, weekWeighIns: weekWeighIns, now: now)
        forecastDate = TrendAnalysis.forecast(goal: goal, trend: trendWeight, weeklyRate: weeklyRate, now: now)
    }

    /// α = 1 − e^(−Δt/τ) for a gap of `days` (fractional) days.
    public static func smoothing(days: Double) -> Double { 1 - exp(-days / tau) }

    static func points(entries: [WeightEntry], unit: WeightUnit, calendar: Calendar) -> [TrendPoint] {
        let sorted = entries.sorted { ($0.date, $0.id ?? .max) < ($1.date, $1.id ?? .max) }
        var smoother = TrendSmoother()
        var points: [TrendPoint] = []
        // In date order the first entry of a day is its earliest; the calendar is asked once a day, not per entry.
        var dayEnd = Date.distantPast
        for entry in sorted where entry.date >= dayEnd {
            dayEnd = calendar.dateInterval(of: .day, for: entry.date)?.end ?? entry.date
            points.append(smoother.add(date: entry.date, weight: entry.weight.value(in: unit)))
        }
        return points
    }

    static func weeklyRate(points: [TrendPoint], latest: Date?, weekWeighIns: Int, now: Date) -> Double? {
        guard let latest, now.timeIntervalSince(latest) <= maximumStalenessDays * day else { return nil }
        guard weekWeighIns >= minimumWeeklyWeighIns else { return nil }
        let windowStart = now.addingTimeInterval(-rateWindowDays * day)
        let window = points.filter { $0.date > windowStart && $0.date <= now }
        guard window.count >= 2 else { return nil }
        // Least squares of trend against time in days, measured from `now` to keep the numbers small.
        let xs = window.map { $0.date.timeIntervalSince(now) / day }
        let meanX = xs.reduce(0, +) / Double(xs.count)
        let meanY = window.map(\.trend).reduce(0, +) / Double(window.count)
        var sxy = 0.0
        var sxx = 0.0
        for (x, point) in zip(xs, window) {
            sxy += (x - meanX) * (point.trend - meanY)
            sxx += (x - meanX) * (x - meanX)
        }
        guard sxx > 0 else { return nil }
        return sxy / sxx * 7
    }

    static func forecast(goal: Double?, trend: Double?, weeklyRate: Double?, now: Date) -> Date? {
        guard let goal, let trend, let weeklyRate, weeklyRate != 0 else { return nil }
        let remaining = goal - trend
        guard abs(remaining) >= atGoalTolerance, (remaining < 0) == (weeklyRate < 0) else { return nil }
        let days = remaining / (weeklyRate / 7)
        guard days <= forecastHorizonDays else { return nil }
        return now.addingTimeInterval(days * day)
    }
}

/// The trend one day at a time, oldest first: for readers that stream the history (`w8 export --with-trend`).
public struct TrendSmoother: Sendable {
    private var last: TrendPoint?

    public init() {}

    /// The point of a day whose earliest weight is `weight` at `date`, after the days added before it.
    public mutating func add(date: Date, weight: Double) -> TrendPoint {
        var point = TrendPoint(date: date, weight: weight, trend: weight)
        if let last {
            let alpha = TrendAnalysis.smoothing(days: date.timeIntervalSince(last.date) / TrendAnalysis.day)
            point.trend = last.trend + alpha * (weight - last.trend)
        }
        last = point
        return point
    }
}

extension TrendAnalysis {
    /// "Trend 176.2 lb, down 1.3 lb a week.", or nil without entries; the rate only where it is not withheld.
    public var summaryLine: String? {
        guard let trendWeight else { return nil }
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "weight": Weight(trendWeight, unit).formatted, "rate": Weight(abs(weeklyRate ?? 0), unit).formatted,
        ]
        // TRANSLATORS: a sentence of the weekly summary: {weight} is the trend weight, {rate} the weekly change, each
        // with its unit ("176.2 lb").
        guard let weeklyRate else { return tr("Trend {weight}.", values) }
        if abs(weeklyRate) < 0.05 { return tr("Trend {weight}, steady.", values) }
        return weeklyRate < 0
            ? tr("Trend {weight}, down {rate} a week.", values) : tr("Trend {weight}, up {rate} a week.", values)
    }
}

/// The end of the local day of a moment, as `calendar.dateInterval(of: .day, for:)?.end` gives it, for moments asked
/// in increasing order (the trend's days): the calendar is asked again only when the zone's offset may have changed
/// since the last midnight it gave. Between a local midnight and the zone's next transition, midnights are exactly a
/// day apart, so the next ones are counted in whole days (and the offset there checked, in case a change of the
/// zone's standard offset is not reported as a transition); a calendar call costs more than a day's seek in the
/// store.
public struct LocalDayEnds {
    public let calendar: Calendar
    /// A day end the calendar gave that is a wall-clock midnight, its UTC offset, and the zone's first transition
    /// after it.
    private var midnight: (date: Date, offset: Int, nextTransition: Date)?

    public init(calendar: Calendar) { self.calendar = calendar }

    public mutating func end(of date: Date) -> Date? {
        let zone = calendar.timeZone
        if let midnight, date >= midnight.date {
            let days = (date.timeIntervalSince(midnight.date) / TrendAnalysis.day).rounded(.down) + 1
            let end = midnight.date.addingTimeInterval(days * TrendAnalysis.day)
            // Strictly before the transition: one at that very moment may turn the clock back past midnight.
            if end < midnight.nextTransition, end > date, zone.secondsFromGMT(for: end) == midnight.offset {
                return end
            }
        }
        guard let end = calendar.dateInterval(of: .day, for: date)?.end else { return nil }
        let offset = zone.secondsFromGMT(for: end)
        let wall = end.timeIntervalSince1970 + Double(offset)
        midnight =
            wall.truncatingRemainder(dividingBy: TrendAnalysis.day) == 0
            ? (end, offset, zone.nextDaylightSavingTimeTransition(after: end) ?? .distantFuture) : nil
        return end
    }
}
