import Foundation
import W8Core
import W8Text

/// The weight axis: 4–6 round ticks, a tenth of a unit apart or more, whose range holds every value.
struct WeightAxis: Equatable {
    /// The ticks from bottom to top; the first and last are the ends of the axis.
    let ticks: [Double]

    var lower: Double { ticks[0] }
    var upper: Double { ticks[ticks.count - 1] }

    /// Steps that stay exact with one decimal: 0.25 would be labelled 0.3.
    private static let multiples: [Double] = [1, 2, 2.5, 5]

    init(covering values: [Double]) {
        let finite = values.filter(\.isFinite)
        var low = finite.min() ?? 0
        var high = finite.max() ?? 1
        // Room around the values, and at least 0.4 units of range so one point or a flat line has ticks.
        let margin = max((high - low) * 0.05, 0.2)
        low -= margin
        high += margin

        var step = 0.1
        var first = low
        var count = 0
        search: for exponent in -1...6 {
            let magnitude = pow(10, Double(exponent))
            for multiple in Self.multiples where exponent >= 0 || multiple != 2.5 {
                step = multiple * magnitude
                first = (low / step).rounded(.down) * step
                let last = (high / step).rounded(.up) * step
                count = Int(((last - first) / step).rounded()) + 1
                if count <= 6 { break search }
            }
        }
        // A range that snapped to few ticks gets more around it, below first so the line sits mid-chart.
        var extra = 0
        while count < 4 {
            if extra % 2 == 0 { first -= step }
            count += 1
            extra += 1
        }
        let origin = first
        ticks = (0..<count).map { origin + Double($0) * step }
    }

    /// "182.5 lb": one decimal, in the locale's way ("82,5 kg" in German), and the unit.
    static func label(_ value: Double, unit: WeightUnit) -> String { Weight(value, unit).formatted }
}

/// The time axis: the time span drawn, and labelled local midnights ("Mar 29") spread across it.
struct DateAxis {
    let start: Date
    let end: Date
    let ticks: [Date]
    private let calendar: Calendar

    /// An axis over `dates` with at most `maxLabels` labels, days or months apart, in `timeZone`.
    init(dates: [Date], timeZone: TimeZone, maxLabels: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var start = dates.min() ?? Date(timeIntervalSince1970: 0)
        var end = dates.max() ?? start
        // At least two days, so one point stands between labels; then a margin so end dots clear the axes.
        let day: TimeInterval = 86_400
        if end.timeIntervalSince(start) < 2 * day {
            let middle = start.addingTimeInterval(end.timeIntervalSince(start) / 2)
            start = middle.addingTimeInterval(-day)
            end = middle.addingTimeInterval(day)
        }
        let margin = max(end.timeIntervalSince(start) * 0.03, day / 4)
        self.start = start.addingTimeInterval(-margin)
        self.end = end.addingTimeInterval(margin)
        ticks = Self.ticks(from: self.start, to: self.end, calendar: calendar, maxLabels: max(2, maxLabels))
        self.calendar = calendar
    }

    /// "Mar 29" in the axis's time zone, the month named by the locale (LC_TIME) as `DateFormatting.day` names it.
    func label(_ date: Date) -> String {
        let c = calendar.dateComponents([.month, .day], from: date)
        let month = Localization.monthName(c.month!) ?? Self.months[c.month! - 1]
        // TRANSLATORS: a date under the chart image's time axis, "Mar 29": {month} is the locale's abbreviation
        // (LC_TIME: "Mär", "3月"); reorder and punctuate as your language does.
        return tr("{month} {day}", ["month": month, "day": c.day!])
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Where `date` falls between the start (0) and the end (1).
    func fraction(_ date: Date) -> Double {
        date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }

    private static func ticks(from start: Date, to end: Date, calendar: Calendar, maxLabels: Int) -> [Date] {
        let days = end.timeIntervalSince(start) / 86_400
        for step in [1, 2, 3, 7, 14] where days / Double(step) + 1 <= Double(maxLabels) {
            return series(from: start, to: end, calendar: calendar, component: .day, step: step) {
                calendar.startOfDay(for: $0)
            }
        }
        let months = days / 30.44
        let step = [1, 2, 3, 6, 12, 24, 60, 120].first { months / Double($0) + 1 <= Double(maxLabels) } ?? 120
        return series(from: start, to: end, calendar: calendar, component: .month, step: step) {
            calendar.date(from: calendar.dateComponents([.year, .month], from: $0)) ?? $0
        }
    }

    /// Dates from the first boundary at or after `start` to `end`, `step` components apart, counted from that first
    /// boundary so daylight-saving days stay at midnight.
    private static func series(
        from start: Date, to end: Date, calendar: Calendar, component: Calendar.Component, step: Int,
        boundary: (Date) -> Date
    ) -> [Date] {
        var first = boundary(start)
        if first < start {
            first = calendar.date(byAdding: component, value: 1, to: first).map(boundary) ?? first
        }
        // Month steps begin at a round month (January, April, July…) so labels line up year to year.
        if component == .month, step > 1 {
            while (calendar.component(.month, from: first) - 1) % min(step, 12) != 0 {
                guard let next = calendar.date(byAdding: .month, value: 1, to: first) else { break }
                first = next
            }
        }
        var dates: [Date] = []
        var index = 0
        while let date = calendar.date(byAdding: component, value: index * step, to: first), date <= end {
            dates.append(date)
            index += 1
        }
        return dates
    }
}
