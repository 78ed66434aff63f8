import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Store

/// What `w8 export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, json
}

/// `--format` of `w8 import`: a format, or auto-detection.
enum ImportFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case auto
    case w8CSV = "w8-csv"
    case w8JSON = "w8-json"
    case openscale, libra, trendweight, generic

    var format: ImportFormat? { ImportFormat(rawValue: rawValue) }
}

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

        func validate() throws {
            if let output, output.isEmpty { throw ValidationError("--output '' is not a file name") }
        }

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let database = try runtime.database()
            let out = try output.map { try TextOutput.replacing($0) } ?? TextOutput.standardOutput()
            let writer = EntryWriter(
                format: format, unit: settings.unit, dates: runtime.dates, calendar: runtime.calendar,
                withTrend: withTrend)
            switch format {
            case .csv:
                try out.write(writer.csvHeader)
            case .json:
                try out.write(try backupHead(runtime: runtime, settings: settings, database: database))
            }
            var trend = TrendSmoother()
            var day: DateComponents?
            var trendWeight = 0.0
            var first = true
            try database.forEachEntry { entry in
                if withTrend {
                    let entryDay = runtime.calendar.dateComponents([.era, .year, .month, .day], from: entry.date)
                    if entryDay != day {
                        trendWeight = trend.add(date: entry.date, weight: entry.weight.value(in: settings.unit)).trend
                        day = entryDay
                    }
                }
                try out.write(writer.line(entry, trend: withTrend ? trendWeight : nil, first: first))
                first = false
            }
            if format == .json { try out.write(first ? "]\n}\n" : "\n  ]\n}\n") }
            try out.commit()
            if let output { FileHandle.standardError.write(Data("w8: wrote \(output)\n".utf8)) }
        }

        /// The backup up to the opening of its entries, which are streamed after it.
        func backupHead(runtime: Runtime, settings: Settings, database: AppDatabase) throws -> String {
            let journey = try database.journeyBackup()
            let dates = runtime.dates
            func number(_ value: Double) -> JSON { .number(value) }
            let goal: JSON =
                journey.goal.map {
                    .object([
                        ("weight", number($0.weight.value)), ("unit", .string($0.weight.unit.rawValue)),
                        ("set_at", .string(dates.timestamp($0.setAt))),
                        ("journey_started_at", .string(dates.timestamp($0.journeyStartedAt))),
                    ])
                } ?? .null
            let head = JSON.object([
                ("format", .string(Backup.formatName)),
                ("version", .integer(Int64(Backup.version))),
                ("w8_version", .string(W8.version)),
                ("exported_at", .string(dates.timestamp(runtime.now))),
                ("settings", .object(SettingKey.allCases.map { ($0.rawValue, JSON.setting($0.value(in: settings))) })),
                ("goal", goal),
                ("milestones_achieved", .array(journey.milestonesAchieved.map { .string($0.rawValue) })),
                (
                    "achievements",
                    .array(
                        journey.achievements.map { a in
                            .object([
                                ("type", .string(a.type.rawValue)),
                                ("date_achieved", .string(dates.timestamp(a.dateAchieved))),
                                ("weight", number(a.weight)), ("goal_weight", number(a.goalWeight)),
                                ("start_weight", number(a.startWeight)), ("unit", .string(a.unit.rawValue)),
                                ("progress_percent", number(a.progressPercent)),
                                ("notification_sent", .bool(a.notificationSent)),
                            ])
                        })
                ),
                ("entries", .array([])),
            ]).rendered()
            // Re-open the empty entries array: the entries follow one by one.
            return String(head.dropLast("[]\n}".count)) + "["
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
            let database: AppDatabase
            if dryRun, !FileManager.default.fileExists(atPath: runtime.paths.database) {
                database = try AppDatabase.inMemory()  // a dry run creates no file
            } else {
                database = try runtime.database()
            }
            let tracker = runtime.tracker(settings: settings, database: database)
            var report = ImportReport(file: input.name, skipInvalid: skipInvalid)

            var first = try input.read()
            let json = format == .w8JSON || (format == .auto && ImportReport.looksLikeJSON(first))
            var backup: Backup?
            if json {
                var more = try input.read()
                while !more.isEmpty {
                    first += more
                    more = try input.read()
                }
                backup = try Backup(json: first, options: options)
                (report.format, report.formatName, report.units) = (.w8JSON, ImportFormat.w8JSON.displayName, .rows)
            }
            let (result, outcome) = try tracker.importEntries(dryRun: dryRun, restoring: backup?.journey) { importer in
                if let backup {
                    for row in backup.rows { try report.take(row, into: &importer, label: "entry") }
                } else {
                    var reader = DelimitedImport(format: format.format, options: options)
                    var chunk = first
                    while !chunk.isEmpty {
                        for row in try reader.feed(chunk) { try report.take(row, into: &importer) }
                        chunk = try input.read()
                    }
                    for row in try reader.finish() { try report.take(row, into: &importer) }
                    report.format = reader.format
                    (report.formatName, report.units) = (reader.formatName, reader.unitSource)
                }
                try report.finish()
            }
            var restoredSettings = 0
            if let backup, !backup.settings.isEmpty {
                let changed = backup.settings.filter { key, value in key.value(in: settings) != value }
                restoredSettings = changed.count
                if !dryRun, !changed.isEmpty { try runtime.config.set(changed) }
            }
            if let backup, !backup.unknownSettings.isEmpty {
                warn("settings this version does not know were left out: " + backup.unknownSettings.joined(separator: ", "))
            }
            report.print(
                result: result, outcome: outcome, settingsChanged: restoredSettings, detected: format == .auto,
                dryRun: dryRun, json: output.json, present: Presenter(unit: settings.unit, dates: runtime.dates))
        }
    }
}

