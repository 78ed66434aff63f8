import ArgumentParser
import Foundation
import W8App
import W8Runtime
import W8Core

extension ExportFormat: ExpressibleByArgument {}
extension ImportFormatChoice: ExpressibleByArgument {}

extension W8 {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every entry as CSV, or everything as a JSON backup.",
            discussion: """
                CSV: a header line, then one entry a line, oldest first: id,date,weight,unit,note,body_fat_percent \
                (dates ISO 8601 with offset, weights as entered with a decimal point, RFC 4180 quoting). \
                --with-trend adds trend_weight,trend_unit. JSON also holds the goal, the milestone achievements and \
                the settings: 'w8 import --format w8-json' restores it.
                Examples: w8 export > weights.csv · w8 export --format json --output ~/w8-backup.json
                """)

        @Option(help: "csv or json (the full backup).")
        var format: ExportFormat = .csv

        @Option(name: [.short, .long], help: "Write to this file (mode 0600, replaced whole) instead of standard output.")
        var output: String?

        @Flag(name: .customLong("with-trend"), help: "Add each entry's trend weight, in the preferred unit.")
        var withTrend = false

        @Flag(help: "Write the intake log as CSV instead: id,date,kind,volume_ml,calories,note.")
        var intake = false

        func validate() throws {
            if let output, output.isEmpty { throw ValidationError("--output '' is not a file name") }
            if intake, format != .csv || withTrend {
                throw ValidationError("--intake writes CSV and takes neither --format json nor --with-trend")
            }
        }

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let out = try output.map { try TextOutput.replacing($0) } ?? TextOutput.standardOutput()
            let exporter = Exporter(
                database: try runtime.database(), settings: settings, dates: runtime.dates, calendar: runtime.calendar,
                now: runtime.now, w8Version: W8.version)
            if intake {
                try exporter.exportIntake(to: out)
            } else {
                try exporter.export(format, withTrend: withTrend, to: out)
            }
            if let output { FileHandle.standardError.write(Data("w8: wrote \(output)\n".utf8)) }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read weigh-ins from a file: another app's export, a CSV, or a W8Trackr backup.",
            discussion: """
                Formats: w8-csv and w8-json (w8 export), openscale (2.x "dateTime",…,"weight" in kg; 3.x \
                DATE,TIME and a column per measurement, in the units set in the app), libra (#Units, semicolons, \
                version 5 or 6), trendweight (the computed view: interpolated days are skipped; or the raw view \
                Date,Time,Weight,Body Fat %), generic (date and weight columns, with or without a header). auto \
                reads the header and says which it chose, and which unit it assumed for weights without one.
                Rows are checked as 'w8 add' checks them; dates before 1900 or in the future are refused. A row \
                with more fields than the header is refused unless decimal commas (194,2) explain the extra \
                commas in one way. A bad row is reported as FILE:LINE and, unless --skip-invalid, nothing is \
                imported. Rows that are no weigh-ins (TrendWeight's interpolated days, Libra's midnight \
                placeholders) are counted as skipped. An entry with the same date and weight is not added twice. \
                Milestones are evaluated once, at the end; those reached before today are recorded without a \
                notification.
                Examples: w8 import openScale_export.csv · w8 import --dry-run weights.csv · \
                w8 import --format generic --date-format MM/DD/YYYY --unit lb old.csv · w8 export | w8 import -
                """)

        @Argument(help: "The file to read, or - for standard input.")
        var file: String

        @Option(help: "auto, w8-csv, w8-json, openscale, libra, trendweight or generic.")
        var format: ImportFormatChoice = .auto

        @Option(
            help: """
                Unit of weights that carry none (default: the file's, kg for openScale 2.x and Libra, else the \
                preferred unit).
                """)
        var unit: WeightUnit?

        @Flag(name: .customLong("dry-run"), help: "Check and count everything, then write nothing.")
        var dryRun = false

        @Flag(name: .customLong("skip-invalid"), help: "Import the good rows and list the bad ones as skipped.")
        var skipInvalid = false

        @Option(
            name: .customLong("date-format"),
            help: "How dates are written, in YYYY, MM and DD: MM/DD/YYYY, DD/MM/YYYY, YYYY.MM.DD, …")
        var dateFormat: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let unit, format == .w8CSV || format == .w8JSON {
                throw ValidationError("--unit \(unit.rawValue) does not apply to \(format.rawValue): its rows carry their unit")
            }
            if let dateFormat {
                do { _ = try DatePattern(dateFormat) } catch { throw ValidationError(error.localizedDescription) }
            }
        }

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let input = try InputFile(file)
            let options = ImportOptions(
                unit: unit, preferredUnit: settings.unit, datePattern: try dateFormat.map(DatePattern.init),
                now: runtime.now, calendar: runtime.calendar)
            let importer = try runtime.importer(settings: settings, dryRun: dryRun)
            let summary = try importer.run(
                input, format: format, options: options, dryRun: dryRun, skipInvalid: skipInvalid,
                problem: { FileHandle.standardError.write(Data("w8: \($0)\n".utf8)) })
            if !summary.unknownSettings.isEmpty {
                warn("settings this version does not know were left out: " + summary.unknownSettings.joined(separator: ", "))
            }
            if let warning = summary.outcome.warning { warn(warning) }
            show(runtime.presenter(settings).importSummary(summary, json: output.json))
        }
    }
}
