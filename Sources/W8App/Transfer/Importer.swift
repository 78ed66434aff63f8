import Foundation
import W8Core
import W8Formats
import W8Store

/// `--format` of `w8 import`: a format, or auto-detection.
public enum ImportFormatChoice: String, CaseIterable, Sendable {
    case auto
    case w8CSV = "w8-csv"
    case w8JSON = "w8-json"
    case w8trackrIOS = "w8trackr-ios"
    case appleHealth = "apple-health"
    case openscale, libra, trendweight, generic
    case withings
    case googleFit = "google-fit"
    case samsungHealth = "samsung-health"
    case fitbit, garmin
    case gadgetbridge

    public var format: ImportFormat? { ImportFormat(rawValue: rawValue) }
}

/// What an import did, for the summary: the counts, the rows skipped and why, and what it restored.
public struct ImportSummary {
    public var report: ImportReport
    public var result: ImportResult
    public var outcome: TrackerOutcome
    public var settingsRestored: Int
    /// Settings of a newer W8Trackr that were left out.
    public var unknownSettings: [String]
    public var detected: Bool
    public var dryRun: Bool
}

/// Reads an import file into the store in one transaction: detects the format, checks every row as `w8 add`
/// does, restores a backup's journey, intake log and settings, and evaluates the milestones once at the end.
public struct Importer {
    public let tracker: Tracker
    /// Where a backup's settings are written, after the transaction committed.
    public let config: ConfigFile

    /// `w8 import --help`: the formats and the rules.
    public static let help = """
        Formats: w8-csv and w8-json (w8 export), w8trackr-ios (the iPhone app's CSV date,weight,unit,note,bodyFat \
        or its JSON {"appVersion", "entries", …}; dates in UTC, each row in its own unit), openscale (2.x "dateTime",…,"weight" in kg; 3.x \
        DATE,TIME and a column per measurement, in the units set in the app), libra (#Units, semicolons, \
        version 5 or 6), trendweight (the computed view: interpolated days are skipped; or the raw view \
        Date,Time,Weight,Body Fat %), withings (weight.csv, its fat mass read as body fat; \
        aggregates_steps.csv), google-fit (Takeout's Daily activity metrics.csv: steps and distance; its \
        calories are energy burned and are not read), samsung-health (com.samsung.health.weight.*.csv, times \
        in UTC; com.samsung.shealth.step_daily_trend.*.csv, the all-devices total of each day), fitbit \
        (Google Takeout weight-*.json in the account's unit, which the file does not name: give --unit; \
        steps-*.json, a UTC count a minute, summed per local day), garmin (Garmin Connect export: \
        *_userBioMetrics.json in grams, UDSFile_*.json daily steps and distance), generic \
        (date and weight columns, with or without a header), gadgetbridge (its exported SQLite database, \
        opened read only: Mi scale weigh-ins in kg and the bands' steps a day, each minute counted once, from \
        the device paired first). auto \
        reads the header or first record and says which it chose, and which unit it assumed for weights without one.
        apple-health: Health's Export All Health Data, export.zip or its apple_health_export/export.xml (also on \
        standard input), detected by the ZIP or the HealthData root; weight, body fat, steps, walking/running \
        distance, water and energy eaten; each stretch of steps counted once, Apple Watch over iPhone over other \
        apps; exact duplicates dropped; a bad record is reported as FILE: record N.
        Rows are checked as 'w8 add' checks them; dates before 1900 or in the future are refused. A row \
        with more fields than the header is refused unless decimal commas (194,2) explain the extra \
        commas in one way. A bad row is reported as FILE:LINE (a JSON record as FILE: record N) and, \
        unless --skip-invalid, nothing is imported. Rows that are no weigh-ins (TrendWeight's interpolated \
        days, Libra's midnight placeholders, Samsung's one-device step rows, a day of steps given again) are \
        counted as skipped. An entry with the same date and weight is not added twice. \
        Milestones are evaluated once, at the end; those reached before today are recorded without a \
        notification.
        Examples: w8 import openScale_export.csv · w8 import --dry-run weights.csv · w8 import export.zip · \
        w8 import --format generic --date-format MM/DD/YYYY --unit lb old.csv · w8 export | w8 import -
        """

