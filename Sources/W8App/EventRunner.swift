import Foundation
import W8Core
import W8Store
import W8Text

/// What firing one occurrence did.
public enum FireOutcome: Sendable, Equatable, CustomStringConvertible {
    case sent(UInt32)
    /// Another process (or an earlier run) already claimed this occurrence.
    case alreadyClaimed
    case skipped(String)
    case failed(String)
    /// Held while the person is away (issue 39), for the reason named, to be shown when they are back.
    case held(String)

    public var description: String {
        switch self {
        case .sent(let id): "sent (server id \(id))"
        case .held(let why): "held: \(why)"
        case .alreadyClaimed: "already sent by another run"
        case .skipped(let why): "skipped: \(why)"
        case .failed(let why): "not shown: \(why)"
        }
    }
}

/// What pressing a reminder's button did.
public enum ActionOutcome: Sendable, CustomStringConvertible {
    case logged(IntakeOutcome)
    /// The reminder of this kind is to be posted again at the date.
    case snoozed(EventKind, until: Date)
    case ignored(String)

    public var description: String {
        switch self {
        case .logged(let outcome):
            let what = outcome.event.volume.map { "\($0) ml of \(outcome.event.kind)" } ?? "a \(outcome.event.kind)"
            return "logged \(what)" + (outcome.warning.map { "; \($0)" } ?? "")
        case .snoozed(let kind, let date): return "\(kind) reminder again at \(date)"
        case .ignored(let why): return "ignored: \(why)"
        }
    }
}

/// Fires scheduled occurrences: claims each in the database first, so that the daemon, the systemd timer and
/// a manual `w8 summary --send --if-due` send it exactly once between them.
public struct EventRunner: Sendable {
    public let database: AppDatabase
    public let sink: any NotificationSink
    public let settings: Settings
    public let calendar: Calendar
    /// Draws the summary's chart and returns the image file to attach, or nil to send it without one.
    public let summaryImage: (@Sendable (WeeklySummary) -> String?)?
    /// Told when a button on a reminder logs a drink or a meal.
    public let statusBar: (any StatusBar)?

    public init(
        database: AppDatabase, sink: any NotificationSink, settings: Settings, calendar: Calendar,
        summaryImage: (@Sendable (WeeklySummary) -> String?)? = nil, statusBar: (any StatusBar)? = nil
    ) {
        self.database = database
        self.sink = sink
        self.settings = settings
        self.calendar = calendar
        self.summaryImage = summaryImage
        self.statusBar = statusBar
    }

    public var schedule: Schedule { Schedule(settings: settings, calendar: calendar, summaryDelay: summaryDelay) }

    /// This machine's delay of the summary in a sync folder (`Schedule.summaryDelay`).
    public var summaryDelay: TimeInterval = 0

    /// Whether the person is at the screen (issue 39): while it says away, reminders and the summary are held, and
    /// `releaseHeld(at:)` shows them once it no longer does. Nil posts at the due time whatever the presence.
    public var presence: (@Sendable () -> Presence)?

    /// The next occurrence of `kind` after `date`; the hydration reminder's counted from the last drink logged.
    public func next(_ kind: EventKind, after date: Date) throws -> Occurrence? {
        guard kind == .hydration else { return schedule.next(kind, after: date) }
        return schedule.nextHydration(after: date, lastDrink: try lastDrink(atOrBefore: date))
    }

    /// The latest occurrence of `kind` at or before `date`; the hydration reminder's counted from the last drink.
    public func latest(_ kind: EventKind, atOrBefore date: Date) throws -> Occurrence? {
        guard kind == .hydration else { return schedule.latest(kind, atOrBefore: date) }
        return schedule.latestHydration(atOrBefore: date, lastDrink: try lastDrink(atOrBefore: date))
    }

    /// The next occurrence of every enabled event after `date`, soonest first: the daemon's next wake-up. Drinks
    /// logged later only move the hydration reminder later, so waking at this time and asking again never misses.
    public func upcoming(after date: Date) throws -> [Occurrence] {
        try schedule.kinds.compactMap { try next($0, after: date) }.sorted { $0.date < $1.date }
    }

