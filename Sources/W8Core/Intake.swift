import Foundation
import W8Text

/// What was drunk or eaten: iShnak's daily inputs (`UserData`), logged one event at a time.
public enum IntakeKind: String, Sendable, CaseIterable, Codable {
    case water
    /// A drink other than water: coffee, tea, juice.
    case beverage
    case meal
    case snack
    /// Calories eaten that are no meal or snack of their own: an app's log of energy (Apple Health's
    /// `DietaryEnergyConsumed`). They count in the day's calories only.
    case calories

    /// Whether the event has a volume.
    public var isDrink: Bool { self == .water || self == .beverage }
}

/// How volumes are shown: millilitres, or US fluid ounces. Amounts are always kept in millilitres.
public enum VolumeUnit: String, Sendable, CaseIterable, Codable {
    case ml
    case oz

    /// One US fluid ounce: 1/128 of a US gallon of 231 cubic inches.
    public static let millilitresPerUSFluidOunce = 29.5735295625

    /// "1250 ml" or "42.3 oz" ("42,3 oz" in German), for people.
    public func format(millilitres: Int) -> String { format(millilitres: millilitres, for: .person) }

    /// "1250 ml" or "42.3 oz", the decimal as `audience` reads it.
    public func format(millilitres: Int, for audience: Audience) -> String {
        switch self {
        case .ml: "\(millilitres) ml"
        case .oz: audience.decimal(Double(millilitres) / VolumeUnit.millilitresPerUSFluidOunce) + " oz"
        }
    }
}

/// One drink, meal or snack, with its moment (`UserData`'s counters become events: history and undo).
public struct IntakeEvent: Sendable, Equatable, Identifiable {
    public var id: Int64?
    public var kind: IntakeKind
    public var date: Date
    /// Millilitres, for water and beverages; nil for food.
    public var volume: Int?
    /// Kilocalories; 0 is not counted.
    public var calories: Int
    public var note: String?

    public init(
        id: Int64? = nil, kind: IntakeKind, date: Date, volume: Int? = nil, calories: Int = 0, note: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.date = date
        self.volume = volume
        self.calories = calories
        self.note = note
    }
}

/// The person's daily targets and serving sizes (iShnak's `GoalDefaults`). A goal of 0 is not set.
public struct IntakeSettings: Sendable, Equatable {
    public var waterGoal = 2000
    public var beverageGoal = 0
    public var mealGoal = 3
    public var snackGoal = 2
    public var calorieGoal = 0
    /// Millilitres in a cup and in a bottle, for `w8 drink cup` and the reminder's buttons.
    public var cup = 250
    public var bottle = 500
    /// Kilocalories a meal or snack counts when `--calories` is not given; 0 counts none.
    public var mealCalories = 0
    public var snackCalories = 0
    public var volumeUnit = VolumeUnit.ml

    public init() {}

    /// The most one drink may be.
    public static let maxDrink = 5000
    /// The most one event's calories may be.
    public static let maxCalories = 10_000
}

/// A day's totals against the goals, computed from that local day's events.
public struct IntakeDay: Sendable, Equatable {
    /// The local day: from its midnight to the next (23 or 25 hours on the days the clocks change).
    public var day: DateInterval
    public var water = 0
    public var beverage = 0
    public var meals = 0
    public var snacks = 0
    public var calories = 0
    public var goals: IntakeSettings

    /// The totals of the events that fall on the local day of `date`.
    public init(containing date: Date, events: [IntakeEvent], goals: IntakeSettings, calendar: Calendar) {
        day = calendar.dateInterval(of: .day, for: date)!
        self.goals = goals
        for event in events where day.start <= event.date && event.date < day.end {
            switch event.kind {
            case .water: water += event.volume ?? 0
            case .beverage: beverage += event.volume ?? 0
            case .meal: meals += 1
            case .snack: snacks += 1
            case .calories: break
            }
            calories += event.calories
        }
    }

    /// Whether the water goal is set and met.
    public var waterGoalMet: Bool { goals.waterGoal > 0 && water >= goals.waterGoal }

    /// "Water 1500 of 2000 ml today (75%)", for people.
    public var waterLine: String { waterLine(for: .person) }

