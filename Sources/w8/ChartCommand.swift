import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Text

extension W8 {
    struct Chart: ParsableCommand {
        static let configuration = CommandConfiguration(.chart)

        @Option(name: .long, help: "How many days back to draw, 1 or more.")
        var days = 90

        @Option(name: .long, help: "Write a .png or .svg image to this file instead.")
        var output: String?

        @Option(name: .long, help: "Width: terminal columns (default: the terminal's), or image pixels (800).")
        var width: Int?

        @Option(name: .long, help: "Height: terminal lines (16), or image pixels (400).")
        var height: Int?

        func validate() throws {
            // TRANSLATORS: errors of `w8 chart`; the option's name stays as it is, {value} is what was given.
            guard days >= 1 else { throw ValidationError(tr("--days must be 1 or more, not {value}", ["value": days])) }
            if let width, width < 1 {
                throw ValidationError(tr("--width must be 1 or more, not {value}", ["value": width]))
            }
            if let height, height < 1 {
                throw ValidationError(tr("--height must be 1 or more, not {value}", ["value": height]))
            }
            if let output, !Runtime.isChartImagePath(output) {
                throw ValidationError(
                    tr("cannot write '{path}': the chart is written as a .png or .svg file", ["path": output]))
            }
        }

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let terminal = (Terminal.columns(runtime.environment), Terminal.wantsColor(runtime.environment))
            let chart = try runtime.charts().chart(
                days: days, unit: settings.unit, now: runtime.now, output: output, width: width, height: height,
                terminal: terminal)
            print(chart, terminator: "")
        }
    }
}
