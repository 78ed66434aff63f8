import Foundation
import W8Core
import W8Text

/// The samples of Gadgetbridge's database (read by W8Store) as import rows: each checked as `w8 add` checks a
/// weigh-in's date, the steps added up into days with every minute counted once, from one device (`StepTally`).
public struct GadgetbridgeImport: Sendable {
    /// The source of the days of steps it writes.
    public static let source = ActivitySource(rawValue: "gadgetbridge")
    public static let formatName = "Gadgetbridge database"
    /// The scale readings are kept to the 0.01 kg that the app shows (`weight_kg` is `%1$.2f kg`): the float
    /// column holds 75.35 as 75.3499984741.
    static let hundredthsPerKilogram = 100.0

    let options: ImportOptions
    private var tally: StepTally
    private let earliest: Date

    public init(options: ImportOptions) {
        self.options = options
        tally = StepTally(calendar: options.calendar)
        earliest = options.calendar.date(from: DateComponents(year: DateInput.earliestYear, month: 1, day: 1))!
    }

    /// Why `date` cannot be a sample's time, or nil when it can.
    func problem(_ date: Date, column: String, value: Int64) -> String? {
        let time = ISO8601DateFormatter().string(from: date)
        if date < earliest {
            return tr(
                // TRANSLATORS: why a Gadgetbridge row is not imported. {column} is a database column (TIMESTAMP),
                // {value} its number, {time} the same as an ISO 8601 time, {year} the earliest year w8 keeps.
                "{column} {value} ({time}) is before {year}",
                ["column": column, "value": value, "time": time, "year": DateInput.earliestYear])
        } else if date.timeIntervalSince(options.now) > DateInput.futureTolerance {
            // TRANSLATORS: why a Gadgetbridge row is not imported. {column} is a database column (TIMESTAMP),
            // {value} its number, {time} the same as an ISO 8601 time.
            return tr("{column} {value} ({time}) is in the future", ["column": column, "value": value, "time": time])
        }
        return nil
    }

    /// Counts a step sample, or says why it cannot be counted; `row` is its place in its table.
    /// `runningTotal`: the sample's steps are the device's total so far that day.
    public mutating func add(_ sample: StepSample, row: Int, runningTotal: Bool = false) -> ImportRow? {
        let date = Date(timeIntervalSince1970: TimeInterval(sample.timestamp))
        if let problem = problem(date, column: "TIMESTAMP", value: sample.timestamp) {
            return .invalid(line: row, reason: problem)
        }
        tally.add(sample, runningTotal: runningTotal)
        return nil
    }

    /// A weigh-in of the scale, in kg; `row` is its place in its table.
    public func row(_ reading: ScaleReading, row: Int) -> ImportRow {
        let date = Date(timeIntervalSince1970: TimeInterval(reading.milliseconds) / 1000)
        if let problem = problem(date, column: "TIMESTAMP", value: reading.milliseconds) {
            return .invalid(line: row, reason: problem)
        }
        let kg = (reading.kilograms * Self.hundredthsPerKilogram).rounded() / Self.hundredthsPerKilogram
        guard kg.isFinite, WeightUnit.kg.plausibleRange.contains(kg) else {
            let reason = W8CoreError.weightOutOfRange("\(reading.kilograms)", .kg).localizedDescription
            return .invalid(line: row, reason: "WEIGHT_KG: " + reason)
        }
        return .entry(line: row, WeightEntry(weight: Weight(kg, .kg), date: date))
    }

    /// The days of steps, oldest first.
    public mutating func finish() -> [ImportRow] {
        tally.finish(source: Self.source).map(ImportRow.activity)
    }
}
