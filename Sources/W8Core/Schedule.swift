import Foundation

/// Something the scheduler fires at a wall-clock time.
public enum EventKind: Sendable, Hashable, CustomStringConvertible {
    case weeklySummary
    case weighIn
    case streak
    case meal(Meal)
    case hydration

    public var description: String {
        switch self {
        case .weeklySummary: "summary"
        case .weighIn: "weigh-in"
        case .streak: "streak"
        case .meal(let meal): meal.rawValue
        case .hydration: "hydration"
        }
    }

    /// Reminders respect quiet hours; the summary is at the hour the person chose.
    public var isReminder: Bool { self != .weeklySummary }
}

/// One occurrence of an event: when it fires, and the wall-clock time it was scheduled for.
public struct Occurrence: Sendable, Equatable, Hashable {
    public var kind: EventKind
    /// The instant it fires: its local time, or the first valid time after it on a spring-forward day.
    public var date: Date
    /// `kind@YYYY-MM-DDTHH:MM` in local time: the same for both passes of a repeated hour, so it fires once.
    public var key: String
}

/// The schedule the settings describe, computed with the calendar passed in.
public struct Schedule: Sendable {
    public let settings: Settings
    public let calendar: Calendar
    /// How long after its hour this machine sends the summary: 0, or, on a machine that is not the first of a
    /// sync folder's devices, long enough for the first one's claim to arrive (`SyncFolder.summaryDelay`). The
    /// occurrence keeps its key, so a claim made elsewhere stops it.
    public var summaryDelay: TimeInterval = 0

    public init(settings: Settings, calendar: Calendar, summaryDelay: TimeInterval = 0) {
        self.settings = settings
        self.calendar = calendar
        self.summaryDelay = summaryDelay
    }

    /// The enabled events.
    public var kinds: [EventKind] {
        var kinds: [EventKind] = []
        if settings.summary.enabled { kinds.append(.weeklySummary) }
        let r = settings.reminders
        if r.weighIn { kinds.append(.weighIn) }
        if r.streak { kinds.append(.streak) }
        kinds += Meal.allCases.filter { r.meals[$0] == true }.map { .meal($0) }
        if r.hydration { kinds.append(.hydration) }
        return kinds
    }

    /// The wall-clock times an event is scheduled at on a given day (before quiet hours are applied).
    func times(of kind: EventKind, onWeekday weekday: Int) -> [LocalTime] {
        let r = settings.reminders
        switch kind {
        case .weeklySummary:
            return weekday == settings.summary.day.calendarWeekday ? [LocalTime(hour: settings.summary.hour)] : []
        case .weighIn: return [r.weighInTime]
        case .streak: return [r.streakTime]
        case .meal(let meal): return [r.mealTimes[meal] ?? meal.defaultTime]
        case .hydration:
            // Every N minutes from the end of quiet hours (or midnight), within the day.
            let anchor = settings.quietHours.enabled ? settings.quietHours.end.minutes : 0
            let step = max(r.hydrationInterval, 1)
            return stride(from: 0, to: 24 * 60, by: step).map { (anchor + $0) % (24 * 60) }.sorted()
                .map { LocalTime(hour: $0 / 60, minute: $0 % 60) }
        }
    }

    /// The occurrences of `kind` on the local day of `day`, in order, quiet hours applied to reminders.
    func occurrences(of kind: EventKind, onDayOf day: Date) -> [Occurrence] {
        let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
        guard let y = c.year, let m = c.month, let d = c.day, let weekday = c.weekday else { return [] }
        return times(of: kind, onWeekday: weekday).compactMap { time in
            if kind.isReminder, settings.quietHours.contains(time) { return nil }
            guard let date = calendar.instant(year: y, month: m, day: d, at: time) else { return nil }
            let key = String(format: "%@@%04d-%02d-%02dT%@", kind.description, y, m, d, time.description)
            return Occurrence(
                kind: kind, date: kind == .weeklySummary ? date.addingTimeInterval(summaryDelay) : date, key: key)
        }
    }