    /// When the latest drink (water or another) at or before `date` was logged for.
    func lastDrink(atOrBefore date: Date) throws -> Date? {
        try database.lastIntake(of: [.water, .beverage], atOrBefore: date)?.date
    }

    /// Reminders this late (after a suspend, say) are dropped rather than shown out of their moment.
    public static let reminderGrace: TimeInterval = 15 * 60

    /// The summary of the 7 days up to `now`.
    public func summary(at now: Date) throws -> WeeklySummary {
        let (entries, before) = try database.week(from: now.addingTimeInterval(-WeeklySummary.window), to: now)
        let snapshot = try database.snapshot(unit: settings.unit)
        var summary = WeeklySummary(
            unit: settings.unit, now: now, entries: entries, before: before, progress: snapshot.progress)
        summary.trendAnalysis = try database.trend(
            unit: settings.unit, goal: snapshot.goal?.weight, now: now, calendar: calendar)
        // The window's end is included, as for the weigh-ins (the store's upper bound is excluded).
        summary.intake = WeekIntake(
            events: try database.intakeEvents(from: summary.weekStart, to: now.addingTimeInterval(1)),
            volumeUnit: settings.intake.volumeUnit)
        let today = CalendarDay(now, calendar: calendar)
        let week = try database.activityDays(from: today.adding(days: -6, calendar: calendar), to: today)
        summary.averageSteps = ActivityDay.dailyAverage(ActivityDay.shownDays(week), over: 7)
        return summary
    }

    /// The summary's notification, with its chart attached when `summaryImage` draws one.
    public func summaryNotification(at now: Date) throws -> DesktopNotification {
        // For people: the user's language, under `w8 summary --send --json` too.
        let summary = try Localization.inUsersLanguage { try self.summary(at: now) }
        var notification = summary.notification
        notification.imagePath = summaryImage?(summary)
        return notification
    }

    /// Sends the summary whatever the schedule says (`w8 summary --send`).
    public func sendSummary(at now: Date) throws -> FireOutcome {
        post(try summaryNotification(at: now))
    }

    /// Sends the summary if its latest occurrence is due and unsent (`w8 summary --send --if-due`, the timer),
    /// and remembers this run for the next catch-up decision. A summary that could not be shown (no notification
    /// server yet, say at login) is left unsent and unremembered, so the next run tries again.
    public func sendSummaryIfDue(at now: Date) throws -> (Occurrence, FireOutcome)? {
        let lastRun = try database.lastRun("summary")
        guard let due = schedule.dueSummary(lastRun: lastRun, now: now) else {
            try database.setLastRun("summary", now)
            return nil
        }
        let outcome = try fire(due, at: now)
        switch outcome {
        case .failed:
            try database.unclaim(due.key)
        case .alreadyClaimed where try database.unsentClaim(due.key) != nil:
            // Claimed by a run that has not sent it: one posting right now, or one killed before it could. Not
            // remembered as run, so that a run after `AppDatabase.abandonedClaim` takes the claim over; remembered,
            // the summary of a run killed before posting was lost to every run in the next 2 minutes.
            break
        default:
            try database.setLastRun("summary", now)
        }
        return (due, outcome)
    }

