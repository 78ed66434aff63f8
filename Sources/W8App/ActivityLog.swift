import Foundation
import W8Core
import W8Store

/// What `w8 steps` did: the day's manual total, the one it replaced, and the total the day now shows.
public struct ActivityOutcome: Sendable {
    public var recorded: ActivityDay
    /// The manual total this one replaced, if the day had one.
    public var replaced: ActivityDay?
    /// The day's total as every view shows it (`ActivityDay.shown`): the manual one, since it wins.
    public var shown: ActivityDay
    public var stepGoal: Int
}

/// A day's steps and distance against the step goal, as `w8 today` shows them: 0 steps on a day with none.
public struct ActivityTotal: Sendable, Equatable {
    public var day: CalendarDay
    public var steps: Int
    /// Whole metres.
    public var distance: Int
    /// `activity.step_goal`; 0 is off.
    public var stepGoal: Int

    public init(day: CalendarDay, steps: Int, distance: Int, stepGoal: Int) {
        (self.day, self.steps, self.distance, self.stepGoal) = (day, steps, distance, stepGoal)
    }
}

/// The activity log (iShnak's steps row): a day's steps and distance, by hand or imported, for one command.
public struct ActivityLog: Sendable {
    public let database: AppDatabase
    /// The moment, the calendar of the local days and the step goal.
    public let context: EvaluationContext
    /// Told after each committed change, as for the intake log.
    public let statusBar: any StatusBar

    public init(database: AppDatabase, context: EvaluationContext, statusBar: any StatusBar) {
        (self.database, self.context, self.statusBar) = (database, context, statusBar)
    }

    var now: Date { context.now }
    var calendar: Calendar { context.calendar }

    /// `w8 steps N [--date DAY]` as typed: the day's total by hand, which replaces the day's earlier manual one.
    /// Both values are checked before anything is written.
    public func record(steps text: String, date: String?) throws -> ActivityOutcome {
        let steps = try ActivityInput.steps(text)
        let day = try date.map {
            CalendarDay(try DateInput.parse($0, now: now, calendar: calendar), calendar: calendar)
        }
        return try record(steps: steps, on: day ?? CalendarDay(now, calendar: calendar))
    }

    /// Records `steps` as the manual total of `day`.
    public func record(steps: Int, on day: CalendarDay) throws -> ActivityOutcome {
        let manual = ActivityDay(day: day, steps: steps, source: .manual)
        let replaced = try database.write { transaction in try transaction.saveActivity(manual, updatedAt: now) }
        statusBar.refresh()
        return ActivityOutcome(
            recorded: manual, replaced: replaced, shown: manual, stepGoal: context.settings.stepGoal)
    }

    /// The shown totals of the last `days` local days (today included) that have any, newest first.
    public func days(_ days: Int) throws -> [ActivityDay] {
        let today = CalendarDay(now, calendar: calendar)
        // No row is dated before 1900: more days than reach back there show them all.
        let back = min(days - 1, 200 * 366)
        return ActivityDay.shownDays(
            try database.activityDays(from: today.adding(days: -back, calendar: calendar), to: today))
    }

    /// The total of the local day of `date`, against the step goal.
    public func total(containing date: Date) throws -> ActivityTotal {
        let day = CalendarDay(date, calendar: calendar)
        let shown = ActivityDay.shown(try database.activityDays(from: day, to: day))
        return ActivityTotal(
            day: day, steps: shown?.steps ?? 0, distance: shown?.distance ?? 0, stepGoal: context.settings.stepGoal)
    }
}