    public init(tracker: Tracker, config: ConfigFile) {
        self.tracker = tracker
        self.config = config
    }

    /// The JSON format to read `input` as, or nil for a delimited file. Auto-detection reads on, into `first`,
    /// until the first key shows which app wrote the JSON.
    static func jsonFormat(_ choice: ImportFormatChoice, first: inout [UInt8], input: InputFile) throws
        -> ImportFormat?
    {
        switch choice {
        case .w8JSON: return .w8JSON
        case .w8trackrIOS: return ImportReport.looksLikeJSON(first) ? .w8trackrIOS : nil
        case .auto:
            guard ImportReport.looksLikeJSON(first) else { return nil }
            while true {
                if let found = ImportFormat.jsonFormat(first) { return found }
                let more = try input.read()
                // Blanks without end: the backup's reader names what is wrong.
                if more.isEmpty || first.count > DelimitedImport.headerSearchLimit { return .w8JSON }
                first += more
            }
        default: return nil
        }
    }

    /// How an Apple Health export arrives.
    enum HealthInput { case zip, xml }

    /// Whether `input` is an Apple Health export, and in which form: a ZIP (`PK\3\4`) or XML whose root is
    /// `HealthData`. Auto-detection reads on, into `first`, until the XML says.
    static func healthInput(_ choice: ImportFormatChoice, first: inout [UInt8], input: InputFile) throws
        -> HealthInput?
    {
        guard choice == .auto || choice == .appleHealth else { return nil }
        if first.starts(with: ZipMember.magic) { return .zip }
        while true {
            if let found = ImportFormat.isAppleHealthXML(first) {
                if found { return .xml }
                break
            }
            let more = try input.read()
            if more.isEmpty { break }
            first += more
        }
        guard choice == .appleHealth else { return nil }
        throw AppError.badInput(
            "\(input.name) is not an Apple Health export: neither a ZIP archive nor XML whose root is HealthData")
    }