    /// The first occurrence of `kind` strictly after `date`.
    public func next(_ kind: EventKind, after date: Date) -> Occurrence? {
        var day = calendar.startOfDay(for: date)
        for _ in 0..<9 {
            if let found = occurrences(of: kind, onDayOf: day).first(where: { $0.date > date }) { return found }
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { return nil }
            day = calendar.startOfDay(for: next.addingTimeInterval(3600))
        }
        return nil
    }

    /// The latest occurrence of `kind` at or before `date`.
    public func latest(_ kind: EventKind, atOrBefore date: Date) -> Occurrence? {
        var day = calendar.startOfDay(for: date)
        for _ in 0..<9 {
            if let found = occurrences(of: kind, onDayOf: day).last(where: { $0.date <= date }) { return found }
            guard let previous = calendar.date(byAdding: .day, value: -1, to: day) else { return nil }
            day = calendar.startOfDay(for: previous.addingTimeInterval(3600))
        }
        return nil
    }

    /// The next occurrence of every enabled event after `date`, soonest first.
    public func upcoming(after date: Date) -> [Occurrence] {
        kinds.compactMap { next($0, after: date) }.sorted { $0.date < $1.date }
    }

    /// How far back a first run ever looks for a missed summary.
    public static let firstRunWindow: TimeInterval = 3600

    /// The summary to catch up on (like systemd's `Persistent=true`): the latest occurrence at or before `now`,
    /// if it fell after the scheduler's last run, or, with no run remembered, within the last hour. Never a backlog.
    public func dueSummary(lastRun: Date?, now: Date) -> Occurrence? {
        guard settings.summary.enabled, let latest = latest(.weeklySummary, atOrBefore: now) else { return nil }
        if let lastRun { return latest.date > lastRun ? latest : nil }
        return now.timeIntervalSince(latest.date) <= Schedule.firstRunWindow ? latest : nil
    }
}

extension Schedule {
    /// The hydration reminder's next occurrence after `date`, its interval counted from `lastDrink` (the latest
    /// drink at or before `date`, water or another).
    ///
    /// The first grid occurrence after the drink moves to the drink plus the interval and keeps its key, so the
    /// claim table still fires it once; grid occurrences it passes are dropped. A moved time inside quiet hours
    /// gives way to the next grid occurrence after it.
    public func nextHydration(after date: Date, lastDrink: Date?) -> Occurrence? {
        guard let lastDrink, let move = hydrationMove(after: lastDrink), move.due > date else {
            return next(.hydration, after: date)
        }
        return move.moved ?? next(.hydration, after: move.due)
    }

    /// The latest hydration occurrence at or before `date`, moved by `lastDrink` as `nextHydration` moves it. While
    /// the moved one is not due, this is the latest before the drink (which the drink makes pointless anyway).
    public func latestHydration(atOrBefore date: Date, lastDrink: Date?) -> Occurrence? {
        guard let lastDrink, let move = hydrationMove(after: lastDrink) else {
            return latest(.hydration, atOrBefore: date)
        }
        guard move.due <= date else { return latest(.hydration, atOrBefore: lastDrink) }
        if let plain = latest(.hydration, atOrBefore: date), plain.date >= move.due { return plain }
        return move.moved ?? latest(.hydration, atOrBefore: lastDrink)
    }

    /// What a drink does to the hydration grid: when the first occurrence after it falls within the interval,
    /// that occurrence moved to `due` (nil when `due` is inside quiet hours). Nil when the drink moves nothing.
    func hydrationMove(after lastDrink: Date) -> (due: Date, moved: Occurrence?)? {
        let due = IntakeRules.hydrationDue(after: lastDrink, intervalMinutes: settings.reminders.hydrationInterval)
        guard let first = next(.hydration, after: lastDrink), first.date < due else { return nil }
        let local = calendar.dateComponents([.hour, .minute], from: due)
        guard let hour = local.hour, let minute = local.minute,
            !settings.quietHours.contains(LocalTime(hour: hour, minute: minute))
        else { return (due, nil) }
        return (due, Occurrence(kind: .hydration, date: due, key: first.key))
    }
}
