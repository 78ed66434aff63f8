import Foundation
import W8Core
import W8Text

/// The scale and band vendors' exports: Withings, Google Fit (Takeout) and Samsung Health. Each is a weight file
/// or a file of days of steps, found by its header (and Samsung's metadata line); the sources of each layout are
/// cited in Tests/Fixtures/import/README.md.
extension ImportLayout {
    /// Withings' weight.csv names its columns in the account's language, the unit in brackets: English and German
    /// are read (`Weight (kg)`, `Gewicht (kg)`).
    static let withingsWeightNames = ["weight", "gewicht"]
    static let withingsFatMassNames = ["fat mass", "fettmasse"]
    static let withingsCommentNames = ["comments", "kommentare"]

    /// The vendor whose export the first lines show, if any.
    static func vendorFormat(_ prefix: HeaderPrefix, fileName: String?) -> ImportFormat? {
        if prefix.metadata != nil { return .samsungHealth }
        let header = names(prefix.first, separator: separator(prefix.first))
        // Every Withings aggregates_*.csv is `date,value`: only the steps file is detected.
        if header == ["date", "value"], withingsAggregate(fileName) == "steps" { return .withings }
        if header.first == "date", measured(header, withingsWeightNames) != nil,
            measured(header, withingsFatMassNames) != nil
        {
            return .withings
        }
        if header.contains("date"), header.contains("step count") { return .googleFit }
        return nil
    }

    /// `steps` for `aggregates_steps.csv`, `distance` for `aggregates_distance.csv`; nil for other names.
    static func withingsAggregate(_ fileName: String?) -> String? {
        guard let base = fileName?.split(separator: "/").last?.lowercased(), base.hasPrefix("aggregates_") else {
            return nil
        }
        return String(base.dropFirst("aggregates_".count).prefix { $0.isLetter || $0 == "-" || $0 == "_" })
    }

    /// The column named `name (unit)` for one of `names`, and its unit.
    static func measured(_ header: [String], _ names: [String]) -> (index: Int, unit: WeightUnit)? {
        for (index, column) in header.enumerated() {
            for name in names {
                switch column {
                case "\(name) (kg)": return (index, .kg)
                case "\(name) (lb)", "\(name) (lbs)": return (index, .lb)
                default: continue
                }
            }
        }
        return nil
    }

    /// The columns of a vendor's file, and which of its files it is.
    mutating func vendorColumns(_ header: [String], prefix: HeaderPrefix, fileName: String?) throws {
        func column(_ names: String...) throws -> Int { try ImportLayout.column(header, names, format: format) }
        func optional(_ names: String...) -> Int? { header.firstIndex(where: names.contains) }
        switch format {
        case .withings where header == ["date", "value"]:
            if let aggregate = ImportLayout.withingsAggregate(fileName), aggregate != "steps" {
                throw W8FormatsError.importVendorFile(
                    tr(
                        // TRANSLATORS: {file} is a Withings file name, as aggregates_weight; {header} the header of
                        // such files (date,value); {steps} the one file of steps w8 reads.
                        "{file} holds no steps: of Withings' {header} files w8 reads {steps}",
                        ["file": "aggregates_\(aggregate)", "header": "date,value", "steps": "aggregates_steps.csv"]))
            }
            name = "Withings aggregates_steps.csv"
            (kind, date, steps) = (.stepsDay(millis: false), 0, 1)
        case .withings:
            // Dates are written without a zone; read in the person's zone (see the README).
            name = "Withings weight.csv"
            date = try column("date")
            guard let weight = ImportLayout.measured(header, ImportLayout.withingsWeightNames) else {
                throw W8FormatsError.importColumnMissing(column: "Weight (kg)", format: format.rawValue)
            }
            (self.weight, declaredUnit) = (weight.index, weight.unit)
            fatMass = ImportLayout.measured(header, ImportLayout.withingsFatMassNames)
            note = header.firstIndex(where: ImportLayout.withingsCommentNames.contains)
        case .googleFit:
            // Its `Calories (kcal)` are energy burned, not eaten: never read as intake.
            name =
                "Google Fit Daily activity metrics.csv (steps and distance; its calories are energy burned, not read)"
            (kind, date, steps, distance) = (
                .stepsDay(millis: false), try column("date"), try column("step count"), optional("distance (m)")
            )
        case .samsungHealth:
            trailingComma = true
            let table = prefix.metadata?.split(separator: ",").first.map { $0.lowercased() } ?? ""
            if table.hasSuffix("step_daily_trend") || (table.isEmpty && header.contains("day_time")) {
                name = "Samsung Health step_daily_trend CSV"
                (kind, date, steps) = (.stepsDay(millis: true), try column("day_time"), try column("count"))
                (distance, sourceType) = (optional("distance"), optional("source_type"))
            } else if table == "com.samsung.health.weight" || (table.isEmpty && header.contains("weight")) {
                // Times are UTC (the reader's options say so); the weight is always kg.
                name = "Samsung Health CSV"
                (date, weight, bodyFat) = (try column("start_time"), try column("weight"), optional("body_fat"))
                appUnit = (.kg, true)
            } else {
                let files: KeyValuePairs<String, any CustomStringConvertible> = [
                    "table": table, "weight": "com.samsung.health.weight.*.csv",
                    "steps": "com.samsung.shealth.step_daily_trend.*.csv",
                ]
                throw W8FormatsError.importVendorFile(
                    table.isEmpty
                        // TRANSLATORS: {weight} and {steps} are the file names of Samsung Health that w8 reads.
                        ? tr("this file is no Samsung Health file w8 reads: import {weight} or {steps}", files)
                        // TRANSLATORS: {table} is the Samsung Health table the file holds, as com.samsung.health.sleep;
                        // {weight} and {steps} are the file names of Samsung Health that w8 reads.
                        : tr("{table} is no Samsung Health file w8 reads: import {weight} or {steps}", files))
            }
        default:
            preconditionFailure("not a vendor format")
        }
    }