    /// Imports `input`. Each bad row is told to `problem` as one line (`FILE:LINE: reason`); unless `skipInvalid`,
    /// one bad row writes nothing and throws.
    public func run(
        _ input: InputFile, format: ImportFormatChoice, options: ImportOptions, dryRun: Bool, skipInvalid: Bool,
        problem: @escaping (String) -> Void, progress: ((_ done: Int64, _ total: Int64?) -> Void)? = nil
    ) throws -> ImportSummary {
        let settings = tracker.context.settings
        var report = ImportReport(file: input.name, skipInvalid: skipInvalid, problem: problem)
        var first = try input.read()
        let sqlite = first.starts(with: Array("SQLite format 3\0".utf8))
        if sqlite && format == .auto || format == .gadgetbridge {
            return try gadgetbridge(
                input, sqlite: sqlite, format: format, options: options, dryRun: dryRun, report: report)
        }
        let health = try Self.healthInput(format, first: &first, input: input)
        let json = health == nil ? try Self.jsonFormat(format, first: &first, input: input) : nil
        let vendor =
            health == nil
            && ([.fitbit, .garmin].contains(format) || (format == .auto && ImportReport.looksLikeArray(first)))
        let member =
            health == .zip
            ? try ZipMember(
                input, matching: { $0 == "export.xml" || $0.hasSuffix("/export.xml") },
                describe: "apple_health_export/export.xml") : nil
        var backup: Backup?
        let (result, outcome) = try tracker.importEntries(dryRun: dryRun) { importer in
            var chunk = try member?.read() ?? first
            /// Hands every chunk, from the first on, to `feed`, and takes the rows it completes.
            func readAll(label: String? = nil, _ feed: ([UInt8]) throws -> [ImportRow]) throws {
                while !chunk.isEmpty {
                    for row in try feed(chunk) { try report.take(row, into: &importer, label: label) }
                    if let member {
                        chunk = try member.read()
                        progress?(member.progress.done, member.progress.total)
                    } else {
                        chunk = try input.read()
                        progress?(input.consumed, input.size)
                    }
                }
            }
            if health != nil {
                var stream = AppleHealthStream(options: options)
                try readAll(label: "record") { try stream.feed($0) }
                for row in try stream.finish() { try report.take(row, into: &importer, label: "record") }
                report.format = .appleHealth
                report.formatName = member.map { "Apple Health export (\($0.name) in the ZIP)" } ?? stream.formatName
                report.units = .rows
                report.notes = [AppleHealthNotes.found(report)] + AppleHealthNotes.lines(stream)
                try report.finish()
                return
            }
            switch json {
            case _ where vendor:
                var stream = VendorExportStream(fileName: input.name, expected: format.format, options: options)
                try readAll(label: "record") { try stream.feed($0) }
                for row in try stream.finish() { try report.take(row, into: &importer) }
                if let kind = stream.kind {
                    (report.format, report.formatName, report.units) = (kind.format, kind.name, stream.unitSource)
                }
            case .w8JSON?:
                (report.format, report.formatName, report.units) = (.w8JSON, ImportFormat.w8JSON.displayName, .rows)
                var stream = BackupStream(options: options)
                try readAll(label: "entry") { try stream.feed($0) }
                let restoring = try stream.finish()
                try importer.restore(restoring.journey)
                backup = restoring
            case .w8trackrIOS?:
                var stream = IPhoneExportStream(options: options)
                try readAll(label: "entry") { try stream.feed($0) }
                try stream.finish()
                (report.format, report.formatName, report.units) = (.w8trackrIOS, stream.formatName, .rows)
            default:
                var reader = DelimitedImport(format: format.format, options: options, fileName: input.name)
                try readAll { try reader.feed($0) }
                for row in try reader.finish() { try report.take(row, into: &importer) }
                report.format = reader.format
                (report.formatName, report.units) = (reader.formatName, reader.unitSource)
            }
            try report.finish()
        }
        var restored = 0
        if let backup, !backup.settings.isEmpty {
            let changed = backup.settings.filter { key, value in key.value(in: settings) != value }
            restored = changed.count
            if !dryRun, !changed.isEmpty { try config.set(changed) }
        }
        return ImportSummary(
            report: report, result: result, outcome: outcome, settingsRestored: restored,
            unknownSettings: backup?.unknownSettings ?? [], detected: format == .auto, dryRun: dryRun)
    }
}

extension Importer {
    /// Imports Gadgetbridge's database at `input`'s path, read only: its scale's weigh-ins as entries in kg
    /// (`MI_SCALE_WEIGHT_SAMPLE row N` for a bad one) and its bands' steps as days (`GadgetbridgeImport`).
    func gadgetbridge(
        _ input: InputFile, sqlite: Bool, format: ImportFormatChoice, options: ImportOptions, dryRun: Bool,
        report: ImportReport
    ) throws -> ImportSummary {
        guard !input.isStandardInput else {
            throw AppError.badInput("a Gadgetbridge database is read from its file, not from standard input")
        }
        guard sqlite else {
            throw AppError.badInput("\(input.name) is not an SQLite database; Gadgetbridge exports one")
        }
        if let unit = options.unit {
            throw AppError.badInput("--unit \(unit.rawValue) does not apply to a Gadgetbridge database: it keeps kg")
        }
        let database = try GadgetbridgeDatabase(path: input.name)
        var report = report
        (report.format, report.formatName, report.units) = (.gadgetbridge, GadgetbridgeImport.formatName, .app(.kg))
        let (result, outcome) = try tracker.importEntries(dryRun: dryRun) { importer in
            var reader = GadgetbridgeImport(options: options)
            try database.forEachScaleReading { place, reading in
                try report.take(reader.row(reading, row: place), into: &importer, label: "MI_SCALE_WEIGHT_SAMPLE row")
            }
            try database.forEachStepSample { table, place, sample in
                let runningTotal = GadgetbridgeDatabase.runningTotalTables.contains(table)
                if let bad = reader.add(sample, row: place, runningTotal: runningTotal) {
                    try report.take(bad, into: &importer, label: "\(table) row")
                }
            }
            for day in reader.finish() { try report.take(day, into: &importer) }
            try report.finish()
        }
        return ImportSummary(
            report: report, result: result, outcome: outcome, settingsRestored: 0, unknownSettings: [],
            detected: format == .auto, dryRun: dryRun)
    }
}

