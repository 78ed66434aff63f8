import Foundation
import W8Core
import W8Formats
import W8Store
import W8Text

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
            tr(
                // TRANSLATORS: an error; {file} is the file given to w8 import, {root} the XML element "HealthData".
                "{file} is not an Apple Health export: neither a ZIP archive nor XML whose root is {root}",
                ["file": input.name, "root": "HealthData"]))
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
        if health == .zip, !input.isSeekable {
            throw AppError.badInput(
                tr(
                    // TRANSLATORS: {file} is the file given to w8 import; {member} the file inside the ZIP, as
                    // apple_health_export/export.xml.
                    "{file} is a ZIP archive, which w8 reads only from a file: give its path, or unzip it and import {member}",
                    ["file": input.name, "member": "apple_health_export/export.xml"]))
        }
        // The export by what it holds, whatever the iPhone's language named it (ZipMember.healthExport).
        let member = health == .zip ? try ZipMember.healthExport(input) : nil
        var backup: Backup?
        let (result, outcome) = try tracker.importEntries(dryRun: dryRun) { importer in
            var chunk = try member?.read() ?? first
            /// Hands every chunk, from the first on, to `feed`, and takes the rows it completes.
            func readAll(label: RowLabel? = nil, _ feed: ([UInt8]) throws -> [ImportRow]) throws {
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
                try readAll(label: .record) { try stream.feed($0) }
                for row in try stream.finish() { try report.take(row, into: &importer, label: .record) }
                report.format = .appleHealth
                report.formatName =
                    member.map {
                        // TRANSLATORS: the format an import was read as; {format} is "Apple Health export", {member}
                        // the path of the XML inside the ZIP archive.
                        tr("{format} ({member} in the ZIP)", ["format": stream.formatName, "member": $0.name])
                    } ?? stream.formatName
                report.units = .rows
                report.notes = [AppleHealthNotes.found(report)] + AppleHealthNotes.lines(stream)
                try report.finish()
                return
            }
            switch json {
            case _ where vendor:
                // The file's name, which tells Fitbit's steps file from its others; not the translated "standard input".
                let fileName = input.isStandardInput ? "-" : input.name
                var stream = VendorExportStream(fileName: fileName, expected: format.format, options: options)
                try readAll(label: .record) { try stream.feed($0) }
                for row in try stream.finish() { try report.take(row, into: &importer) }
                if let kind = stream.kind {
                    (report.format, report.formatName, report.units) = (kind.format, kind.name, stream.unitSource)
                }
            case .w8JSON?:
                (report.format, report.formatName, report.units) = (.w8JSON, ImportFormat.w8JSON.displayName, .rows)
                var stream = BackupStream(options: options)
                try readAll(label: .entry) { try stream.feed($0) }
                let restoring = try stream.finish()
                try importer.restore(restoring.journey)
                backup = restoring
            case .w8trackrIOS?:
                var stream = IPhoneExportStream(options: options)
                try readAll(label: .entry) { try stream.feed($0) }
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
            throw AppError.badInput(tr("a Gadgetbridge database is read from its file, not from standard input"))
        }
        guard sqlite else {
            throw AppError.badInput(
                // TRANSLATORS: an error; {file} is the file given to w8 import.
                tr("{file} is not an SQLite database; Gadgetbridge exports one", ["file": input.name]))
        }
        if let unit = options.unit {
            throw AppError.badInput(
                // TRANSLATORS: an error; {unit} is "kg" or "lb", as given to the option --unit.
                tr("--unit {unit} does not apply to a Gadgetbridge database: it keeps kg", ["unit": unit.rawValue]))
        }
        let database = try GadgetbridgeDatabase(path: input.name)
        var report = report
        (report.format, report.formatName, report.units) = (.gadgetbridge, GadgetbridgeImport.formatName, .app(.kg))
        let (result, outcome) = try tracker.importEntries(dryRun: dryRun) { importer in
            var reader = GadgetbridgeImport(options: options)
            try database.forEachScaleReading { place, reading in
                try report.take(
                    reader.row(reading, row: place), into: &importer, label: .tableRow("MI_SCALE_WEIGHT_SAMPLE"))
            }
            try database.forEachStepSample { table, place, sample in
                let runningTotal = GadgetbridgeDatabase.runningTotalTables.contains(table)
                if let bad = reader.add(sample, row: place, runningTotal: runningTotal) {
                    try report.take(bad, into: &importer, label: .tableRow(table))
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
    /// Every row skipped, bad (with --skip-invalid) or no weigh-in, with why, in the order read.
    public var skipped: [(line: Int, why: SkippedRow)] = []
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

    mutating func take(_ row: ImportRow, into importer: inout EntryImporter, label: RowLabel? = nil) throws {
        switch row {
        case .entry(_, let entry):
            entriesByUnit[entry.weight.unit, default: 0] += 1
            // After a bad row nothing will be written: the rest are only checked.
            if invalid == 0 || skipInvalid { try importer.add(entry) }
        case .skipped(let line, let skip):
            notWeighIns.append((line, skip))
            skipped.append((line, .notWeighIn(skip)))
        case .activity(let day):
            activityByDays[day.source, default: 0] += 1
            if invalid == 0 || skipInvalid { try importer.add(activity: day) }
        case .intake(_, let event):
            intakeByKind[event.kind, default: 0] += 1
            if invalid == 0 || skipInvalid { try importer.add(intake: event) }
        case .invalid(let line, let reason):
            invalid += 1
            let place = label.map { $0.place(file: file, line: line) } ?? "\(file):\(line)"
            if skipInvalid {
                skipped.append((line, .invalid(reason)))
                // TRANSLATORS: a terminal line; {place} is "FILE:LINE" or "FILE: record N", {reason} says what is
                // wrong with that row.
                problem(tr("{place}: skipped: {reason}", ["place": place, "reason": reason]))
            } else if invalid <= ImportReport.reportLimit {
                problem("\(place): \(reason)")
            }
        }
    }

    /// Refuses the whole import when a row was bad and bad rows are not to be skipped.
    func finish() throws {
        guard invalid > 0, !skipInvalid else { return }
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "count": invalid, "file": file, "limit": ImportReport.reportLimit,
        ]
        guard invalid > ImportReport.reportLimit else {
            throw AppError.badInput(
                trn(
                    // TRANSLATORS: an error; {file} is the file read. --skip-invalid is an option: keep it.
                    "nothing imported: {count} bad row in {file}; fix it or give --skip-invalid",
                    "nothing imported: {count} bad rows in {file}; fix them or give --skip-invalid", invalid, values))
        }
        throw AppError.badInput(
            trn(
                // TRANSLATORS: an error; only the first {limit} bad rows were listed above it.
                "nothing imported: {count} bad row in {file} (the first {limit} are listed); fix it or give --skip-invalid",
                "nothing imported: {count} bad rows in {file} (the first {limit} are listed); fix them or give --skip-invalid",
                invalid, values))
    }

    /// What the summary says of the unit of weights written without one; nil when the rows carry theirs.
    // Each clause ends "Read FILE as FORMAT; …": its translators' comment says so. kg, lb and --unit stay.
    static func unitClause(
        _ source: ImportUnitSource?, formatName: String, entriesByUnit: [WeightUnit: Int] = [:]
    ) -> String? {
        switch source {
        case .none: return nil
        case .rows:
            let units = WeightUnit.allCases.filter { entriesByUnit[$0, default: 0] > 0 }
            if units.count > 1 {
                let counts = units.map { (unit: $0.rawValue, count: entriesByUnit[$0]!) }
                return tr(
                    // TRANSLATORS: the end of "Read FILE as FORMAT; …"; {first} and {second} are "kg" and "lb", each
                    // with how many weights were in it.
                    "weights in {first} ({firstCount}) and {second} ({secondCount}), as each row says",
                    [
                        "first": counts[0].unit, "firstCount": counts[0].count,
                        "second": counts[counts.count - 1].unit, "secondCount": counts[counts.count - 1].count,
                    ])
            }
            return units.first.map {
                // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
                tr("weights in {unit}, as each row says", ["unit": $0.rawValue])
            }
        case .option(let unit):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights read as {unit}, as --unit says", ["unit": unit.rawValue])
        case .file(let unit):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights in {unit}, as the file says", ["unit": unit.rawValue])
        case .app(let unit):
            let app = formatName.hasSuffix(" CSV") ? String(formatName.dropLast(4)) : formatName
            // TRANSLATORS: the end of "Read FILE as FORMAT; …"; {app} is the app that wrote the file.
            return tr("weights in {unit}, the only unit {app} writes", ["unit": unit.rawValue, "app": app])
        case .appDefault(.kg):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights read as kg, as the file names no unit — give --unit lb if they are pounds")
        case .appDefault(.lb):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights read as lb, as the file names no unit — give --unit kg if they are kilograms")
        case .preferred(.kg):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights read as kg, your preferred unit — give --unit lb if they are pounds")
        case .preferred(.lb):
            // TRANSLATORS: the end of "Read FILE as FORMAT; …": the unit of the weights. Keep kg, lb and --unit.
            return tr("weights read as lb, your preferred unit — give --unit kg if they are kilograms")
        }
    }

    /// `lines 3, 4 and 6` (or `records …`), the first 20 of them.
    static func lineList(_ lines: [Int], records: Bool = false) -> String {
        let shown = lines.prefix(20).map(String.init)
        guard shown.count > 1 else {
            let number: KeyValuePairs<String, any CustomStringConvertible> = ["number": shown.first ?? ""]
            // TRANSLATORS: where a skipped record of an Apple Health export is: "record 6".
            if records { return tr("record {number}", number) }
            // TRANSLATORS: where a skipped row of an import file is: "line 4".
            return tr("line {number}", number)
        }
        // TRANSLATORS: between the numbers of a list but the last two: "3, 4 and 6".
        let separator = tr(", ")
        if lines.count <= 20 {
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "list": shown.dropLast().joined(separator: separator), "last": shown.last!,
            ]
            // TRANSLATORS: where skipped records are: {list} is "6" or "6, 9", {last} "12".
            if records { return tr("records {list} and {last}", values) }
            // TRANSLATORS: where skipped rows of an import file are: {list} is "3" or "3, 4", {last} "6".
            return tr("lines {list} and {last}", values)
        }
        let more = lines.count - 20
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "list": shown.joined(separator: separator), "count": more,
        ]
        // TRANSLATORS: where skipped records are: {list} is the first 20 numbers, {count} how many more there are.
        if records { return trn("records {list} and {count} more", "records {list} and {count} more", more, values) }
        // TRANSLATORS: where skipped rows are: {list} is the first 20 line numbers, {count} how many more there are.
        return trn("lines {list} and {count} more", "lines {list} and {count} more", more, values)
    }

    /// One line for each kind of row that is no weigh-in: how many, and where they are.
    var notWeighInLines: [String] {
        func lines(_ skipped: (ImportSkip) -> Bool) -> [Int] { notWeighIns.filter { skipped($0.skip) }.map(\.line) }
        let kinds: [(lines: [Int], text: ([Int]) -> String)] = [
            (
                lines { $0 == .interpolated },
                {
                    trn(
                        // TRANSLATORS: {app} is the app TrendWeight, which computed the weights of days without a
                        // weigh-in; {lines} is where they are in the file: "line 4", "lines 3, 5 and 6".
                        "Skipped {count} interpolated day ({app} computed their weights between weigh-ins): {lines}.",
                        "Skipped {count} interpolated days ({app} computed their weights between weigh-ins): {lines}.",
                        $0.count, ["count": $0.count, "app": "TrendWeight", "lines": Self.lineList($0)])
                }
            ),
            (
                lines { if case .placeholder = $0 { true } else { false } },
                {
                    trn(
                        // TRANSLATORS: rows the app Libra writes at midnight, repeating a weigh-in of later that day;
                        // {lines} is where they are in the file: "line 4", "lines 3, 5 and 6".
                        "Skipped {count} midnight placeholder repeating a weigh-in later the same day: {lines}.",
                        "Skipped {count} midnight placeholders repeating a weigh-in later the same day: {lines}.",
                        $0.count, ["count": $0.count, "lines": Self.lineList($0)])
                }
            ),
            (
                lines { $0 == .bodyFatWithoutWeight },
                {
                    trn(
                        // TRANSLATORS: {records} is where they are in Apple Health's export: "record 6", "records 6
                        // and 9".
                        "Skipped {count} body fat record with no weight at the same moment: {records}.",
                        "Skipped {count} body fat records with no weight at the same moment: {records}.", $0.count,
                        ["count": $0.count, "records": Self.lineList($0, records: true)])
                }
            ),
            (
                lines { $0 == .noSteps },
                {
                    trn(
                        // TRANSLATORS: {lines} is where they are in the file: "line 4", "lines 3, 5 and 6".
                        "Skipped {count} day without a step count: {lines}.",
                        "Skipped {count} days without a step count: {lines}.", $0.count,
                        ["count": $0.count, "lines": Self.lineList($0)])
                }
            ),
            (
                lines { $0 == .oneDevice },
                {
                    trn(
                        // TRANSLATORS: Samsung Health writes a row per device and day, and one with the day's total;
                        // {lines} is where the skipped rows are in the file: "line 4", "lines 3, 5 and 6".
                        "Skipped {count} row of one device's steps (each day's all-devices total is read): {lines}.",
                        "Skipped {count} rows of one device's steps (each day's all-devices total is read): {lines}.",
                        $0.count, ["count": $0.count, "lines": Self.lineList($0)])
                }
            ),
            (
                lines { if case .repeatedDay = $0 { true } else { false } },
                {
                    trn(
                        // TRANSLATORS: {lines} is where they are in the file: "line 4", "lines 3, 5 and 6".
                        "Skipped {count} day given again later in the file (the later row is read): {lines}.",
                        "Skipped {count} days given again later in the file (the later row is read): {lines}.",
                        $0.count, ["count": $0.count, "lines": Self.lineList($0)])
                }
            ),
        ]
        return kinds.filter { !$0.lines.isEmpty }.map { $0.text($0.lines) }
    }
}

