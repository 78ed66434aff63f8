import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Formats
import W8Runtime
import W8Text

extension ExportFormat: ExpressibleByArgument {}
extension ImportFormatChoice: ExpressibleByArgument {}

extension W8 {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(.export)

        @Option(help: "csv or json (the full backup).")
        var format: ExportFormat = .csv

        @Option(
            name: [.short, .long], help: "Write to this file (mode 0600, replaced whole) instead of standard output.")
        var output: String?

        @Flag(name: .customLong("with-trend"), help: "Add each entry's trend weight, in the preferred unit.")
        var withTrend = false

        @Flag(help: "Write the intake log as CSV instead: id,date,kind,volume_ml,calories,note.")
        var intake = false

        @Flag(help: "Write the activity log as CSV instead: date,source,steps,distance_m.")
        var activity = false

        func validate() throws {
            if let output, output.isEmpty {
                throw ValidationError(
                    // TRANSLATORS: an error of w8 export: --output was given an empty file name.
                    tr("--output '' is not a file name"))
            }
            if intake, activity { throw ValidationError(tr("--intake and --activity each write a CSV of their own")) }
            for (flag, given) in [("--intake", intake), ("--activity", activity)] where given {
                if format != .csv || withTrend {
                    throw ValidationError(
                        // TRANSLATORS: an error; {option} is --intake or --activity. Options are kept as they are.
                        tr("{option} writes CSV and takes neither --format json nor --with-trend", ["option": flag]))
                }
            }
        }

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let out = try output.map { try TextOutput.replacing($0) } ?? TextOutput.standardOutput()
            let exporter = try runtime.exporter(settings, version: W8.version, warn: warn)
            if activity {
                try exporter.exportActivity(to: out)
            } else {
                try exporter.export(intake ? nil : format, withTrend: withTrend, to: out)
            }
            // TRANSLATORS: a terminal line after w8 export --output; {path} is the file written.
            if let output { note(tr("wrote {path}", ["path": output])) }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(.import)

        @Argument(help: "The file to read, or - for standard input.")
        var file: String

        @Option(
            help: """
                auto, w8-csv, w8-json, w8trackr-ios, apple-health, gadgetbridge, withings, google-fit, \
                samsung-health, fitbit, garmin, openscale, libra, trendweight or generic.
                """)
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
            if let unit, format.format?.rowsNameUnits == true {
                throw ValidationError(
                    tr(
                        // TRANSLATORS: an error; {unit} is "kg" or "lb", {format} a format named with --format.
                        "--unit {unit} does not apply to {format}: its rows carry their unit",
                        ["unit": unit.rawValue, "format": format.rawValue]))
            }
            if let unit, format == .garmin {
                throw ValidationError(
                    tr(
                        // TRANSLATORS: an error; {unit} is "kg" or "lb", {format} is "garmin", named with --format.
                        "--unit {unit} does not apply to {format}: its weights are in grams",
                        ["unit": unit.rawValue, "format": format.rawValue]))
            }
            if let dateFormat {
                do { _ = try DatePattern(dateFormat) } catch { throw ValidationError(error.localizedDescription) }
            }
        }

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let input = try InputFile(file)
            let options = ImportOptions(
                unit: unit, preferredUnit: settings.unit, datePattern: try dateFormat.map(DatePattern.init),
                now: runtime.now, calendar: runtime.calendar)
            let importer = try runtime.importer(settings: settings, dryRun: dryRun)
            let progress = ProgressLine(
                name: file == "-" ? tr("standard input") : (file as NSString).lastPathComponent,
                onTerminal: isatty(STDERR_FILENO) == 1)
            let summary: ImportSummary
            do {
                defer { progress.erase() }
                summary = try importer.run(
                    input, format: format, options: options, dryRun: dryRun, skipInvalid: skipInvalid,
                    problem: {
                        progress.erase()
                        note($0)
                    }, progress: progress.show)
            }
            if !summary.unknownSettings.isEmpty {
                warn(
                    tr(
                        // TRANSLATORS: a warning of w8 import; {keys} are config.toml keys: keep them.
                        "settings this version does not know were left out: {keys}",
                        ["keys": summary.unknownSettings.joined(separator: ", ")]))
            }
            if let warning = summary.outcome.warning { warn(warning) }
            let lines = runtime.presenter(settings).importSummary(summary, json: output.json)
            // The summary quotes rows of the file: their control characters are shown, not run.
            show(output.json ? lines : lines.map(\.visibleOnTerminal))
        }
    }
}

/// A long import's progress on a terminal: one line on stderr rewritten in place (`\r`), at most four times a
/// second, erased at the end; nothing when stderr is no terminal.
final class ProgressLine: @unchecked Sendable {
    let name: String
    let onTerminal: Bool
    private var last: Date?
    private var shown = false

    init(name: String, onTerminal: Bool) {
        self.name = name
        self.onTerminal = onTerminal
    }

    /// `Reading export.zip: 412 of 1,024 MB (40 %)`.
    func show(_ done: Int64, _ total: Int64?) {
        guard onTerminal else { return }
        let now = Date()
        if let last, now.timeIntervalSince(last) < 0.25 { return }
        last = now
        let mb = { (bytes: Int64) in
            (bytes / 1_000_000).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        }
        let text =
            if let total, total > 0 {
                tr(
                    // TRANSLATORS: w8 import's progress on the terminal, rewritten in place; {name} is the file read,
                    // {done} and {total} megabytes.
                    "Reading {name}: {done} of {total} MB ({percent} %)",
                    ["name": name, "done": mb(done), "total": mb(total), "percent": done * 100 / total])
            } else {
                // TRANSLATORS: w8 import's progress on the terminal, when the size is unknown; {done} is megabytes.
                tr("Reading {name}: {done} MB", ["name": name, "done": mb(done)])
            }
        FileHandle.standardError.write(Data(("\r" + text.visibleOnTerminal + "\u{1B}[K").utf8))
        shown = true
    }

    /// Clears the line, before a message or at the end.
    func erase() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