/// Counts the rows of an import, tells the bad ones as they come, and keeps what the summary says.
public struct ImportReport {
    public let file: String
    let skipInvalid: Bool
    let problem: (String) -> Void
    public var format: ImportFormat?
    /// The format with its version or view, as the summary names it.
    public var formatName: String?
    public var units: ImportUnitSource?
    /// How many entries were read in each unit, for formats whose rows name theirs.
    public var entriesByUnit: [WeightUnit: Int] = [:]
    /// Days of steps read, by source, and drinks and calories read, by kind.
    public var activityByDays: [ActivitySource: Int] = [:]
    public var intakeByKind: [IntakeKind: Int] = [:]
    var invalid = 0
    /// Every row skipped, bad (with --skip-invalid) or no weigh-in, with its reason, in the order read.
    public var skipped: [(line: Int, reason: String)] = []
    /// The rows that are no weigh-ins, by why.
    public var notWeighIns: [(line: Int, skip: ImportSkip)] = []
    /// What the format alone has to say (Apple Health: which source the steps came from, duplicates dropped).
    public var notes: [String] = []
    /// Bad rows reported one by one; past this many only the count is given.
    static let reportLimit = 20

    init(file: String, skipInvalid: Bool, problem: @escaping (String) -> Void) {
        self.file = file
        self.skipInvalid = skipInvalid
        self.problem = problem
    }

    /// A first chunk whose first character (after a byte-order mark and blanks) opens a JSON object.
    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool { firstCharacter(bytes) == UInt8(ascii: "{") }

    /// A first chunk that opens a JSON array: Fitbit's and Garmin's exports.
    static func looksLikeArray(_ bytes: [UInt8]) -> Bool { firstCharacter(bytes) == UInt8(ascii: "[") }

    static func firstCharacter(_ bytes: [UInt8]) -> UInt8? {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")]
        return body.first { !blanks.contains($0) }
    }

