import Foundation
import W8Text

/// Why the person is not at the screen (issue 39). A reminder that falls due while any of these holds is held, and
/// shown once none does: deferred, never skipped.
public enum AwayReason: Sendable, Hashable, CustomStringConvertible {
    /// The session is locked (logind's `LockedHint`, GNOME's or KDE's screen saver).
    case locked
    /// No input for longer than `reminders.away_after`.
    case idle
    /// The desktop's Do Not Disturb, or an inhibition, named by where it was read ("dunst paused").
    case doNotDisturb(String)
    /// The machine is suspended, or has just resumed with the session still locked.
    case suspended

    public var description: String {
        switch self {
        case .locked: "screen locked"
        case .idle: "idle"
        case .doNotDisturb(let source): "do not disturb (\(source))"
        case .suspended: "suspended"
        }
    }
}

extension AwayReason {
    /// The reason in the user's language, as `w8 doctor` and `w8 schedule` say it.
    public var localizedDescription: String {
        switch self {
        // TRANSLATORS: why a reminder waits (`w8 doctor`, `w8 schedule`): the session is locked.
        case .locked: tr("screen locked")
        // TRANSLATORS: no input for longer than reminders.away_after.
        case .idle: tr("idle")
        // TRANSLATORS: {source} is where it was read: dunst, swaync, mako, GNOME, Plasma, xfce4-notifyd.
        case .doNotDisturb(let source): tr("do not disturb ({source})", ["source": source])
        case .suspended: tr("suspended")
        }
    }
}

/// One presence signal as `w8 doctor` lists it: where it is read, whether it can be read here, what it says now.
public struct PresenceSignal: Sendable, Equatable {
    /// "logind LockedHint", "dunst paused".
    public var name: String
    /// Whether its source answered; false when it is not running here.
    public var readable: Bool
    /// The reason it gives now; nil when it says the person is there.
    public var away: AwayReason?
    /// When the watch first read it so.
    public var since: Date?

    public init(name: String, readable: Bool, away: AwayReason? = nil, since: Date? = nil) {
        self.name = name
        self.readable = readable
        self.away = away
        self.since = since
    }

    /// The kind of presence it reads: "lock", "sleep", "idle" or "dnd", by its name.
    public var kind: String {
        if name.hasSuffix("LockedHint") { return "lock" }
        if name.hasSuffix("PrepareForSleep") { return "sleep" }
        if name.contains("idle") { return "idle" }
        return "dnd"
    }
}

/// What the presence signals say now: each reason that holds, and since when.
public struct Presence: Sendable, Equatable {
    public var reasons: [AwayReason: Date] = [:]

    public init(reasons: [AwayReason: Date] = [:]) { self.reasons = reasons }

    /// Nobody to show a reminder to.
    public var isAway: Bool { !reasons.isEmpty }

    /// The reason that has held longest, as "screen locked since 14:02" says it: the one a person would name.
    public var longest: (reason: AwayReason, since: Date)? {
        reasons.min { ($0.value, $0.key.description) < ($1.value, $1.key.description) }.map { ($0.key, $0.value) }
    }

    /// `reason` holds from `date` on; one that already holds keeps its earlier start.
    public mutating func begin(_ reason: AwayReason, at date: Date) {
        if reasons[reason] == nil { reasons[reason] = date }
    }

    public mutating func end(_ reason: AwayReason) { reasons[reason] = nil }
}

/// A reminder held while the person was away: one per kind, however often it fell due.
public struct HeldReminder: Sendable, Equatable {
    public var kind: EventKind
    /// The key of the first occurrence held (`Occurrence.key`), which the claim records.
    public var key: String
    public var firstDue: Date
    public var lastDue: Date
    /// How many times it fell due while held.
    public var times: Int
    /// Why it was held: the reason that held longest when it first fell due.
    public var reason: AwayReason

    public init(kind: EventKind, key: String, firstDue: Date, lastDue: Date, times: Int, reason: AwayReason) {
        self.kind = kind
        self.key = key
        self.firstDue = firstDue
        self.lastDue = lastDue
        self.times = times
        self.reason = reason
    }
}

/// The rules for holding reminders while the person is away and showing them when they are back.
public enum ReminderHold {
    /// Whether an occurrence of `kind` is held while away: every reminder and the weekly summary. (Milestones are
    /// no occurrence: they come from the person's own `w8 add`, at the screen.)
    public static func isHeld(_ kind: EventKind) -> Bool {
        switch kind {
        case .weeklySummary, .weighIn, .streak, .meal, .hydration: true
        }
    }

    /// `held` with `occurrence`, which fell due while away for `reason`: a kind already held counts one more time
    /// and keeps its first due date, so that a water reminder due three times comes once.
    public static func hold(_ occurrence: Occurrence, reason: AwayReason, in held: [HeldReminder]) -> [HeldReminder] {
        var held = held
        if let index = held.firstIndex(where: { $0.kind == occurrence.kind }) {
            guard occurrence.key != held[index].key, occurrence.date > held[index].lastDue else { return held }
            held[index].lastDue = occurrence.date
            held[index].times += 1
        } else {
            held.append(
                HeldReminder(
                    kind: occurrence.kind, key: occurrence.key, firstDue: occurrence.date, lastDue: occurrence.date,
                    times: 1, reason: reason))
        }
        return held
    }

    /// What a held reminder's reason still needs when the person is back.
    public struct Done: Sendable {
        /// Weigh-ins logged, by their instants.
        public var weighIns: [Date] = []
        /// Meals logged, by their instants.
        public var meals: [Meal: [Date]] = [:]
        /// Water drunk on the held reminder's day, in ml, and that day's goal (0: no goal).
        public var waterToday: Int = 0
        public var waterGoal: Int = 0
        /// The last drink of any kind.
        public var lastDrink: Date?

        public init() {}
    }

    /// Whether `reminder` still has a reason at `now`: not when the weight was logged on its day (here or on
    /// another device, once merged), the meal eaten since it fell due, the day's water goal met or a drink taken
    /// since it last fell due, or its day is over (a reminder is about its day). The summary always has one.
    public static func stillDue(_ reminder: HeldReminder, done: Done, now: Date, calendar: Calendar) -> Bool {
        let day = calendar.startOfDay(for: reminder.firstDue)
        switch reminder.kind {
        case .weeklySummary:
            return true
        case _ where calendar.startOfDay(for: now) != day:
            return false
        case .weighIn, .streak:
            return !done.weighIns.contains { calendar.startOfDay(for: $0) == day }
        case .meal(let meal):
            return !(done.meals[meal] ?? []).contains { $0 >= reminder.firstDue }
        case .hydration:
            if done.waterGoal > 0, done.waterToday >= done.waterGoal { return false }
            return done.lastDrink.map { $0 < reminder.lastDue } ?? true
        }
    }

    /// The held reminders to show when the person is back at `now`, in the order they first fell due; the others
    /// are dropped. Never while away: nothing wakes a locked screen.
    public static func release(
        _ held: [HeldReminder], presence: Presence, done: Done, now: Date, calendar: Calendar
    ) -> [HeldReminder] {
        guard !presence.isAway else { return [] }
        return held.filter { stillDue($0, done: done, now: now, calendar: calendar) }.sorted {
            ($0.firstDue, $0.key) < ($1.firstDue, $1.key)
        }
    }
}