/// Where a bad row is, in the words of its format: `FILE: record 3`, `FILE: MI_SCALE_WEIGHT_SAMPLE row 7`.
enum RowLabel {
    /// A record of a JSON or XML export.
    case record
    /// An entry of a backup or of the iPhone app's JSON.
    case entry
    /// A row of a database table, named as the table is.
    case tableRow(String)

    func place(file: String, line: Int) -> String {
        switch self {
        // TRANSLATORS: where a bad row is, before what is wrong with it: {file} is the file read, {number} the
        // record's position in it.
        case .record: tr("{file}: record {number}", ["file": file, "number": line])
        // TRANSLATORS: where a bad entry of a backup is: {file} is the file read, {number} the entry's position.
        case .entry: tr("{file}: entry {number}", ["file": file, "number": line])
        // TRANSLATORS: where a bad row is: {file} is the database read, {table} a table's name, {number} the row's.
        case .tableRow(let table): tr("{file}: {table} row {number}", ["file": file, "table": table, "number": line])
        }
    }
}

/// Why a row of an import was skipped, kept as it was found and put in words only when the summary is shown.
public enum SkippedRow {
    /// A bad row, skipped with --skip-invalid: what is wrong with it.
    case invalid(String)
    /// A row that is no weigh-in.
    case notWeighIn(ImportSkip)

