import Foundation

/// One activity sample of a band or watch, as Gadgetbridge keeps them: the steps a device counted in the minute
/// starting at `timestamp` (seconds since 1970), and the distance in centimetres. Negative values are the app's
/// "not measured" (-1) and other sentinels; most devices measure no distance.
public typealias StepSample = (timestamp: Int64, device: Int64, steps: Int, centimetres: Int)

/// One weighing of a smart scale, as Gadgetbridge keeps them: milliseconds since 1970 and kilograms.
public typealias ScaleReading = (milliseconds: Int64, kilograms: Double)

/// Adds samples of several devices up into days, each minute counted once, from one device: of the devices that
/// measured that minute (steps 0 or more), the one with the lowest id (the first paired) wins, and its steps count
/// when they are above 0, as Gadgetbridge counts them, with its distance when it measures one. A second band worn
/// at the same time is never added.
///
/// Samples come in timestamp order (samples of one minute in any order), so that only one minute is held at a time.
public struct StepTally: Sendable {
    public let calendar: Calendar
    private var minute: Int64?
    /// Steps (nil for a device that sent only sentinels) and centimetres in the current minute, by device.
    private var devices: [Int64: (steps: Int?, centimetres: Int)] = [:]
    private var totals: [CalendarDay: (steps: Int, centimetres: Int)] = [:]
    /// The local day last met, and its bounds in seconds, so that a day is worked out once and not per sample.
    private var day: (day: CalendarDay, start: Int64, end: Int64)?
    /// The last running total of each device that keeps a day's running total, and the day it belongs to.
    private var runningTotals: [Int64: (day: CalendarDay, steps: Int, centimetres: Int)] = [:]

    public init(calendar: Calendar) { self.calendar = calendar }

    /// The minute a timestamp falls in (a floor, also before 1970).
    static func minute(of timestamp: Int64) -> Int64 {
        timestamp >= 0 ? timestamp / 60 : -((-timestamp + 59) / 60)
    }

    /// Adds `sample`; with `runningTotal`, its steps are the device's total so far that day (Garmin, CMF).
    public mutating func add(_ sample: StepSample, runningTotal: Bool = false) {
        let sample = runningTotal ? sinceLastTotal(sample) : sample
        let minute = Self.minute(of: sample.timestamp)
        if minute != self.minute {
            close()
            self.minute = minute
        }
        let steps = sample.steps >= 0 ? sample.steps : nil
        let centimetres = max(sample.centimetres, 0)
        let earlier = devices[sample.device]
        devices[sample.device] = (
            steps.map { $0 + (earlier?.steps ?? 0) } ?? earlier?.steps, centimetres + (earlier?.centimetres ?? 0)
        )
    }

    /// The steps and distance a running total adds to the device's previous totals that day, as Gadgetbridge's
    /// `convertCumulativeSteps` reads them: a total belongs to the day of the second before it (a total at
    /// midnight closes the day before), the first of a day counts whole, and one not above 0 is left as it is.
    private mutating func sinceLastTotal(_ sample: StepSample) -> StepSample {
        let day = CalendarDay(Date(timeIntervalSince1970: TimeInterval(sample.timestamp - 1)), calendar: calendar)
        var last =
            runningTotals[sample.device].flatMap { $0.day == day ? $0 : nil }
            ?? (day: day, steps: 0, centimetres: 0)
        var added = sample
        if sample.steps > 0 { (added.steps, last.steps) = (sample.steps - last.steps, sample.steps) }
        if sample.centimetres > 0 {
            (added.centimetres, last.centimetres) = (sample.centimetres - last.centimetres, sample.centimetres)
        }
        runningTotals[sample.device] = last
        return added
    }

    /// Counts the current minute for its winning device.
    private mutating func close() {
        defer { devices.removeAll(keepingCapacity: true) }
        guard let minute,
            let winner = devices.filter({ $0.value.steps != nil }).min(by: { $0.key < $1.key })?.value,
            let steps = winner.steps, steps > 0
        else { return }
        let seconds = minute * 60
        if day.map({ !($0.start..<$0.end).contains(seconds) }) ?? true {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let bounds = calendar.dateInterval(of: .day, for: date)!
            day = (
                CalendarDay(date, calendar: calendar), Int64(bounds.start.timeIntervalSince1970),
                Int64(bounds.end.timeIntervalSince1970)
            )
        }
        totals[day!.day, default: (0, 0)].steps += steps
        totals[day!.day]!.centimetres += winner.centimetres
    }

    /// Every day with at least one step, oldest first, from `source`, its distance in whole metres.
    public mutating func finish(source: ActivitySource) -> [ActivityDay] {
        close()
        minute = nil
        return totals.sorted { $0.key < $1.key }.map { day, total in
            let metres = Int((Double(total.centimetres) / 100).rounded())
            return ActivityDay(day: day, steps: total.steps, distance: metres, source: source)
        }
    }
}
