import Foundation
import W8Core
import W8Text

/// The file formats `w8 import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    case w8CSV = "w8-csv"
    case w8JSON = "w8-json"
    case openscale
    case libra
    case trendweight
    case generic
    /// The iPhone W8Trackr app's export: its CSV or its JSON.
    case w8trackrIOS = "w8trackr-ios"
    /// Withings Health Mate's "Download my data": `weight.csv` and `aggregates_steps.csv`.
    case withings
    /// Google Takeout's Fit `Daily activity metrics.csv`: a day a row.
    case googleFit = "google-fit"
    /// Samsung Health's export: `com.samsung.health.weight.*.csv`, `com.samsung.shealth.step_daily_trend.*.csv`.
    case samsungHealth = "samsung-health"
    /// Fitbit's export (Google Takeout): `weight-*.json` and `steps-*.json`.
    case fitbit
    /// Garmin Connect's data export: `*_userBioMetrics.json` and `UDSFile_*.json`.
    case garmin
    /// Gadgetbridge's exported SQLite database: band steps and Mi scale weights.
    case gadgetbridge
    /// Apple Health's "Export All Health Data": export.zip or its apple_health_export/export.xml.
    case appleHealth = "apple-health"

    /// What the format is, for the message that says which one was read.
    public var displayName: String {
        switch self {
        case .w8CSV: "W8Trackr CSV"
        case .w8JSON: "W8Trackr JSON backup"
        case .openscale: "openScale CSV"
        case .libra: "Libra export"
        case .trendweight: "TrendWeight export"
        case .generic: "date,weight CSV"
        case .w8trackrIOS: "W8Trackr iPhone app export"
        case .withings: "Withings export"
        case .googleFit: "Google Fit (Takeout) export"
        case .samsungHealth: "Samsung Health export"
        case .fitbit: "Fitbit export"
        case .garmin: "Garmin Connect export"
        case .gadgetbridge: GadgetbridgeImport.formatName
        case .appleHealth: "Apple Health export"
        }
    }

    /// Whether each row names its weight's unit, so that `--unit` has nothing to say.
    public var rowsNameUnits: Bool { [.w8CSV, .w8JSON, .w8trackrIOS, .gadgetbridge, .appleHealth].contains(self) }
}

/// What an import needs from outside: the units, the date form, the moment and the person's calendar.
public struct ImportOptions: Sendable {
    /// `--unit`: the unit of weights that carry none, over the format's own default.
    public var unit: WeightUnit?
    /// The preferred unit, for formats that do not say theirs.
    public var preferredUnit: WeightUnit
    /// `--date-format`, for dates such as `03/26/2024` that cannot be read without it.
    public var datePattern: DatePattern?
    public var now: Date
    public var calendar: Calendar

    public init(
        unit: WeightUnit? = nil, preferredUnit: WeightUnit, datePattern: DatePattern? = nil, now: Date,
        calendar: Calendar
    ) {
        self.unit = unit
        self.preferredUnit = preferredUnit
        self.datePattern = datePattern
        self.now = now
        self.calendar = calendar
    }
}

/// A data row of an import file: an entry validated as `w8 add` validates one, a row that is no weigh-in, or why
/// it is not one.
public enum ImportRow: Sendable, Equatable {
    case entry(line: Int, WeightEntry)
    case invalid(line: Int, reason: String)
    /// A well-formed row that is not a weigh-in of its own: counted as skipped, never written.
    case skipped(line: Int, ImportSkip)
    /// A day's steps and distance from one source (`ActivityDay.source` names the app), every stretch of time
    /// counted once: the reader de-duplicates overlapping samples before it hands the day on.
    case activity(ActivityDay)
    /// A drink, or calories eaten (`IntakeKind.calories`), from another app's log; `line` is the row or record.
    case intake(line: Int, IntakeEvent)
}

extension ImportRow {
    /// The row's line or record; 0 for a day of steps, which the reader made of many.
    public var line: Int {
        switch self {
        case .entry(let line, _), .invalid(let line, _), .skipped(let line, _), .intake(let line, _): line
        case .activity: 0
        }
    }
}

/// Why a well-formed row is not imported.
public enum ImportSkip: Sendable, Equatable, Hashable {
    /// A day of TrendWeight's computed view whose weight TrendWeight interpolated between two weigh-ins.
    case interpolated
    /// A Libra placeholder at local midnight repeating the weigh-in on `line`, later the same day.
    case placeholder(of: Int)
    /// A day of steps that a later row of the file gives again, on `line`: the later one is read.
    case repeatedDay(by: Int)
    /// A day's row without a step count (Google Fit leaves it empty on days it counted none).
    case noSteps
    /// One device's part of a Samsung Health day: the all-devices total (`source_type` -2) is the day's steps.
    case oneDevice
    /// An Apple Health body fat with no weigh-in at the same moment to belong to.
    case bodyFatWithoutWeight

    /// Why, in words, in the user's language: for when the skip is shown, not to be kept for every row skipped.
    public var reason: String {
        switch self {
        // TRANSLATORS: why a row of an import file was skipped, shown with its line number.
        case .interpolated: tr("an interpolated day: TrendWeight computed this weight between two weigh-ins")
        case .placeholder(let line):
            // TRANSLATORS: {line} is the line number of the real weigh-in that a Libra placeholder at midnight repeats.
            tr("a midnight placeholder: line {line} holds the same weigh-in later that day", ["line": line])
        case .repeatedDay(let line):
            tr("the same day again on line {line}, which is read instead", ["line": line])
        case .noSteps: tr("a day without a step count")
        case .oneDevice:
            // TRANSLATORS: {column} is Samsung Health's column "source_type", whose value -2 marks a day's total.
            tr("one device's steps: the all-devices total of the day ({column} -2) is read", ["column": "source_type"])
        case .bodyFatWithoutWeight: tr("a body fat with no weight at the same moment")
        }
    }
}

/// Where the unit of weights written without one comes from, so that the summary can say which was assumed.
public enum ImportUnitSource: Sendable, Equatable {
    /// Each row names its unit (the W8Trackr CSV and backup, the iPhone app's export).
    case rows
    /// `--unit`.
    case option(WeightUnit)
    /// The file says so: Libra's `#Units:`, a header such as `Weight (kg)`.
    case file(WeightUnit)
    /// The app never writes another unit (openScale 2.x: kg).
    case app(WeightUnit)
    /// The app's default when the file does not say (Libra without `#Units:`).
    case appDefault(WeightUnit)
    /// Nothing says: the preferred unit is assumed.
    case preferred(WeightUnit)

    /// The unit; nil when the rows carry theirs.
    public var unit: WeightUnit? {
        switch self {
        case .rows: nil
        case .option(let u), .file(let u), .app(let u), .appDefault(let u), .preferred(let u): u
        }
    }

    /// Whether the unit is a guess that `--unit` may have to correct.
    public var isAssumed: Bool {
        switch self {
        case .appDefault, .preferred: true
        case .rows, .option, .file, .app: false
        }
    }
}

extension ImportOptions {
    /// The same options with dates that name no zone read as UTC: the iPhone app writes its dates so.
    var readingUTC: ImportOptions {
        var options = self
        options.calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return options
    }
}