/// Counts the rows of an import, reports the bad ones on stderr and prints the summary.
struct ImportReport {
    let file: String
    let skipInvalid: Bool
    var format: ImportFormat?
    /// The format with its version or view, as the summary names it.
    var formatName: String?
    var units: ImportUnitSource?
    var invalid = 0
    /// Every row skipped, bad (with --skip-invalid) or no weigh-in, with its reason, in the order read.
    var skipped: [(line: Int, reason: String)] = []
    /// The rows that are no weigh-ins, by why.
    var notWeighIns: [(line: Int, skip: ImportSkip)] = []
    /// Bad rows reported one by one; past this many only the count is given.
    static let reportLimit = 20

    init(file: String, skipInvalid: Bool) {
        self.file = file
        self.skipInvalid = skipInvalid
    }

    /// A first chunk whose first character (after a byte-order mark and blanks) opens a JSON object.
    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return body.first { ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0) }
            == UInt8(ascii: "{")
    }

    mutating func take(_ row: ImportRow, into importer: inout EntryImporter, label: String? = nil) throws {
        switch row {
        case .entry(_, let entry):
            // After a bad row nothing will be written: the rest are only checked.
            if invalid == 0 || skipInvalid { try importer.add(entry) }
        case .skipped(let line, let skip):
            notWeighIns.append((line, skip))
            skipped.append((line, skip.reason))
        case .invalid(let line, let reason):
            invalid += 1
            let place = label.map { "\(file): \($0) \(line)" } ?? "\(file):\(line)"
            if skipInvalid {
                skipped.append((line, reason))
                FileHandle.standardError.write(Data("w8: \(place): skipped: \(reason)\n".utf8))
            } else if invalid <= ImportReport.reportLimit {
                FileHandle.standardError.write(Data("w8: \(place): \(reason)\n".utf8))
            }
        }
    }

    /// Refuses the whole import when a row was bad and bad rows are not to be skipped.
    func finish() throws {
        guard invalid > 0, !skipInvalid else { return }
        let more = invalid > ImportReport.reportLimit ? " (the first \(ImportReport.reportLimit) are listed)" : ""
        throw AppError.badInput(
            "nothing imported: \(invalid) bad row\(invalid == 1 ? "" : "s") in \(file)\(more); "
                + "fix \(invalid == 1 ? "it" : "them") or give --skip-invalid")
    }

    /// What the summary says of the unit of weights written without one; nil when the rows carry theirs.
    static func unitClause(_ source: ImportUnitSource?, formatName: String) -> String? {
        func other(_ unit: WeightUnit) -> String {
            unit == .kg ? "give --unit lb if they are pounds" : "give --unit kg if they are kilograms"
        }
        switch source {
        case .none, .rows: return nil
        case .option(let unit): return "weights read as \(unit.rawValue), as --unit says"
        case .file(let unit): return "weights in \(unit.rawValue), as the file says"
        case .app(let unit):
            let app = formatName.hasSuffix(" CSV") ? String(formatName.dropLast(4)) : formatName
            return "weights in \(unit.rawValue), the only unit \(app) writes"
        case .appDefault(let unit):
            return "weights read as \(unit.rawValue), as the file names no unit — \(other(unit))"
        case .preferred(let unit):
            return "weights read as \(unit.rawValue), your preferred unit — \(other(unit))"
        }
    }

    /// `lines 3, 4 and 6`, the first 20 of them.
    static func lineList(_ lines: [Int]) -> String {
        let shown = lines.prefix(20).map(String.init)
        let more = lines.count > 20 ? " and \(lines.count - 20) more" : ""
        guard shown.count > 1 else { return "line \(shown.first ?? "")" }
        if more.isEmpty { return "lines " + shown.dropLast().joined(separator: ", ") + " and " + shown.last! }
        return "lines " + shown.joined(separator: ", ") + more
    }

    /// One line for each kind of row that is no weigh-in.
    var notWeighInLines: [String] {
        let interpolated = notWeighIns.filter { $0.skip == .interpolated }.map(\.line)
        let placeholders = notWeighIns.filter { $0.skip != .interpolated }.map(\.line)
        var lines: [String] = []
        if !interpolated.isEmpty {
            let days = interpolated.count == 1 ? "1 interpolated day" : "\(interpolated.count) interpolated days"
            lines.append(
                "Skipped \(days) (TrendWeight computed their weights between weigh-ins): "
                    + "\(Self.lineList(interpolated)).")
        }
        if !placeholders.isEmpty {
            let rows =
                placeholders.count == 1 ? "1 midnight placeholder" : "\(placeholders.count) midnight placeholders"
            lines.append(
                "Skipped \(rows) repeating a weigh-in later the same day: \(Self.lineList(placeholders)).")
        }
        return lines
    }

    func print(
        result: ImportResult, outcome: TrackerOutcome, settingsChanged: Int, detected: Bool, dryRun: Bool, json: Bool,
        present: Presenter
    ) {
        if let warning = outcome.warning { warn(warning) }
        let skippedCount = skipped.count
        if json {
            return emit(
                .object([
                    ("file", .string(file)),
                    ("format", .string(format?.rawValue)),
                    ("read_as", .string(formatName)),
                    ("detected", .bool(detected)),
                    ("unit", .string(units?.unit?.rawValue)),
                    ("unit_assumed", .bool(units?.isAssumed ?? false)),
                    ("dry_run", .bool(dryRun)),
                    ("added", .integer(Int64(result.added))),
                    ("already_present", .integer(Int64(result.present))),
                    ("skipped", .integer(Int64(skippedCount))),
                    ("skipped_lines", .array(skipped.map { .integer(Int64($0.line)) })),
                    (
                        "skipped_rows",
                        .array(
                            skipped.map { .object([("line", .integer(Int64($0.line))), ("reason", .string($0.reason))]) })
                    ),
                    ("achievements_restored", .integer(Int64(result.achievementsRestored))),
                    ("settings_restored", .integer(Int64(settingsChanged))),
                    ("achieved", .array(result.change.achievements.map { .string($0.type.rawValue) })),
                    ("notified", JSON.string(outcome.notified?.rawValue)),
                ]))
        }
        if let formatName {
            let how = detected ? ", detected from its first lines" : ""
            let units = Self.unitClause(units, formatName: formatName).map { "; " + $0 } ?? ""
            Swift.print("Read \(file) as \(formatName)\(how)\(units).")
        } else {
            Swift.print("Read \(file): it holds no rows.")
        }
        var counts = "\(result.added) added, \(result.present) already present, \(skippedCount) skipped"
        if result.achievementsRestored > 0 { counts += ", \(result.achievementsRestored) achievements restored" }
        if settingsChanged > 0 { counts += ", \(settingsChanged) settings restored" }
        if dryRun {
            Swift.print("Dry run, nothing written: " + counts.replacingOccurrences(of: " added", with: " to add") + ".")
        } else {
            Swift.print("Imported: \(counts).")
        }
        for line in notWeighInLines { Swift.print(line) }
        if !dryRun {
            for line in present.milestoneLines(outcome) { Swift.print(line) }
        } else if !result.change.achievements.isEmpty {
            Swift.print(
                "Would record " + (MilestoneType.phrase(result.change.achievements.map(\.type)) ?? "nothing") + ".")
        }
        if let line = present.progressLine(result.change.snapshot) { Swift.print(line) }
    }
}

