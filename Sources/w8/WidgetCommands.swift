import ArgumentParser
import Foundation
import W8Core

/// The output formats of `w8 widget`.
enum WidgetFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, waybar, i3blocks, polybar
}

extension W8 {
    struct Widget: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your weight, 7-day trend and goal progress for a status bar.",
            discussion: """
                Formats: text (one line, '175.0 lb ↓ 25%'), json (the widget entry), waybar (a custom module's \
                JSON line: text, tooltip, class = the trend, percentage = progress capped 0 to 100), i3blocks \
                (full and short text lines), polybar (one line). Set 'w8 config widget.signal N' and "signal": N \
                in the waybar module to refresh it on every change. Example: w8 widget --format waybar
                """)

        @Option(name: .long, help: "text, json, waybar, i3blocks or polybar.")
        var format: WidgetFormat = .text

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let database = try runtime.database()
            let snapshot = try database.snapshot(unit: settings.unit)
            let (entries, before) = try database.week(
                from: runtime.now.addingTimeInterval(-WeeklySummary.window), to: runtime.now)
            let week = WeeklySummary(unit: settings.unit, now: runtime.now, entries: entries, before: before, progress: nil)
            let entry = WidgetEntry(now: runtime.now, snapshot: snapshot, week: week)
            print(render(entry, format: format, dates: runtime.dates))
        }

        func render(_ entry: WidgetEntry, format: WidgetFormat, dates: DateFormatting) -> String {
            switch format {
            case .text, .polybar:
                return entry.text
            case .i3blocks:
                // i3blocks reads the full text, then the short text for a crowded bar.
                let short = entry.currentWeight.map { Weight.decimal($0) + (entry.arrow.map { " " + $0 } ?? "") }
                return entry.text + "\n" + (short ?? WidgetEntry.emptyText)
            case .waybar:
                var pairs: [(String, JSON)] = [
                    ("text", .string(entry.text)),
                    ("tooltip", .string(entry.tooltip(formatDate: dates.short))),
                    ("class", .string(entry.trend.rawValue)),
                ]
                if let percentage = entry.percentage { pairs.append(("percentage", .integer(Int64(percentage)))) }
                return JSON.object(pairs).compact
            case .json:
                return JSON.object([
                    ("date", .string(dates.iso8601(entry.date))),
                    ("current_weight", .decimal(entry.currentWeight)),
                    ("unit", .string(entry.unit.rawValue)),
                    ("goal_weight", .decimal(entry.goalWeight)),
                    ("entry_date", .string(entry.entryDate.map(dates.iso8601))),
                    ("trend", .string(entry.trend.rawValue)),
                    ("progress_percent", .decimal(entry.progressPercent)),
                ]).rendered()
            }
        }
    }
}
