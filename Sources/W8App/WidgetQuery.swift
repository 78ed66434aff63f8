import Foundation
import W8Core
import W8Store

extension WidgetEntry {
    /// The status-bar glance at `now`, read from `database`: the latest weight, the week's direction, the progress
    /// and the day's intake.
    public init(database: AppDatabase, settings: Settings, now: Date, calendar: Calendar) throws {
        let (entries, before) = try database.week(from: now.addingTimeInterval(-WeeklySummary.window), to: now)
        self.init(
            now: now, snapshot: try database.snapshot(unit: settings.unit),
            week: WeeklySummary(unit: settings.unit, now: now, entries: entries, before: before, progress: nil),
            intake: try database.intakeDay(containing: now, goals: settings.intake, calendar: calendar))
    }
}