    /// Fires one occurrence at `now`: claim, check its condition, post, record; or, while the person is away,
    /// claim and hold it.
    public func fire(_ occurrence: Occurrence, at now: Date) throws -> FireOutcome {
        let late = occurrence.kind.isReminder && now.timeIntervalSince(occurrence.date) > EventRunner.reminderGrace
        if let presence, ReminderHold.isHeld(occurrence.kind) {
            if let away = presence().longest { return try hold(occurrence, reason: away.reason, at: now) }
            // Due while the machine slept: held, and shown by the `releaseHeld` that follows once the person is
            // there (nothing comes while the session resumes locked).
            if late { return try hold(occurrence, reason: .suspended, at: now) }
            // One of its kind is still held (its reason ended unsignalled, as mako's modes do): this one joins it,
            // and the release that follows shows them once, rather than twice in a row.
            if let waiting = try database.heldReminders().first(where: { $0.kind == occurrence.kind }) {
                return try hold(occurrence, reason: waiting.reason, at: now)
            }
        }
        if late {
            return .skipped("\(Int(now.timeIntervalSince(occurrence.date) / 60)) minutes late")
        }
        guard try database.claim(occurrence.key, at: now) else { return .alreadyClaimed }
        let outcome: FireOutcome
        switch occurrence.kind {
        case .weeklySummary:
            // A run killed after the server showed the summary and before "sent" was committed leaves the claim
            // unsent, and a later run posts it again: tagged with its week, that post replaces the one still on
            // screen rather than showing a second.
            var notification = try summaryNotification(at: now)
            notification.replaceTag = DesktopNotification.summaryTag(occurrence: occurrence.key)
            outcome = post(notification)
        case .weighIn:
            outcome = try loggedToday(now) ? .skipped("a weight is already logged today") : postReminder(.weighIn, now)
        case .streak:
            let days = Streak.daysBefore(
                now, dates: try database.entryDates(since: now.addingTimeInterval(-62 * 86400)), calendar: calendar)
            if try loggedToday(now) {
                outcome = .skipped("a weight is already logged today")
            } else if days < settings.reminders.streakDays {
                outcome = .skipped("streak of \(days) days is under \(settings.reminders.streakDays)")
            } else {
                outcome = try postReminder(.streak, now, streakDays: days)
            }
        case .meal:
            let lastMeal = try database.lastIntake(of: [.meal], atOrBefore: occurrence.date)?.date
            if let why = IntakeRules.mealSkip(at: occurrence.date, lastMeal: lastMeal) {
                outcome = .skipped(why)
            } else {
                outcome = try postReminder(occurrence.kind, now)
            }
        case .hydration:
            let day = try database.intakeDay(containing: now, goals: settings.intake, calendar: calendar)
            if let why = IntakeRules.hydrationSkip(
                at: now, day: day, lastDrink: try lastDrink(atOrBefore: now),
                intervalMinutes: settings.reminders.hydrationInterval)
            {
                outcome = .skipped(why)
            } else {
                outcome = try postReminder(.hydration, now)
            }
        }
        if case .sent = outcome { try database.markClaim(occurrence.key, sent: true) }
        return outcome
    }

    /// The reminders held while the person is away, for `w8 schedule`.
    public func heldReminders() throws -> [HeldReminder] { try database.heldReminders() }

    /// Claims `occurrence` and holds it: a kind already held counts it once more (`ReminderHold.hold`).
    func hold(_ occurrence: Occurrence, reason: AwayReason, at now: Date) throws -> FireOutcome {
        let held = ReminderHold.hold(occurrence, reason: reason, in: try database.heldReminders())
        guard let row = held.first(where: { $0.kind == occurrence.kind }),
            try database.hold(row, claiming: occurrence.key, at: now)
        else { return .alreadyClaimed }
        return .held(reason.description)
    }

    /// Shows what was held, once the person is back: each kind once, in the order it first fell due, unless its
    /// reason is gone (`ReminderHold.stillDue`). The held reminders are taken in one transaction, so that of two runs
    /// (the daemon, the summary timer) only one shows them; one the server did not take is held again. Nothing while
    /// the person is still away; with the wait turned off, what is still held is shown now.
    public func releaseHeld(at now: Date) throws -> [(HeldReminder, FireOutcome)] {
        guard !(try database.heldReminders()).isEmpty else { return [] }
        if let presence, presence().isAway { return [] }
        let held = try database.takeHeld()
        guard let start = held.map(\.firstDue).min() else { return [] }
        let shown = ReminderHold.release(
            held, presence: Presence(), done: try done(since: start, now: now), now: now, calendar: calendar)
        var outcomes: [(HeldReminder, FireOutcome)] = []
        for reminder in held {
            guard shown.contains(reminder) else {
                outcomes.append((reminder, .skipped("its reason is gone")))
                continue
            }
            let outcome: FireOutcome
            switch reminder.kind {
            case .weeklySummary:
                var notification = try summaryNotification(at: now)
                notification.replaceTag = DesktopNotification.summaryTag(occurrence: reminder.key)
                outcome = post(notification)
            case .streak:
                let days = Streak.daysBefore(
                    now, dates: try database.entryDates(since: now.addingTimeInterval(-62 * 86400)),
                    calendar: calendar)
                outcome = try postReminder(.streak, now, streakDays: days, held: reminder)
            case .weighIn, .meal, .hydration:
                outcome = try postReminder(reminder.kind, now, held: reminder)
            }
            if case .failed = outcome { try database.restoreHeld(reminder) }
            outcomes.append((reminder, outcome))
        }
        return outcomes
    }