    /// A row of days of steps: the day, its steps and metres, or why it is no day.
    func dayRow(_ fields: [String], line: Int, millis: Bool, options: ImportOptions) throws -> ImportRow {
        func field(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let text = fields[index].trimmingBlanks()
            return text.isEmpty ? nil : text
        }
        if let sourceType, field(sourceType) != "-2" { return .skipped(line: line, .oneDevice) }
        guard let dayText = field(date) else { throw W8FormatsError.importFieldMissing("date") }
        let day: CalendarDay
        if millis {
            // Samsung keeps a day as the millisecond of its midnight in UTC.
            guard let ms = Int64(dayText), ms % 1000 == 0 else {
                throw W8FormatsError.importValueInvalid(
                    // TRANSLATORS: ends "day_time '…' is not …": what the column should hold.
                    column: "day_time", value: dayText, expected: tr("a day's midnight in milliseconds since 1970"))
            }
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0)!
            day = CalendarDay(Date(timeIntervalSince1970: TimeInterval(ms / 1000)), calendar: utc)
        } else {
            guard let read = CalendarDay(dayText) else {
                throw W8FormatsError.importValueInvalid(
                    // TRANSLATORS: ends "date '…' is not …": what the column should hold; 2024-03-26 is the file's format.
                    column: "date", value: dayText, expected: tr("a day like 2024-03-26"))
            }
            day = read
        }
        guard day.year >= DateInput.earliestYear else { throw W8CoreError.dateTooEarly(dayText) }
        guard day <= CalendarDay(options.now, calendar: options.calendar) else {
            throw W8CoreError.dateInFuture(dayText)
        }
        guard let stepsText = field(steps) else { return .skipped(line: line, .noSteps) }
        let count = try ActivityInput.steps(stepsText)
        var metres = 0
        if let text = field(distance) {
            // A day's walk, whole metres; no one walks 1000 km in a day.
            guard let value = Double(text), value.isFinite, (0..<1_000_000).contains(value) else {
                throw W8FormatsError.importValueInvalid(
                    // TRANSLATORS: ends "distance '…' is not …": what the column should hold; 2652.3 is as the file writes it.
                    column: "distance", value: text, expected: tr("a day's distance in metres, like 2652.3"))
            }
            metres = Int(value.rounded())
        }
        return .activity(
            ActivityDay(day: day, steps: count, distance: metres, source: ActivitySource(rawValue: format.rawValue)))
    }

    /// Body fat in percent from a fat mass, to 0.1: Withings writes the mass, not the ratio.
    static func bodyFat(mass text: String, unit: WeightUnit, of weight: Weight) throws -> Double? {
        guard let mass = Double(text.trimmingBlanks().replacingOccurrences(of: ",", with: ".")), mass.isFinite,
            mass >= 0
        else {
            throw W8FormatsError.importValueInvalid(
                // TRANSLATORS: ends "fat mass '…' is not …": what the column should hold; {unit} is kg or lb.
                column: "fat mass", value: text, expected: tr("a mass in {unit}, like 15.2", ["unit": unit.rawValue]))
        }
        if mass == 0 { return nil }  // not measured
        let percent = (Weight(mass, unit).value(in: .kg) / weight.value(in: .kg) * 1000).rounded() / 10
        return try WeightInput.bodyFat(String(percent))
    }
}
