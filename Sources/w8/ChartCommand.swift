import ArgumentParser
import Foundation
import W8App
import W8Chart
import W8Core

extension W8 {
    struct Chart: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw your weight, trend and goal: in the terminal, or as a PNG or SVG image.",
            discussion: """
                The terminal chart fits the terminal's width and uses colour only on a terminal (and never with \
                NO_COLOR set). --output writes an image instead, its format from the file's extension.
                Examples: w8 chart · w8 chart --days 30 · w8 chart --output weight.png
                """)

        @Option(name: .long, help: "How many days back to draw, 1 or more.")
        var days = 90

        @Option(name: .long, help: "Write a .png or .svg image to this file instead.")
        var output: String?

        @Option(name: .long, help: "Width: terminal columns (default: the terminal's), or image pixels (800).")
        var width: Int?

        @Option(name: .long, help: "Height: terminal lines (16), or image pixels (400).")
        var height: Int?

        func validate() throws {
            guard days >= 1 else { throw ValidationError("--days must be 1 or more, not \(days)") }
            if let width, width < 1 { throw ValidationError("--width must be 1 or more, not \(width)") }
            if let height, height < 1 { throw ValidationError("--height must be 1 or more, not \(height)") }
            if let output, ChartImageFormat(path: output) == nil {
                throw ValidationError("cannot write '\(output)': the chart is written as a .png or .svg file")
            }
        }

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let database = try runtime.database()
            let goal = try database.snapshot(unit: settings.unit).goal?.weight.value(in: settings.unit)
            let points = try runtime.trendPoints(unit: settings.unit, database: database, days: days)
            if let output, let format = ChartImageFormat(path: output) {
                let image = ChartImage(
                    points: points, goal: goal, unit: settings.unit, timeZone: runtime.calendar.timeZone,
                    width: width ?? 800, height: height ?? 400, title: "W8Trackr: the last \(days) days")
                do {
                    try image.write(to: output, format: format)
                } catch {
                    throw AppError.cannotWrite(String(describing: error))
                }
                return print("Wrote \(output).")
            }
            let chart = TerminalChart(
                points: points, goal: goal, unit: settings.unit, width: width ?? Terminal.columns(runtime.environment),
                height: height ?? 16, color: Terminal.wantsColor(runtime.environment), calendar: runtime.calendar)
            print(chart.render(), terminator: "")
        }
    }
}

/// What the terminal on stdout can show.
enum Terminal {
    /// The terminal's width, else `$COLUMNS`, else 80.
    static func columns(_ environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// Colour on a terminal, unless `NO_COLOR` is set (no-color.org) or the terminal is dumb.
    static func wantsColor(_ environment: [String: String]) -> Bool {
        isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }
}
