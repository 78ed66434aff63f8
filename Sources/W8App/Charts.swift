import Foundation
import W8Core
import W8Store
import W8Text

/// Draws charts, as image files and as text for a terminal: the interface the workflows draw through. The
/// composition root wires W8Chart into it.
public struct ChartDrawer: Sendable {
    /// Whether `path` names an image the drawer writes (`.png` or `.svg`).
    public var canWrite: @Sendable (_ path: String) -> Bool
    /// Writes `picture` to `path`, in the format its extension names, as the full chart or a sparkline (a small
    /// image with no text, the summary's); throws an `AppError`.
    public var write: @Sendable (_ picture: ChartPicture, _ sparkline: Bool, _ path: String) throws -> Void
    /// `picture` as text, its width and height counted in columns and lines, in ANSI colours when `color`; dates
    /// in `calendar`.
    public var text: @Sendable (_ picture: ChartPicture, _ color: Bool, _ calendar: Calendar) -> String

    public init(
        canWrite: @escaping @Sendable (_ path: String) -> Bool,
        write: @escaping @Sendable (_ picture: ChartPicture, _ sparkline: Bool, _ path: String) throws -> Void,
        text: @escaping @Sendable (_ picture: ChartPicture, _ color: Bool, _ calendar: Calendar) -> String
    ) {
        self.canWrite = canWrite
        self.write = write
        self.text = text
    }
}

/// The weight charts: `w8 chart`, and the summary's sparkline.
public struct WeightCharts: Sendable {
    // What it draws from and with: nothing outside reads them.
    let database: AppDatabase
    let calendar: Calendar
    let drawer: ChartDrawer

    public init(database: AppDatabase, calendar: Calendar, drawer: ChartDrawer) {
        self.database = database
        self.calendar = calendar
        self.drawer = drawer
    }

    /// `w8 chart`: the last `days` days before `now` of weights, trend and goal in `unit`, as an image at `output`
    /// (nil: the terminal chart, returned). Sizes default to `terminal`'s width and 16 lines, or 800×400 pixels.
    public func chart(
        days: Int, unit: WeightUnit, now: Date, output: String?, width: Int?, height: Int?,
        terminal: (columns: Int, color: Bool)
    ) throws -> String {
        let goal = try database.snapshot(unit: unit).goal?.weight.value(in: unit)
        let points = try trendPoints(days: days, unit: unit, now: now)
        let weighIns = try weighIns(unit: unit, since: points.first?.date, to: now)
        if let output, drawer.canWrite(output) {
            // TRANSLATORS: the title drawn at the top of the chart image.
            let title = trn("W8Trackr: the last {count} day", "W8Trackr: the last {count} days", days, ["count": days])
            try drawer.write(
                ChartPicture(
                    points: points, weighIns: weighIns, goal: goal, unit: unit, timeZone: calendar.timeZone,
                    width: width ?? 800, height: height ?? 400, title: title),
                false, output)
            // TRANSLATORS: after `w8 chart --output`; {path} is the image file written.
            return tr("Wrote {path}.", ["path": output]) + "\n"
        }
        return drawer.text(
            ChartPicture(
                points: points, weighIns: weighIns, goal: goal, unit: unit, timeZone: calendar.timeZone,
                width: width ?? terminal.columns, height: height ?? 16),
            terminal.color, calendar)
    }

    /// The trend's days of the last `days` days before `now`; the trend itself is computed over the whole last year.
    public func trendPoints(days: Int, unit: WeightUnit, now: Date) throws -> [TrendPoint] {
        let trend = try database.trend(unit: unit, goal: nil, now: now, calendar: calendar)
        let start = now.addingTimeInterval(-Double(days) * 86400)
        return trend.points.filter { $0.date >= start }
    }

    /// Every weigh-in from `start` (the chart's first day) to `end`, in `unit`: the chart's dots.
    func weighIns(unit: WeightUnit, since start: Date?, to end: Date) throws -> [ChartWeighIn] {
        guard let start else { return [] }
        return ChartWeighIn.of(try database.week(from: start, to: end).entries, unit: unit)
    }

    /// The summary's image, a 128 px sparkline of the last 30 days, written to `summary-chart.png` in
    /// `cacheDirectory` (made 0700) for the notification server to read (servers draw it at 48–128 px, so it has
    /// no text); nil without weigh-ins or when it cannot be written (the summary goes out without it). The full
    /// chart is `w8 chart --output`.
    public func summaryImage(_ summary: WeeklySummary, cacheDirectory: String) -> String? {
        let start = summary.weekEnd.addingTimeInterval(-30 * 86400)
        guard let points = summary.trendAnalysis?.points.filter({ $0.date >= start }), !points.isEmpty,
            let weighIns = try? weighIns(unit: summary.unit, since: points.first?.date, to: summary.weekEnd)
        else {
            return nil
        }
        let path = cacheDirectory + "/summary-chart.png"
        do {
            try FileManager.default.createDirectory(
                atPath: cacheDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try drawer.write(
                ChartPicture(
                    points: points, weighIns: weighIns, goal: summary.progress?.goal, unit: summary.unit,
                    timeZone: calendar.timeZone, width: 128, height: 128),
                true, path)
            return path
        } catch {
            return nil
        }
    }
}
