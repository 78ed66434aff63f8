import Foundation
import W8Text

/// A day of the week, written as in the config file (`sun`…`sat`).
public enum Weekday: String, Sendable, CaseIterable, Codable {
    case sun, mon, tue, wed, thu, fri, sat

    /// Foundation's weekday number: 1 is Sunday.
    public var calendarWeekday: Int { Weekday.allCases.firstIndex(of: self)! + 1 }

    public init?(calendarWeekday: Int) {
        guard (1...7).contains(calendarWeekday) else { return nil }
        self = Weekday.allCases[calendarWeekday - 1]
    }
}

/// When the weekly summary goes out (FR-010): default Sunday 09:00 local time.
public struct SummarySchedule: Sendable, Equatable {
    public var enabled: Bool = true
    public var day: Weekday = .sun
    public var hour: Int = 9

    public init(enabled: Bool = true, day: Weekday = .sun, hour: Int = 9) {
        self.enabled = enabled
        self.day = day
        self.hour = hour
    }
}

/// A meal with a reminder, from iShnak's `UserNotificationSettings`.
public enum Meal: String, Sendable, CaseIterable, Hashable {
    case breakfast, lunch, dinner

    public var defaultTime: LocalTime {
        switch self {
        case .breakfast: LocalTime(hour: 8)
        case .lunch: LocalTime(hour: 13, minute: 30)
        case .dinner: LocalTime(hour: 18)
        }
    }
}

/// The reminders the daemon fires; every one is off by default.
public struct ReminderSettings: Sendable, Equatable {
    /// A daily weigh-in reminder, skipped when a weight is already logged that day.
    public var weighIn = false
    public var weighInTime = LocalTime(hour: 7, minute: 30)
    /// An evening warning when a streak of daily weigh-ins is about to break.
    public var streak = false
    public var streakTime = LocalTime(hour: 20)
    /// How many days in a row make a streak worth warning about.
    public var streakDays = 3
    public var meals: [Meal: Bool] = [.breakfast: false, .lunch: false, .dinner: false]
    public var mealTimes: [Meal: LocalTime] = Dictionary(
        uniqueKeysWithValues: Meal.allCases.map { ($0, $0.defaultTime) })
    /// A drink-water reminder every `hydrationInterval` minutes (iShnak had the unit wrong: it is minutes).
    public var hydration = false
    public var hydrationInterval = 120
    /// Hold reminders and the summary while the person is away (locked, idle, Do Not Disturb, suspended) and show
    /// them when they are back (issue 39); false posts them at their time, as before.
    public var waitForPresence = true
    /// Minutes without input after which the person counts as away.
    public var awayAfter = 5

    public init() {}

    /// Whether the meal's reminder is on.
    public subscript(enabled meal: Meal) -> Bool {
        get { meals[meal] ?? false }
        set { meals[meal] = newValue }
    }

    /// When the meal's reminder fires.
    public subscript(time meal: Meal) -> LocalTime {
        get { mealTimes[meal] ?? meal.defaultTime }
        set { mealTimes[meal] = newValue }
    }
}

/// The person's settings, as kept in `config.toml`.
public struct Settings: Sendable, Equatable {
    public var unit: WeightUnit = .lb
    public var notifications = NotificationPreferences()
    public var summary = SummarySchedule()
    public var reminders = ReminderSettings()
    public var quietHours = QuietHours()
    /// The daily intake goals and serving sizes.
    public var intake = IntakeSettings()
    /// `notifications.intake_goals`: post "Water goal reached" once a day when a drink crosses the goal.
    public var intakeGoalNotifications = true
    /// `activity.step_goal`: the daily step goal (iShnak's `stepGoal`), 0 = off.
    public var stepGoal = 0
    /// `widget.signal`: N sends SIGRTMIN+N to the person's waybar processes on every change to the data, 0 = off.
    public var widgetSignal = 0
    /// The largest N with SIGRTMIN+N ≤ SIGRTMAX on Linux (34 + 30 = 64).
    public static let widgetSignalRange = 0...30

    public init(
        unit: WeightUnit = .lb, notifications: NotificationPreferences = .init(), summary: SummarySchedule = .init()
    ) {
        self.unit = unit
        self.notifications = notifications
        self.summary = summary
    }
}

/// A value of a setting, typed as TOML types it.
public enum SettingValue: Sendable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int)
    case string(String)

    /// How the value is shown by `w8 config`.
    public var description: String {
        switch self {
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .string(let s): s
        }
    }
}