    /// What the person did from `start` to `now` that may take a held reminder's reason away.
    func done(since start: Date, now: Date) throws -> ReminderHold.Done {
        let events = try database.intakeEvents(from: calendar.startOfDay(for: start), to: now.addingTimeInterval(1))
        let day = try database.intakeDay(containing: now, goals: settings.intake, calendar: calendar)
        var meals: [Meal: [Date]] = [:]
        for event in events where event.kind == .meal {
            for meal in Meal.allCases { meals[meal, default: []].append(event.date) }
        }
        var done = ReminderHold.Done()
        done.weighIns = try database.entryDates(since: calendar.startOfDay(for: start))
        done.meals = meals
        done.waterToday = day.water
        done.waterGoal = settings.intake.waterGoal
        done.lastDrink = try lastDrink(atOrBefore: now)
        return done
    }

    func loggedToday(_ now: Date) throws -> Bool {
        !(try database.entryDates(since: calendar.startOfDay(for: now)).isEmpty)
    }

    /// Posts a reminder, which replaces the one of its kind this process posted while the server still shows it
    /// (`replacesOpen`), and keeps the new server id so that logging a weight can close the weigh-in reminder. The
    /// kept id is never replaced: it may name a notification the server closed long ago. Hydration and meal
    /// reminders carry their buttons; the sink shows them only where the server supports actions.
    public func postReminder(
        _ kind: EventKind, _ now: Date, streakDays: Int = 0, held: HeldReminder? = nil
    ) throws -> FireOutcome {
        let notification =
            held.map {
                DesktopNotification.heldReminder(
                    $0, streakDays: streakDays, intake: settings.intake, calendar: calendar)
            } ?? DesktopNotification.reminder(kind, streakDays: streakDays, intake: settings.intake)
        let outcome = post(notification)
        if case .sent(let id) = outcome { try database.setNotificationID(id, forKey: notification.key, at: now) }
        return outcome
    }

    /// Acts on a button pressed on a reminder: logs the drink or the meal, or asks for the reminder again
    /// `ReminderAction.snoozeInterval` later; then closes the notification. Unknown buttons change nothing.
    public func handle(_ press: NotificationActionPress, at now: Date) throws -> ActionOutcome {
        guard let action = ReminderAction(rawValue: press.actionID),
            let kind = DesktopNotification.reminderKind(forKey: press.key),
            ReminderAction.actions(for: kind).contains(action)
        else { return .ignored("unknown button '\(press.actionID)' on \(press.key)") }
        let log = IntakeLog(
            database: database, sink: sink, settings: settings, now: now, calendar: calendar,
            statusBar: statusBar ?? NoStatusBar())
        let outcome: ActionOutcome
        switch action {
        case .cup: outcome = .logged(try log.drink(settings.intake.cup, at: now))
        case .bottle: outcome = .logged(try log.drink(settings.intake.bottle, at: now))
        case .ate: outcome = .logged(try log.eat(.meal, at: now))
        case .snooze: outcome = .snoozed(kind, until: now.addingTimeInterval(ReminderAction.snoozeInterval))
        }
        // The server may have closed it already; a failure here changes nothing that was logged.
        try? sink.close(id: press.notificationID)
        return outcome
    }

    func post(_ notification: DesktopNotification) -> FireOutcome {
        do {
            return .sent(try sink.post(notification))
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}

/// A status bar that is never refreshed.
struct NoStatusBar: StatusBar {
    func refresh() {}
}