/// One entry as a CSV line or a backup's JSON object.
struct EntryWriter {
    let format: ExportFormat
    let unit: WeightUnit
    let dates: DateFormatting
    let calendar: Calendar
    let withTrend: Bool
    let csv = CSVWriter()

    var csvHeader: String {
        csv.line(
            ["id", "date", "weight", "unit", "note", "body_fat_percent"] + (withTrend ? ["trend_weight", "trend_unit"] : []))
    }

    func line(_ entry: WeightEntry, trend: Double?, first: Bool) -> String {
        switch format {
        case .csv:
            var fields = [
                String(entry.id ?? 0), dates.timestamp(entry.date), Weight.exact(entry.weight.value),
                entry.weight.unit.rawValue, entry.note ?? "", entry.bodyFatPercent.map(Weight.exact) ?? "",
            ]
            if let trend { fields += [Weight.decimal(trend), unit.rawValue] }
            return csv.line(fields)
        case .json:
            var pairs: [(String, JSON)] = [
                ("id", .integer(entry.id ?? 0)), ("date", .string(dates.timestamp(entry.date))),
                ("weight", .number(entry.weight.value)), ("unit", .string(entry.weight.unit.rawValue)),
                ("note", .string(entry.note)), ("body_fat_percent", entry.bodyFatPercent.map { .number($0) } ?? .null),
            ]
            if let trend { pairs += [("trend_weight", .decimal(trend)), ("trend_unit", .string(unit.rawValue))] }
            return (first ? "\n    " : ",\n    ") + JSON.object(pairs).compact
        }
    }
}

extension JSON {
    static func setting(_ value: SettingValue) -> JSON {
        switch value {
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(Int64(i))
        case .string(let s): .string(s)
        }
    }
}