    /// The water line for `audience`: the widget's tooltip, a machine format, keeps it in English.
    public func waterLine(for audience: Audience) -> String {
        let unit = goals.volumeUnit
        guard goals.waterGoal > 0 else {
            // TRANSLATORS: a line of `w8 drink` and `w8 today`; {amount} is a volume with its unit, "750 ml".
            return audience.tr("Water {amount} today", ["amount": unit.format(millilitres: water, for: audience)])
        }
        let percent = GoalProgress.displayPercent(Double(water) / Double(goals.waterGoal) * 100)
        let total = goals.volumeUnit == .ml ? "\(water)" : unit.format(millilitres: water, for: audience)
        return audience.tr(
            // TRANSLATORS: a line of `w8 drink` and `w8 today`: {total} is the day's water ("1500", or "50.7 oz"),
            // {goal} the daily goal with its unit ("2000 ml"), {percent} a whole number.
            "Water {total} of {goal} today ({percent}%)",
            ["total": total, "goal": unit.format(millilitres: goals.waterGoal, for: audience), "percent": percent])
    }
}

/// When the reminders that know what was logged stay quiet.
public enum IntakeRules {
    /// A meal within this long before a meal reminder makes the reminder pointless.
    public static let mealWindow: TimeInterval = 2 * 3600

    /// Why the hydration reminder at `now` is skipped, or nil to post it: the day's water goal is met, or a drink
    /// (water or another) was logged within the reminder's interval, counted from that drink.
    /// The reasons stay English: they are the daemon's log lines and a `FireOutcome`, which JSON carries too.
    public static func hydrationSkip(
        at now: Date, day: IntakeDay, lastDrink: Date?, intervalMinutes: Int
    ) -> String? {
        if day.waterGoalMet {
            let unit = day.goals.volumeUnit
            return "the day's water goal is met (\(unit.format(millilitres: day.water, for: .machine)) of "
                + "\(unit.format(millilitres: day.goals.waterGoal, for: .machine)))"
        }
        if let lastDrink, lastDrink <= now, now.timeIntervalSince(lastDrink) < Double(intervalMinutes) * 60 {
            return "a drink was logged \(Int(now.timeIntervalSince(lastDrink) / 60)) minutes ago"
        }
        return nil
    }

    /// When the next hydration reminder is due after the drink at `lastDrink`: the interval counts from the drink.
    public static func hydrationDue(after lastDrink: Date, intervalMinutes: Int) -> Date {
        lastDrink.addingTimeInterval(Double(intervalMinutes) * 60)
    }

    /// Why the meal reminder at `reminder` is skipped, or nil: a meal was logged in the 2 hours before it.
    public static func mealSkip(at reminder: Date, lastMeal: Date?) -> String? {
        guard let lastMeal, lastMeal <= reminder, reminder.timeIntervalSince(lastMeal) <= mealWindow else {
            return nil
        }
        return "a meal was logged \(Int(reminder.timeIntervalSince(lastMeal) / 60)) minutes before"
    }

    /// Whether a drink took the day's water from `before` to `after` across the goal.
    public static func crossesWaterGoal(before: Int, after: Int, goal: Int) -> Bool {
        goal > 0 && before < goal && after >= goal
    }

    /// The claim that lets "water goal reached" post once on a local day, whatever is removed and logged again.
    public static func waterGoalKey(_ day: IntakeDay, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: day.day.start)
        return String(format: "water-goal@%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}

extension DesktopNotification {
    /// "Water goal reached": posted once a day, when a drink crosses the goal.
    public static func waterGoalReached(_ day: IntakeDay) -> DesktopNotification {
        let unit = day.goals.volumeUnit
        return DesktopNotification(
            // TRANSLATORS: the title of a desktop notification: keep it short.
            key: "intake.water-goal", title: tr("Water goal reached!"),
            body: tr(
                // TRANSLATORS: a notification's body: {amount} is the day's water, {goal} the daily goal ("2000 ml").
                "{amount} today, your goal is {goal}. Well done!",
                ["amount": unit.format(millilitres: day.water), "goal": unit.format(millilitres: day.goals.waterGoal)]),
            urgency: .normal, category: .intake)
    }
}