    mutating func take(_ row: ImportRow, into importer: inout EntryImporter, label: String? = nil) throws {
        switch row {
        case .entry(_, let entry):
            entriesByUnit[entry.weight.unit, default: 0] += 1
            // After a bad row nothing will be written: the rest are only checked.
            if invalid == 0 || skipInvalid { try importer.add(entry) }
        case .skipped(let line, let skip):
            notWeighIns.append((line, skip))
            skipped.append((line, skip.reason))
        case .activity(let day):
            activityByDays[day.source, default: 0] += 1
            if invalid == 0 || skipInvalid { try importer.add(activity: day) }
        case .intake(_, let event):
            intakeByKind[event.kind, default: 0] += 1
            if invalid == 0 || skipInvalid { try importer.add(intake: event) }
        case .invalid(let line, let reason):
            invalid += 1
            let place = label.map { "\(file): \($0) \(line)" } ?? "\(file):\(line)"
            if skipInvalid {
                skipped.append((line, reason))
                problem("\(place): skipped: \(reason)")
            } else if invalid <= ImportReport.reportLimit {
                problem("\(place): \(reason)")
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
    static func unitClause(
        _ source: ImportUnitSource?, formatName: String, entriesByUnit: [WeightUnit: Int] = [:]
    ) -> String? {
        func other(_ unit: WeightUnit) -> String {
            unit == .kg ? "give --unit lb if they are pounds" : "give --unit kg if they are kilograms"
        }
        switch source {
        case .none: return nil
        case .rows:
            let units = WeightUnit.allCases.filter { entriesByUnit[$0, default: 0] > 0 }
            if units.count > 1 {
                let counts = units.map { "\($0.rawValue) (\(entriesByUnit[$0]!))" }
                return "weights in \(counts.joined(separator: " and ")), as each row says"
            }
            return units.first.map { "weights in \($0.rawValue), as each row says" }
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
        let placeholders = notWeighIns.filter {
            if case .placeholder = $0.skip { true } else { false }
        }.map(\.line)
        let loneFats = notWeighIns.filter { $0.skip == .bodyFatWithoutWeight }.map(\.line)
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
            lines.append("Skipped \(rows) repeating a weigh-in later the same day: \(Self.lineList(placeholders)).")
        }
        if !loneFats.isEmpty {
            let records = loneFats.count == 1 ? "1 body fat record" : "\(loneFats.count) body fat records"
            let list = Self.lineList(loneFats).replacingOccurrences(of: "line", with: "record")
            lines.append("Skipped \(records) with no weight at the same moment: \(list).")
        }
        lines += dayLines
        return lines
    }

    /// One line for each kind of day-of-steps row that was not read.
    var dayLines: [String] {
        let kinds: [(ImportSkip, String, String)] = [
            (.noSteps, "day", "without a step count"),
            (.oneDevice, "row", "of one device's steps (each day's all-devices total is read)"),
        ]
        var lines: [String] = []
        for (kind, noun, what) in kinds {
            let found = notWeighIns.filter { $0.skip == kind }.map(\.line)
            let counted = found.count == 1 ? "1 \(noun)" : "\(found.count) \(noun)s"
            if !found.isEmpty { lines.append("Skipped \(counted) \(what): \(Self.lineList(found)).") }
        }
        let repeated = notWeighIns.filter {
            if case .repeatedDay = $0.skip { true } else { false }
        }.map(\.line)
        if !repeated.isEmpty {
            lines.append(
                "Skipped \(repeated.count == 1 ? "1 day" : "\(repeated.count) days") given again later in the file "
                    + "(the later row is read): "
                    + "\(Self.lineList(repeated)).")
        }
        return lines
    }
}

extension Presenter {
    /// What an import did to the activity and intake logs, a line each when it read any of theirs.
    static func logLines(_ result: ImportResult, dryRun: Bool) -> [String] {
        func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
        func events(_ n: Int) -> String { n == 1 ? "1 event" : "\(n) events" }
        let verb = dryRun ? "to add" : "added"
        var lines: [String] = []
        if result.activityAdded + result.activityPresent > 0 {
            lines.append(
                "Activity log: \(days(result.activityAdded)) of steps \(verb), "
                    + "\(days(result.activityPresent)) already present.")
        }
        if result.intakeAdded + result.intakePresent > 0 {
            lines.append(
                "Intake log: \(events(result.intakeAdded)) \(verb), \(events(result.intakePresent)) already present.")
        }
        return lines
    }

    /// What `w8 import` prints: the format read and the unit assumed, the counts, the rows that are no weigh-ins,
    /// the milestones and the progress; or its JSON.
    public func importSummary(_ summary: ImportSummary, json: Bool) -> [String] {
        let report = summary.report
        let result = summary.result
        if json {
            return [
                JSON.object([
                    ("file", .string(report.file)),
                    ("format", .string(report.format?.rawValue)),
                    ("read_as", .string(report.formatName)),
                    ("detected", .bool(summary.detected)),
                    ("unit", .string(report.units?.unit?.rawValue)),
                    ("unit_assumed", .bool(report.units?.isAssumed ?? false)),
                    ("dry_run", .bool(summary.dryRun)),
                    ("added", .integer(Int64(result.added))),
                    ("already_present", .integer(Int64(result.present))),
                    ("skipped", .integer(Int64(report.skipped.count))),
                    ("skipped_lines", .array(report.skipped.map { .integer(Int64($0.line)) })),
                    (
                        "skipped_rows",
                        .array(
                            report.skipped.map {
                                .object([("line", .integer(Int64($0.line))), ("reason", .string($0.reason))])
                            })
                    ),
                    ("achievements_restored", .integer(Int64(result.achievementsRestored))),
                    ("intake_restored", .integer(Int64(result.intakeRestored))),
                    ("settings_restored", .integer(Int64(summary.settingsRestored))),
                    ("achieved", .array(result.change.achievements.map { .string($0.type.rawValue) })),
                    ("notified", JSON.string(summary.outcome.notified?.rawValue)),
                    ("activity_days_added", .integer(Int64(result.activityAdded))),
                    ("activity_days_present", .integer(Int64(result.activityPresent))),
                    ("intake_added", .integer(Int64(result.intakeAdded))),
                    ("intake_present", .integer(Int64(result.intakePresent))),
                ]).rendered()
            ]
        }
        var lines: [String] = []
        if let formatName = report.formatName {
            let how = summary.detected ? ", detected from its first lines" : ""
            let units =
                ImportReport.unitClause(report.units, formatName: formatName, entriesByUnit: report.entriesByUnit)
                .map { "; " + $0 } ?? ""
            lines.append("Read \(report.file) as \(formatName)\(how)\(units).")
        } else {
            lines.append("Read \(report.file): it holds no rows.")
        }
        var counts = "\(result.added) added, \(result.present) already present, \(report.skipped.count) skipped"
        if result.achievementsRestored > 0 { counts += ", \(result.achievementsRestored) achievements restored" }
        if result.intakeRestored > 0 { counts += ", \(result.intakeRestored) intake events restored" }
        if summary.settingsRestored > 0 { counts += ", \(summary.settingsRestored) settings restored" }
        if summary.dryRun {
            lines.append(
                "Dry run, nothing written: " + counts.replacingOccurrences(of: " added", with: " to add") + ".")
        } else {
            lines.append("Imported: \(counts).")
        }
        lines += report.notWeighInLines
        lines += report.notes
        lines += Self.logLines(result, dryRun: summary.dryRun)
        if !summary.dryRun {
            lines += milestoneLines(summary.outcome)
        } else if !result.change.achievements.isEmpty {
            lines.append(
                "Would record " + (MilestoneType.phrase(result.change.achievements.map(\.type)) ?? "nothing") + ".")
        }
        if let line = progressLine(result.change.snapshot) { lines.append(line) }
        return lines
    }
}

/// What the summary says of an Apple Health export beyond the counts.
enum AppleHealthNotes {
    /// `Found 3 weigh-ins, 3 days of steps, 2 drinks of water and 2 calorie entries.`
    static func found(_ report: ImportReport) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let weighIns = count(report.entriesByUnit.values.reduce(0, +), "weigh-in", "weigh-ins")
        let days = count(report.activityByDays.values.reduce(0, +), "day", "days")
        let water = count(report.intakeByKind[.water, default: 0], "drink", "drinks")
        let calories = count(report.intakeByKind[.calories, default: 0], "calorie entry", "calorie entries")
        return "Found \(weighIns), \(days) of steps, \(water) of water and \(calories)."
    }

    static func lines(_ stream: AppleHealthStream) -> [String] {
        var lines: [String] = []
        if !stream.daysLedBy.isEmpty {
            let leaders = stream.daysLedBy.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key) (\($0.value == 1 ? "1 day" : "\($0.value) days"))" }
            lines.append(
                "Steps: each stretch of time counted once, Apple Watch over iPhone over other apps; first source: "
                    + leaders.joined(separator: ", ") + ".")
        }
        if stream.duplicates > 0 {
            lines.append(
                "Dropped \(stream.duplicates) exact duplicate record\(stream.duplicates == 1 ? "" : "s").")
        }
        return lines
    }
}
