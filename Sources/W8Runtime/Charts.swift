import Foundation
import W8App
import W8Chart
import W8Core
import W8Store

extension Runtime {
    /// Whether `path` names a chart image w8 can write (`.png` or `.svg`).
    public static func isChartImagePath(_ path: String) -> Bool { ChartImageFormat(path: path) != nil }

    /// `w8 chart`: the last `days` days of weights, trend and goal, as an image at `output` (nil: the terminal
    /// chart, returned). Sizes default to the terminal's width and 16 lines, or 800×400 pixels.
    public func chart(days: Int, output: String?, width: Int?, height: Int?) throws -> String {
        let settings = try settings()
        let database = try database()
        let goal = try database.snapshot(unit: settings.unit).goal?.weight.value(in: settings.unit)
        let points = try trendPoints(unit: settings.unit, database: database, days: days)
        let weighIns = try Runtime.weighIns(unit: settings.unit, database: database, since: points.first?.date, to: now)
        if let output, let format = ChartImageFormat(path: output) {
            let image = ChartImage(
                points: points, weighIns: weighIns, goal: goal, unit: settings.unit, timeZone: calendar.timeZone,
                width: width ?? 800, height: height ?? 400, title: "W8Trackr: the last \(days) days")
            do {
                try image.write(to: output, format: format)
            } catch let error as ChartImageError where error.writeFailed {
                throw AppError.writeFailed(error.description)
            } catch {
                throw AppError.cannotWrite(String(describing: error))
            }
            return "Wrote \(output).\n"
        }
        return TerminalChart(
            points: points, weighIns: weighIns, goal: goal, unit: settings.unit,
            width: width ?? Terminal.columns(environment),
            height: height ?? 16, color: Terminal.wantsColor(environment), calendar: calendar
        ).render()
    }

    /// Every weigh-in from `start` (the chart's first day) to `end`, in `unit`: the chart's dots.
    static func weighIns(unit: WeightUnit, database: AppDatabase, since start: Date?, to end: Date) throws
        -> [ChartWeighIn]
    {
        guard let start else { return [] }
        return ChartWeighIn.of(try database.week(from: start, to: end).entries, unit: unit)
    }
}
