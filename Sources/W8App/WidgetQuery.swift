import Foundation
import W8Core
import W8Store

extension WidgetEntry {
    /// The status-bar glance at `now`, read from `database`: the latest weight, the week's direction, the progress
    /// the day's intake, and the day's steps when a step goal is set (no read otherwise).
    public init(database: AppDatabase, settings: Settings, now: Date, calendar: Calendar) throws {
        let (entries, before) = try database.week(from: now.addingTimeInterval(-WeeklySummary.window), to: now)
        self.init(
            now: now, snapshot: try database.snapshot(unit: settings.unit),
            week: WeeklySummary(unit: settings.unit, now: now, entries: entries, before: before, progress: nil),
            intake: try database.intakeDay(containing: now, goals: settings.intake, calendar: calendar))
        guard settings.stepGoal > 0 else { return }
        let today = CalendarDay(now, calendar: calendar)
        steps = ActivityDay.shown(try database.activityDays(from: today, to: today))?.steps ?? 0
        stepGoal = settings.stepGoal
    }
}
