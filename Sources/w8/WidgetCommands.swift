import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension WidgetFormat: ExpressibleByArgument {}

extension W8 {
    struct Widget: ParsableCommand {
        static let configuration = CommandConfiguration(.widget)

        @Option(name: .long, help: "text, json, waybar, i3blocks or polybar.")
        var format: WidgetFormat = .text

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            print(runtime.presenter(settings).widget(try runtime.widgetEntry(settings), format: format))
        }
    }
}