/// Every key of `config.toml`, with its type, its default and what it means.
public enum SettingKey: String, Sendable, CaseIterable {
    case unit
    case notificationsEnabled = "notifications.enabled"
    case notificationsMilestones = "notifications.milestones"
    case notificationsApproaching = "notifications.approaching"
    case notificationsIntakeGoals = "notifications.intake_goals"
    case summaryEnabled = "summary.enabled"
    case summaryDay = "summary.day"
    case summaryHour = "summary.hour"
    case weighIn = "reminders.weigh_in"
    case weighInTime = "reminders.weigh_in_time"
    case streak = "reminders.streak"
    case streakTime = "reminders.streak_time"
    case streakDays = "reminders.streak_days"
    case breakfast = "reminders.breakfast"
    case breakfastTime = "reminders.breakfast_time"
    case lunch = "reminders.lunch"
    case lunchTime = "reminders.lunch_time"
    case dinner = "reminders.dinner"
    case dinnerTime = "reminders.dinner_time"
    case hydration = "reminders.hydration"
    case hydrationInterval = "reminders.hydration_interval"
    case waitForPresence = "reminders.wait_for_presence"
    case awayAfter = "reminders.away_after"
    case quietHoursEnabled = "quiet_hours.enabled"
    case quietHoursStart = "quiet_hours.start"
    case quietHoursEnd = "quiet_hours.end"
    case widgetSignal = "widget.signal"
    case waterGoal = "intake.water_goal_ml"
    case beverageGoal = "intake.beverage_goal_ml"
    case mealGoal = "intake.meal_goal"
    case snackGoal = "intake.snack_goal"
    case calorieGoal = "intake.calorie_goal"
    case cupSize = "intake.cup_ml"
    case bottleSize = "intake.bottle_ml"
    case mealCalories = "intake.meal_calories"
    case snackCalories = "intake.snack_calories"
    case volumeUnit = "intake.volume_unit"
    case stepGoal = "activity.step_goal"

