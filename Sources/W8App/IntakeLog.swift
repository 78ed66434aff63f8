import Foundation
import W8Core
import W8Store
import W8Text

/// What logging or removing an intake event did, after its notification (if any) was tried.
public struct IntakeOutcome: Sendable {
    public var event: IntakeEvent
    /// The totals of the event's local day afterwards.
    public var day: IntakeDay
    /// Whether "Water goal reached" went out.
    public var notifiedWaterGoal: Bool
    /// Why it did not, when it should have: one line for stderr.
    public var warning: String?
}

/// The daily intake log: drinks, meals and snacks against the day's goals, for one command.
public struct IntakeLog: Sendable {
    public let database: AppDatabase
    public let sink: any NotificationSink
    public let settings: Settings
    public let now: Date
    public let calendar: Calendar
    public let statusBar: any StatusBar

    public init(
        database: AppDatabase, sink: any NotificationSink, settings: Settings, now: Date, calendar: Calendar,
        statusBar: any StatusBar
    ) {
        self.database = database
        self.sink = sink
        self.settings = settings
        self.now = now
        self.calendar = calendar
        self.statusBar = statusBar
    }

    /// Logs water (or, with `beverage`, another drink) of `millilitres`.
    public func drink(
        _ millilitres: Int, beverage: Bool = false, calories: Int = 0, at date: Date, note: String? = nil
    ) throws -> IntakeOutcome {
        try log(
            IntakeEvent(
                kind: beverage ? .beverage : .water, date: date, volume: millilitres, calories: calories, note: note))
    }

    /// Logs a meal or a snack; without `calories`, it counts the configured `meal_calories` or `snack_calories`.
    public func eat(_ kind: IntakeKind, calories: Int? = nil, at date: Date, note: String? = nil) throws
        -> IntakeOutcome
    {
        precondition(!kind.isDrink, "eat takes a meal or a snack")
        let counted = calories ?? (kind == .meal ? settings.intake.mealCalories : settings.intake.snackCalories)
        return try log(IntakeEvent(kind: kind, date: date, calories: counted, note: note))
    }

    /// `w8 drink` as typed: the amount (`250`, `0.5l`, `cup`…), the calories, the date and the note, each checked
    /// before anything is written.
    public func drink(
        _ amount: String, beverage: Bool, calories: String?, date: String?, note: String?
    ) throws -> IntakeOutcome {
        let millilitres = try IntakeInput.drink(amount, settings: settings.intake)
        let kcal = try calories.map(IntakeInput.calories) ?? 0
        return try drink(
            millilitres, beverage: beverage, calories: kcal, at: try parseDate(date), note: try WeightInput.note(note))
    }

    /// `w8 eat` as typed: `meal` or `snack`, the calories, the date and the note.
    public func eat(_ what: String, calories: String?, date: String?, note: String?) throws -> IntakeOutcome {
        let kind = try IntakeInput.food(what)
        let kcal = try calories.map(IntakeInput.calories)
        return try eat(kind, calories: kcal, at: try parseDate(date), note: try WeightInput.note(note))
    }

    /// A typed date, or now.
    func parseDate(_ text: String?) throws -> Date {
        try text.map { try DateInput.parse($0, now: now, calendar: calendar) } ?? now
    }

    /// Removes one event; the day's totals are those after it.
    public func remove(id: Int64) throws -> IntakeOutcome {
        let event = try database.removeIntake(id: id)
        statusBar.refresh()
        return IntakeOutcome(
            event: event, day: try day(containing: event.date), notifiedWaterGoal: false, warning: nil)
    }

    /// The totals of the local day of `date`.
    public func day(containing date: Date) throws -> IntakeDay {
        try database.intakeDay(containing: date, goals: settings.intake, calendar: calendar)
    }

    /// The events of the last `days` local days (today included), newest first. No event is dated before 1900, so
    /// more days than reach back there show them all (a count of millions overflowed the calendar and showed none).
    public func events(days: Int) throws -> [IntakeEvent] {
        let today = calendar.startOfDay(for: now)
        let earliest = calendar.date(from: DateComponents(year: DateInput.earliestYear, month: 1, day: 1)) ?? today
        let back = min(days - 1, (calendar.dateComponents([.day], from: earliest, to: today).day ?? 0) + 1)
        let start =
            calendar.date(byAdding: .day, value: -back, to: today.addingTimeInterval(3600))
            .map { calendar.startOfDay(for: $0) } ?? today
        return try database.intakeEvents(from: start, to: .distantFuture)
    }

    func log(_ event: IntakeEvent) throws -> IntakeOutcome {
        let notify = settings.notifications.enabled && settings.intakeGoalNotifications
        let change = try database.addIntake(
            event, goals: settings.intake, notify: notify, now: now, calendar: calendar)
        statusBar.refresh()
        var outcome = IntakeOutcome(event: change.event, day: change.day, notifiedWaterGoal: false, warning: nil)
        guard let claim = change.waterGoalClaim else { return outcome }
        do {
            _ = try sink.post(Localization.inUsersLanguage { .waterGoalReached(change.day) })
            try database.markClaim(claim, sent: true)
            outcome.notifiedWaterGoal = true
        } catch {
            // Given back, so that the next drink that crosses the goal today tries again.
            try? database.unclaim(claim)
            let reason = error.localizedDescription
            // TRANSLATORS: a warning on the terminal; {reason} is the notification server's.
            outcome.warning = Localization.inUsersLanguage {
                tr("notification not shown ({reason}); the drink was logged", ["reason": reason])
            }
        }
        return outcome
    }
}
