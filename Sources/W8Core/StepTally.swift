import Foundation

/// One activity sample of a band or watch, as Gadgetbridge keeps them: the steps a device counted in the minute
/// starting at `timestamp` (seconds since 1970). Negative steps are the app's "not measured" (-1) and other
/// sentinels.
public typealias StepSample = (timestamp: Int64, device: Int64, steps: Int)

/// One weighing of a smart scale, as Gadgetbridge keeps them: milliseconds since 1970 and kilograms.
public typealias ScaleReading = (milliseconds: Int64, kilograms: Double)

/// Adds samples of several devices up into days, each minute counted once, from one device: of the devices that
/// measured that minute (steps 0 or more), the one with the lowest id (the first paired) wins, and its steps count
/// when they are above 0, as Gadgetbridge counts them. A second band worn at the same time is never added.
///
/// Samples come in timestamp order (samples of one minute in any order), so that only one minute is held at a time.
public struct StepTally: Sendable {
    public let calendar: Calendar
    private var minute: Int64?
    /// Steps in the current minute, by device; nil for a device that sent only sentinels.
    private var devices: [Int64: Int?] = [:]
    private var totals: [CalendarDay: Int] = [:]
    /// The local day last met, and its bounds in seconds, so that a day is worked out once and not per sample.
    private var day: (day: CalendarDay, start: Int64, end: Int64)?
    /// The last running total of each device that keeps a day's running total, and the day it belongs to.
    private var runningTotals: [Int64: (day: CalendarDay, steps: Int)] = [:]

    public init(calendar: Calendar) { self.calendar = calendar }

    /// The minute a timestamp falls in (a floor, also before 1970).
    static func minute(of timestamp: Int64) -> Int64 {
        timestamp >= 0 ? timestamp / 60 : -((-timestamp + 59) / 60)
    }

    /// Adds `sample`; with `runningTotal`, its steps are the device's total so far that day (Garmin, CMF).
    public mutating func add(_ sample: StepSample, runningTotal: Bool = false) {
        var sample = sample
        if runningTotal { sample.steps = stepsSinceLastTotal(sample) }
        let minute = Self.minute(of: sample.timestamp)
        if minute != self.minute {
            close()
            self.minute = minute
        }
        let steps = sample.steps >= 0 ? sample.steps : nil
        switch devices[sample.device] {
        case .none: devices[sample.device] = steps
        case .some(let earlier): devices[sample.device] = steps.map { $0 + (earlier ?? 0) } ?? earlier
        }
    }

    /// The steps a running total adds to the device's previous total that day, as Gadgetbridge's
    /// `convertCumulativeSteps` reads them: a total belongs to the day of the second before it (a total at
    /// midnight closes the day before), the first of a day counts whole, and one not above 0 is left as it is.
    private mutating func stepsSinceLastTotal(_ sample: StepSample) -> Int {
        guard sample.steps > 0 else { return sample.steps }
        let day = CalendarDay(Date(timeIntervalSince1970: TimeInterval(sample.timestamp - 1)), calendar: calendar)
        let previous = runningTotals[sample.device].flatMap { $0.day == day ? $0.steps : nil } ?? 0
        runningTotals[sample.device] = (day, sample.steps)
        return sample.steps - previous
    }

    /// Counts the current minute for its winning device.
    private mutating func close() {
        defer { devices.removeAll(keepingCapacity: true) }
        guard let minute,
            let winner = devices.filter({ $0.value != nil }).min(by: { $0.key < $1.key }),
            let steps = winner.value, steps > 0
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
        totals[day!.day, default: 0] += steps
    }

    /// Every day with at least one step, oldest first, from `source`.
    public mutating func finish(source: ActivitySource) -> [ActivityDay] {
        close()
        minute = nil
        return totals.sorted { $0.key < $1.key }.map { ActivityDay(day: $0.key, steps: $0.value, source: source) }
    }
}