    /// The key's row of the settings table: its help, its type, its range and where it lives in `Settings`.
    /// Every other property of a key is derived from it, so a new key is one new row.
    public var descriptor: SettingDescriptor {
        switch self {
        case .unit:
            .choice(
                // TRANSLATORS: what a setting accepts, after "expected": keep lb, kg, ml, oz and the days as written.
                "preferred unit for all math and messages: lb or kg", expected: tr("lb or kg"),
                get: { $0.unit.rawValue },
                set: { settings, text in
                    guard let unit = WeightUnit(rawValue: text.lowercased()) else { return false }
                    settings.unit = unit
                    return true
                })
        case .notificationsEnabled: .bool("master switch for goal notifications", \.notifications.enabled)
        case .notificationsMilestones: .bool("notify at 25/50/75/100% of the goal", \.notifications.milestones)
        case .notificationsApproaching:
            .bool("notify when within 5 lb / 2.5 kg of the goal", \.notifications.approaching)
        case .notificationsIntakeGoals:
            .bool("notify once a day when a drink reaches the water goal", \.intakeGoalNotifications)
        case .summaryEnabled: .bool("send the weekly progress summary", \.summary.enabled)
        case .summaryDay:
            .choice(
                "day of the weekly summary: sun, mon, tue, wed, thu, fri or sat",
                // TRANSLATORS: keep sun, mon, tue, wed, thu, fri and sat as written: people type them.
                expected: tr("sun, mon, tue, wed, thu, fri or sat"), get: { $0.summary.day.rawValue },
                set: { settings, text in
                    let text = text.lowercased()
                    guard let day = Weekday(rawValue: String(text.prefix(3))), Weekday.fullNames[day]!.hasPrefix(text)
                    else { return false }
                    settings.summary.day = day
                    return true
                })
        case .summaryHour:
            .integer(
                "hour of the weekly summary, local time: 0 to 23", \.summary.hour, 0...23,
                expected: tr("a whole hour from 0 to 23"))
        case .weighIn: .bool("daily weigh-in reminder, skipped once you have logged that day", \.reminders.weighIn)
        case .weighInTime: .time("time of the weigh-in reminder, HH:MM", \.reminders.weighInTime)
        case .streak: .bool("evening warning when your streak of daily weigh-ins is at risk", \.reminders.streak)
        case .streakTime: .time("time of the streak warning, HH:MM", \.reminders.streakTime)
        case .streakDays:
            .integer(
                "days in a row that make a streak: 2 to 60", \.reminders.streakDays, 2...60,
                expected: tr("a whole number from 2 to 60"))
        case .breakfast: Self.mealSwitch(.breakfast)
        case .breakfastTime: Self.mealTime(.breakfast)
        case .lunch: Self.mealSwitch(.lunch)
        case .lunchTime: Self.mealTime(.lunch)
        case .dinner: Self.mealSwitch(.dinner)
        case .dinnerTime: Self.mealTime(.dinner)
        case .hydration: .bool("drink-water reminder at a fixed interval", \.reminders.hydration)
        case .hydrationInterval:
            .integer(
                "minutes between drink-water reminders: 15 to 720", \.reminders.hydrationInterval, 15...720,
                expected: tr("whole minutes from 15 to 720"))
        case .waitForPresence:
            .bool(
                "hold reminders while you are away (screen locked, idle, do not disturb) and show them when you are back",
                \.reminders.waitForPresence)
        case .awayAfter:
            .integer(
                "minutes without input after which you count as away: 1 to 120", \.reminders.awayAfter, 1...120,
                expected: tr("whole minutes from 1 to 120"))
        case .quietHoursEnabled: .bool("keep reminders silent during quiet hours", \.quietHours.enabled)
        case .quietHoursStart: .time("start of quiet hours, HH:MM", \.quietHours.start)
        case .quietHoursEnd: .time("end of quiet hours, HH:MM", \.quietHours.end)
        case .widgetSignal:
            .integer(
                "refresh waybar on every change with SIGRTMIN+N (its module's signal = N): 1 to 30, 0 = off",
                \.widgetSignal, Settings.widgetSignalRange, expected: tr("a whole number from 0 (off) to 30"))
        case .waterGoal:
            .integer(
                "daily water goal in ml: 0 (off) to 20000", \.intake.waterGoal, 0...20_000,
                expected: tr("whole millilitres from 0 (off) to 20000"))
        case .beverageGoal:
            .integer(
                "daily goal for other drinks in ml: 0 (off) to 20000", \.intake.beverageGoal, 0...20_000,
                expected: tr("whole millilitres from 0 (off) to 20000"))
        case .mealGoal:
            .integer(
                "meals a day: 0 (off) to 10", \.intake.mealGoal, 0...10, expected: tr("a whole number from 0 to 10"))
        case .snackGoal:
            .integer(
                "snacks a day: 0 (off) to 20", \.intake.snackGoal, 0...20, expected: tr("a whole number from 0 to 20"))
        case .calorieGoal:
            .integer(
                "daily calorie goal in kcal: 0 (off) to 20000", \.intake.calorieGoal, 0...20_000,
                expected: tr("whole kcal from 0 (off) to 20000"))
        case .cupSize:
            .integer(
                "ml in a cup: 1 to 5000", \.intake.cup, 1...IntakeSettings.maxDrink,
                expected: tr("whole millilitres from 1 to 5000"))
        case .bottleSize:
            .integer(
                "ml in a bottle: 1 to 5000", \.intake.bottle, 1...IntakeSettings.maxDrink,
                expected: tr("whole millilitres from 1 to 5000"))
        case .mealCalories:
            .integer(
                "kcal a meal counts without --calories: 0 (none) to 10000", \.intake.mealCalories,
                0...IntakeSettings.maxCalories, expected: tr("whole kcal from 0 to 10000"))
        case .snackCalories:
            .integer(
                "kcal a snack counts without --calories: 0 (none) to 10000", \.intake.snackCalories,
                0...IntakeSettings.maxCalories, expected: tr("whole kcal from 0 to 10000"))
        case .volumeUnit:
            .choice(
                "how volumes are shown: ml or oz (US fluid ounces)", expected: tr("ml or oz"),
                get: { $0.intake.volumeUnit.rawValue },
                set: { settings, text in
                    guard let unit = VolumeUnit(rawValue: text.lowercased()) else { return false }
                    settings.intake.volumeUnit = unit
                    return true
                })
        case .stepGoal:
            .integer(
                "daily step goal: 0 (off) to 100000", \.stepGoal, 0...ActivityDay.maxStepGoal,
                expected: tr("whole steps from 0 (off) to 100000"))
        }
    }