    /// Why, in words.
    public var reason: String {
        switch self {
        case .invalid(let reason): reason
        case .notWeighIn(let skip): skip.reason
        }
    }
}

extension Presenter {
    /// What an import did to the activity and intake logs, a line each when it read any of theirs.
    static func logLines(_ result: ImportResult, dryRun: Bool) -> [String] {
        var lines: [String] = []
        if result.activityAdded + result.activityPresent > 0 {
            let (added, present) = (result.activityAdded, result.activityPresent)
            // TRANSLATORS: the days of steps already in the activity log, at the end of "Activity log: …".
            let presentDays = trn("{count} day", "{count} days", present, ["count": present])
            let values: KeyValuePairs<String, any CustomStringConvertible> = ["count": added, "present": presentDays]
            lines.append(
                dryRun
                    ? trn(
                        // TRANSLATORS: a line of w8 import's summary; {present} is "1 day" or "3 days".
                        "Activity log: {count} day of steps to add, {present} already present.",
                        "Activity log: {count} days of steps to add, {present} already present.", added, values)
                    : trn(
                        "Activity log: {count} day of steps added, {present} already present.",
                        "Activity log: {count} days of steps added, {present} already present.", added, values))
        }
        if result.intakeAdded + result.intakePresent > 0 {
            let (added, present) = (result.intakeAdded, result.intakePresent)
            // TRANSLATORS: the drinks, meals and calories already in the intake log, at the end of "Intake log: …".
            let presentEvents = trn("{count} event", "{count} events", present, ["count": present])
            let values: KeyValuePairs<String, any CustomStringConvertible> = ["count": added, "present": presentEvents]
            lines.append(
                dryRun
                    ? trn(
                        // TRANSLATORS: a line of w8 import's summary; {present} is "1 event" or "3 events".
                        "Intake log: {count} event to add, {present} already present.",
                        "Intake log: {count} events to add, {present} already present.", added, values)
                    : trn(
                        "Intake log: {count} event added, {present} already present.",
                        "Intake log: {count} events added, {present} already present.", added, values))
        }
        return lines
    }

