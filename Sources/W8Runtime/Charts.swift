import Foundation
import W8App
import W8Chart
import W8Core
import W8Text

extension Runtime {
    /// Whether `path` names a chart image w8 can write (`.png` or `.svg`).
    public static func isChartImagePath(_ path: String) -> Bool { ChartImageFormat(path: path) != nil }

    /// W8Chart wired into the workflows' `ChartDrawer`: `ChartImage`, drawn with cairo, in the format the path's
    /// extension names, and `TerminalChart`.
    static func cairoChartDrawer() -> ChartDrawer {
        ChartDrawer(
            canWrite: isChartImagePath,
            write: { picture, sparkline, path in
                guard let format = ChartImageFormat(path: path) else {
                    // TRANSLATORS: an error, after "w8: "; {path} is the file asked for. Keep .png and .svg.
                    throw AppError.cannotWrite(tr("{path}: a chart is written as a .png or .svg file", ["path": path]))
                }
                let image = ChartImage(picture, style: sparkline ? .sparkline : .full)
                do {
                    try image.write(to: path, format: format)
                } catch let error as ChartImageError where error.writeFailed {
                    throw AppError.writeFailed(error.description)
                } catch {
                    throw AppError.cannotWrite(String(describing: error))
                }
            },
            text: { picture, color, calendar in
                TerminalChart(
                    points: picture.points, weighIns: picture.weighIns, goal: picture.goal, unit: picture.unit,
                    width: picture.width, height: picture.height, color: color, calendar: calendar
                ).render()
            })
    }
}
