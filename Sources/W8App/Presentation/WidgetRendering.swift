import Foundation
import W8Core
import W8Text

/// The output formats of `w8 widget`.
public enum WidgetFormat: String, CaseIterable, Sendable {
    case text, json, waybar, i3blocks, polybar
}

extension Presenter {
    /// The widget entry as a status bar reads it: a machine format, byte for byte the same in every locale (its
    /// text and tooltip, dates included, are the sources' English).
    public func widget(_ entry: WidgetEntry, format: WidgetFormat) -> String {
        Localization.inEnglish { widgetText(entry, format: format) }
    }

    func widgetText(_ entry: WidgetEntry, format: WidgetFormat) -> String {
        switch format {
        case .text, .polybar:
            return entry.text
        case .i3blocks:
            // i3blocks reads the full text, then the short text for a crowded bar.
            let short = entry.currentWeight.map { $0.oneDecimalText + (entry.arrow.map { " " + $0 } ?? "") }
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
                ("progress_percent", .progress(entry.progressPercent)),
                ("water_ml", .integer(Int64(entry.intake?.water ?? 0))),
                ("water_goal_ml", waterGoal(entry)),
            ]).rendered()
        }
    }

    /// The water goal in ml, or null when it is not set (0).
    func waterGoal(_ entry: WidgetEntry) -> JSON {
        guard let goal = entry.intake?.goals.waterGoal, goal > 0 else { return .null }
        return .integer(Int64(goal))
    }
}