    /// The counts of `w8 import`'s summary: `3 added, 0 already present, 1 skipped, 2 settings restored`.
    static func importCounts(_ summary: ImportSummary) -> String {
        let result = summary.result
        let (added, present, skipped) = (result.added, result.present, summary.report.skipped.count)
        // The counts are joined by ", ": "3 added, 0 already present, 1 skipped, 2 settings restored".
        var counts = [
            summary.dryRun
                // TRANSLATORS: a count of a dry run's summary: "3 to add, 0 already present, 1 skipped".
                ? trn("{count} to add", "{count} to add", added, ["count": added])
                // TRANSLATORS: a count of w8 import's summary: "3 added, 0 already present, 1 skipped".
                : trn("{count} added", "{count} added", added, ["count": added]),
            // TRANSLATORS: entries of the file that w8 already had, in "3 added, 0 already present, 1 skipped".
            trn("{count} already present", "{count} already present", present, ["count": present]),
            // TRANSLATORS: rows of the file not imported, in "3 added, 0 already present, 1 skipped".
            trn("{count} skipped", "{count} skipped", skipped, ["count": skipped]),
        ]
        let achievements = result.achievementsRestored
        let intake = result.intakeRestored
        let settings = summary.settingsRestored
        let restored = [
            (
                achievements,
                trn(
                    // TRANSLATORS: milestone achievements of a backup, in "3 added, …, 2 achievements restored".
                    "{count} achievement restored", "{count} achievements restored", achievements,
                    ["count": achievements])
            ),
            // TRANSLATORS: drinks and meals of a backup, in "3 added, …, 2 intake events restored".
            (intake, trn("{count} intake event restored", "{count} intake events restored", intake, ["count": intake])),
            // TRANSLATORS: config.toml settings of a backup, in "3 added, …, 2 settings restored".
            (settings, trn("{count} setting restored", "{count} settings restored", settings, ["count": settings])),
        ]
        counts += restored.filter { $0.0 > 0 }.map(\.1)
        // TRANSLATORS: between the counts of w8 import's summary: "3 added, 0 already present, 1 skipped".
        return counts.joined(separator: tr(", "))
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
                                .object([("line", .integer(Int64($0.line))), ("reason", .string($0.why.reason))])
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
            let units = ImportReport.unitClause(
                report.units, formatName: formatName, entriesByUnit: report.entriesByUnit)
            // {file} is the file read, {format} the format's name ("openScale 2.x CSV"), {units} the unit clause.
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "file": report.file, "format": formatName, "units": units ?? "",
            ]
            switch (summary.detected, units != nil) {
            // TRANSLATORS: the first line of w8 import's summary; {file} is the file read, {format} a format's name.
            case (false, false): lines.append(tr("Read {file} as {format}.", values))
            // TRANSLATORS: the first line of w8 import's summary, for a format it recognized by itself.
            case (true, false): lines.append(tr("Read {file} as {format}, detected from its first lines.", values))
            // TRANSLATORS: the first line of w8 import's summary; {units} says which unit the weights were read in:
            // "weights in kg, as the file says".
            case (false, true): lines.append(tr("Read {file} as {format}; {units}.", values))
            case (true, true):
                // TRANSLATORS: the first line of w8 import's summary; {units} is "weights in kg, as the file says".
                lines.append(tr("Read {file} as {format}, detected from its first lines; {units}.", values))
            }
        } else {
            // TRANSLATORS: w8 import's summary of a file without rows; {file} is the file read.
            lines.append(tr("Read {file}: it holds no rows.", ["file": report.file]))
        }
        let counts = Self.importCounts(summary)
        if summary.dryRun {
            // TRANSLATORS: {counts} is "3 to add, 0 already present, 1 skipped".
            lines.append(tr("Dry run, nothing written: {counts}.", ["counts": counts]))
        } else {
            // TRANSLATORS: {counts} is "3 added, 0 already present, 1 skipped".
            lines.append(tr("Imported: {counts}.", ["counts": counts]))
        }
        lines += report.notWeighInLines
        lines += report.notes
        lines += Self.logLines(result, dryRun: summary.dryRun)
        if !summary.dryRun {
            lines += milestoneLines(summary.outcome)
        } else if let milestones = MilestoneType.phrase(result.change.achievements.map(\.type)) {
            // TRANSLATORS: a dry run's line; {milestones} is "the 25% milestone" or "the 50% and 75% milestones".
            lines.append(tr("Would record {milestones}.", ["milestones": milestones]))
        }
        if let line = progressLine(result.change.snapshot) { lines.append(line) }
        return lines
    }
}

