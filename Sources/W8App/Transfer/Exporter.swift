import Foundation
import W8Core
import W8Formats
import W8Store

/// What `w8 export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    case csv, json
}

/// Writes the entries as CSV, everything as the JSON backup, or the intake log as CSV, streamed from the store
/// so that memory stays flat however long the history is.
public struct Exporter {
    public let database: AppDatabase
    public let settings: Settings
    public let dates: DateFormatting
    public let calendar: Calendar
    public let now: Date
    /// `w8 --version`, recorded in the backup.
    public let w8Version: String
    let csv = CSVWriter()

    /// An exporter writing dates in `calendar`'s time zone.
    public init(database: AppDatabase, settings: Settings, calendar: Calendar, now: Date, w8Version: String) {
        self.database = database
        self.settings = settings
        dates = DateFormatting(timeZone: calendar.timeZone)
        self.calendar = calendar
        self.now = now
        self.w8Version = w8Version
    }

    /// `w8 export --help`.
    public static let help = """
        CSV: a header line, then one entry a line, oldest first: id,date,weight,unit,note,body_fat_percent \
        (dates ISO 8601 with offset, weights as entered with a decimal point, RFC 4180 quoting). \
        --with-trend adds trend_weight,trend_unit. JSON also holds the goal, the milestone achievements, the \
        intake log and the settings: 'w8 import --format w8-json' restores it. --intake writes the intake log as \
        CSV: id,date,kind,volume_ml,calories,note. --activity writes the activity log as CSV: \
        date,source,steps,distance_m, a row per day and source, oldest first (the day shows the manual row, else \
        one imported source; sources are never added).
        Examples: w8 export > weights.csv · w8 export --format json --output ~/w8-backup.json
        """

    /// Writes the entries in `format`, or the intake log as CSV when `format` is nil.
    public func export(_ format: ExportFormat?, withTrend: Bool, to out: TextOutput) throws {
        guard let format else { return try exportIntake(to: out) }
        try export(format, withTrend: withTrend, to: out)
    }

    /// The CSV's columns: `id,date,weight,unit,note,body_fat_percent`, and the trend's with `withTrend`.
    public static func csvColumns(withTrend: Bool) -> [String] {
        ["id", "date", "weight", "unit", "note", "body_fat_percent"]
            + (withTrend ? ["trend_weight", "trend_unit"] : [])
    }

    /// The intake CSV's columns.
    public static let intakeColumns = ["id", "date", "kind", "volume_ml", "calories", "note"]
    /// The activity CSV's columns.
    public static let activityColumns = ["date", "source", "steps", "distance_m"]

    /// Writes every entry, oldest first, as CSV or inside the JSON backup; `out` is committed at the end.
    public func export(_ format: ExportFormat, withTrend: Bool, to out: TextOutput) throws {
        switch format {
        case .csv: try out.write(csv.line(Self.csvColumns(withTrend: withTrend)))
        case .json: try out.write(try backupHead())
        }
        let unit = settings.unit
        var smoother = TrendSmoother()
        var day: DateComponents?
        var trendWeight = 0.0
        var first = true
        let encoder = JSONValueEncoder()
        try database.forEachEntry { entry in
            if withTrend {
                let entryDay = calendar.dateComponents([.era, .year, .month, .day], from: entry.date)
                if entryDay != day {
                    trendWeight = smoother.add(date: entry.date, weight: entry.weight.value(in: unit)).trend
                    day = entryDay
                }
            }
            let trend = withTrend ? trendWeight : nil
            switch format {
            case .csv:
                var fields = [
                    String(entry.id ?? 0), dates.timestamp(entry.date), entry.weight.value.roundTripText,
                    entry.weight.unit.rawValue, entry.note ?? "", entry.bodyFatPercent.map(\.roundTripText) ?? "",
                ]
                if let trend { fields += [trend.oneDecimalText, unit.rawValue] }
                try out.write(csv.line(fields))
            case .json:
                let line = try encoder.encode(BackupDocument.entry(entry, trend: trend, unit: unit, dates: dates))
                try out.write((first ? "\n    " : ",\n    ") + line.compact)
            }
            first = false
        }
        if format == .json { try out.write(first ? "]\n}\n" : "\n  ]\n}\n") }
        try out.commit()
    }

    /// Writes the intake log as CSV, oldest first.
    public func exportIntake(to out: TextOutput) throws {
        try out.write(csv.line(Self.intakeColumns))
        for event in try database.allIntake() {
            try out.write(
                csv.line([
                    String(event.id ?? 0), dates.timestamp(event.date), event.kind.rawValue,
                    event.volume.map(String.init) ?? "", String(event.calories), event.note ?? "",
                ]))
        }
        try out.commit()
    }

    /// Writes the activity log as CSV: every source's row of every day, oldest day first.
    public func exportActivity(to out: TextOutput) throws {
        try out.write(csv.line(Self.activityColumns))
        for day in try database.journeyBackup().activity {
            try out.write(
                csv.line([day.day.description, day.source.rawValue, String(day.steps), String(day.distance)]))
        }
        try out.commit()
    }

    /// The backup up to the opening of its entries, which are streamed after it.
    func backupHead() throws -> String {
        let journey = try database.journeyBackup()
        let document = BackupDocument(
            w8Version: w8Version, exportedAt: now, settings: settings, journey: journey, intake: journey.intake,
            dates: dates)
        let head = try JSONValueEncoder().encode(document).rendered()
        // Re-open the empty entries array: the entries follow one by one.
        return String(head.dropLast("[]\n}".count)) + "["
    }
}
