import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension WidgetFormat: ExpressibleByArgument {}

extension W8 {
    struct Widget: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "widget",
            abstract: "Your weight, 7-day trend, goal progress and today's water for a status bar.",
            discussion: """
                Formats: text (one line, '175.0 lb ↓ 25%'), json (the widget entry, with water_ml and water_goal_ml), waybar (a custom module's \
                JSON line: text, tooltip with today's water against intake.water_goal_ml, class = the trend, \
                percentage = progress capped 0 to 100), i3blocks \
                (full and short text lines), polybar (one line). Set 'w8 config widget.signal N' and "signal": N \
                in the waybar module to refresh it on every change. Example: w8 widget --format waybar
                """)

        @Option(name: .long, help: "text, json, waybar, i3blocks or polybar.")
        var format: WidgetFormat = .text

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            print(runtime.presenter(settings).widget(try runtime.widgetEntry(settings), format: format))
        }
    }
}