/// What the summary says of an Apple Health export beyond the counts.
enum AppleHealthNotes {
    /// `Found 3 weigh-ins, 3 days of steps, 2 drinks of water and 2 calorie entries.`
    static func found(_ report: ImportReport) -> String {
        let weighIns = report.entriesByUnit.values.reduce(0, +)
        let days = report.activityByDays.values.reduce(0, +)
        let water = report.intakeByKind[.water, default: 0]
        let calories = report.intakeByKind[.calories, default: 0]
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            // TRANSLATORS: what an Apple Health export held, in "Found {weighIns}, {days}, {water} and {calories}."
            "weighIns": trn("{count} weigh-in", "{count} weigh-ins", weighIns, ["count": weighIns]),
            // TRANSLATORS: {days} of "Found {weighIns}, {days}, {water} and {calories}."
            "days": trn("{count} day of steps", "{count} days of steps", days, ["count": days]),
            // TRANSLATORS: {water} of "Found {weighIns}, {days}, {water} and {calories}."
            "water": trn("{count} drink of water", "{count} drinks of water", water, ["count": water]),
            // TRANSLATORS: {calories} of "Found {weighIns}, {days}, {water} and {calories}."
            "calories": trn("{count} calorie entry", "{count} calorie entries", calories, ["count": calories]),
        ]
        // TRANSLATORS: a line of w8 import's summary: "Found 3 weigh-ins, 3 days of steps, 2 drinks of water and
        // 2 calorie entries."
        return tr("Found {weighIns}, {days}, {water} and {calories}.", values)
    }

    static func lines(_ stream: AppleHealthStream) -> [String] {
        var lines: [String] = []
        if !stream.daysLedBy.isEmpty {
            let leaders = stream.daysLedBy.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map {
                    trn(
                        // TRANSLATORS: {source} is a device or app named in the export ("Anna's iPhone"), with how
                        // many days of steps were taken from it.
                        "{source} ({count} day)", "{source} ({count} days)", $0.value,
                        ["source": $0.key, "count": $0.value])
                }
            lines.append(
                tr(
                    // TRANSLATORS: a line of w8 import's summary; {sources} is "Anna's iPhone (2 days), Watch (1 day)".
                    "Steps: each stretch of time counted once, Apple Watch over iPhone over other apps; first source: {sources}.",
                    ["sources": leaders.joined(separator: tr(", "))]))
        }
        if stream.duplicates > 0 {
            lines.append(
                trn(
                    "Dropped {count} exact duplicate record.", "Dropped {count} exact duplicate records.",
                    stream.duplicates, ["count": stream.duplicates]))
        }
        return lines
    }
}

/// A file given to `w8 import` is read at any offset for a ZIP's directory and members.
extension InputFile: ZipSource {}