    private static func mealSwitch(_ meal: Meal) -> SettingDescriptor {
        .bool("\(meal.rawValue) reminder", \.reminders[enabled: meal])
    }

    private static func mealTime(_ meal: Meal) -> SettingDescriptor {
        .time("time of the \(meal.rawValue) reminder, HH:MM", \.reminders[time: meal])
    }

    public var help: String { descriptor.help }

    var expected: String { descriptor.expectedText() }

    public func value(in settings: Settings) -> SettingValue { descriptor.get(settings) }

    /// Sets the key from a typed value, as read from the file.
    public func apply(_ value: SettingValue, to settings: inout Settings) throws {
        guard descriptor.set(&settings, value) else {
            throw W8CoreError.invalidSettingValue(key: rawValue, value: value.description, expected: expected)
        }
    }

    /// Parses a value typed on the command line (`w8 config KEY VALUE`) into the key's type.
    public func parse(_ text: String) throws -> SettingValue {
        var invalid: W8CoreError { .invalidSettingValue(key: rawValue, value: text, expected: expected) }
        switch value(in: Settings()) {
        case .bool:
            switch text.lowercased() {
            case "true", "on", "yes", "1": return .bool(true)
            case "false", "off", "no", "0": return .bool(false)
            default: throw invalid
            }
        case .integer:
            guard let i = Int(text) else { throw invalid }
            return .integer(i)
        case .string:
            return .string(text.lowercased())
        }
    }
}

extension Weekday {
    static let fullNames: [Weekday: String] = [
        .sun: "sunday", .mon: "monday", .tue: "tuesday", .wed: "wednesday", .thu: "thursday", .fri: "friday",
        .sat: "saturday",
    ]
}

/// One row of the settings table: what a key means, what it accepts, and how it reads and writes `Settings`.
public struct SettingDescriptor: Sendable {
    public let help: String
    /// What a valid value looks like, for the error that refuses another: translated only then, so that reading
    /// the config file loads no catalog.
    let expectedText: @Sendable () -> String
    let get: @Sendable (Settings) -> SettingValue
    /// Stores the value if it has the key's type and range; false otherwise, and `settings` is left as it was.
    let set: @Sendable (inout Settings, SettingValue) -> Bool

    /// `true` or `false`.
    static func bool(_ help: String, _ path: WritableKeyPath<Settings, Bool> & Sendable) -> SettingDescriptor {
        SettingDescriptor(
            // TRANSLATORS: what a setting accepts, after "expected": keep true and false as written.
            help: help, expectedText: { tr("true or false") }, get: { .bool($0[keyPath: path]) },
            set: { settings, value in
                guard case .bool(let flag) = value else { return false }
                settings[keyPath: path] = flag
                return true
            })
    }

    /// A whole number within `range`.
    static func integer(
        _ help: String, _ path: WritableKeyPath<Settings, Int> & Sendable, _ range: ClosedRange<Int>,
        expected: @autoclosure @escaping @Sendable () -> String
    ) -> SettingDescriptor {
        SettingDescriptor(
            help: help, expectedText: expected, get: { .integer($0[keyPath: path]) },
            set: { settings, value in
                guard case .integer(let number) = value, range.contains(number) else { return false }
                settings[keyPath: path] = number
                return true
            })
    }

    /// A local time, `HH:MM`.
    static func time(_ help: String, _ path: WritableKeyPath<Settings, LocalTime> & Sendable) -> SettingDescriptor {
        SettingDescriptor(
            // TRANSLATORS: what a setting accepts, after "expected": keep HH:MM as written.
            help: help, expectedText: { tr("a time HH:MM") }, get: { .string($0[keyPath: path].description) },
            set: { settings, value in
                guard case .string(let text) = value, let time = LocalTime(text) else { return false }
                settings[keyPath: path] = time
                return true
            })
    }

    /// A word from a closed set, checked by `set`.
    static func choice(
        _ help: String, expected: @autoclosure @escaping @Sendable () -> String,
        get: @escaping @Sendable (Settings) -> String,
        set: @escaping @Sendable (inout Settings, String) -> Bool
    ) -> SettingDescriptor {
        SettingDescriptor(
            help: help, expectedText: expected, get: { .string(get($0)) },
            set: { settings, value in
                guard case .string(let text) = value else { return false }
                return set(&settings, text)
            })
    }
}
