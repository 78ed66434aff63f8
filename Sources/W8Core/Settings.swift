import Foundation

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
    public var mealTimes: [Meal: LocalTime] = Dictionary(uniqueKeysWithValues: Meal.allCases.map { ($0, $0.defaultTime) })
    /// A drink-water reminder every `hydrationInterval` minutes (iShnak had the unit wrong: it is minutes).
    public var hydration = false
    public var hydrationInterval = 120

    public init() {}
}

/// The person's settings, as kept in `config.toml`.
public struct Settings: Sendable, Equatable {
    public var unit: WeightUnit = .lb
    public var notifications = NotificationPreferences()
    public var summary = SummarySchedule()
    public var reminders = ReminderSettings()
    public var quietHours = QuietHours()
    /// `widget.signal`: N sends SIGRTMIN+N to the person's waybar processes on every change to the data, 0 = off.
    public var widgetSignal = 0
    /// The largest N with SIGRTMIN+N ≤ SIGRTMAX on Linux (34 + 30 = 64).
    public static let widgetSignalRange = 0...30

    public init(unit: WeightUnit = .lb, notifications: NotificationPreferences = .init(), summary: SummarySchedule = .init()) {
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

    /// How the value is written in TOML.
    public var tomlLiteral: String {
        switch self {
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .string(let s): "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }

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
    case quietHoursEnabled = "quiet_hours.enabled"
    case quietHoursStart = "quiet_hours.start"
    case quietHoursEnd = "quiet_hours.end"
    case widgetSignal = "widget.signal"

    var meal: Meal? {
        switch self {
        case .breakfast, .breakfastTime: .breakfast
        case .lunch, .lunchTime: .lunch
        case .dinner, .dinnerTime: .dinner
        default: nil
        }
    }

    var isTime: Bool {
        [.weighInTime, .streakTime, .breakfastTime, .lunchTime, .dinnerTime, .quietHoursStart, .quietHoursEnd]
            .contains(self)
    }

    public var help: String {
        switch self {
        case .unit: "preferred unit for all math and messages: lb or kg"
        case .notificationsEnabled: "master switch for goal notifications"
        case .notificationsMilestones: "notify at 25/50/75/100% of the goal"
        case .notificationsApproaching: "notify when within 5 lb / 2.5 kg of the goal"
        case .summaryEnabled: "send the weekly progress summary"
        case .summaryDay: "day of the weekly summary: sun, mon, tue, wed, thu, fri or sat"
        case .summaryHour: "hour of the weekly summary, local time: 0 to 23"
        case .weighIn: "daily weigh-in reminder, skipped once you have logged that day"
        case .weighInTime: "time of the weigh-in reminder, HH:MM"
        case .streak: "evening warning when your streak of daily weigh-ins is at risk"
        case .streakTime: "time of the streak warning, HH:MM"
        case .streakDays: "days in a row that make a streak: 2 to 60"
        case .breakfast, .lunch, .dinner: "\(meal!.rawValue) reminder"
        case .breakfastTime, .lunchTime, .dinnerTime: "time of the \(meal!.rawValue) reminder, HH:MM"
        case .hydration: "drink-water reminder at a fixed interval"
        case .hydrationInterval: "minutes between drink-water reminders: 15 to 720"
        case .quietHoursEnabled: "keep reminders silent during quiet hours"
        case .quietHoursStart: "start of quiet hours, HH:MM"
        case .quietHoursEnd: "end of quiet hours, HH:MM"
        case .widgetSignal: "refresh waybar on every change with SIGRTMIN+N (its module's signal = N): 1 to 30, 0 = off"
        }
    }

    var expected: String {
        switch self {
        case .unit: "lb or kg"
        case .summaryDay: "sun, mon, tue, wed, thu, fri or sat"
        case .summaryHour: "a whole hour from 0 to 23"
        case .streakDays: "a whole number from 2 to 60"
        case .hydrationInterval: "whole minutes from 15 to 720"
        case .widgetSignal: "a whole number from 0 (off) to 30"
        case _ where isTime: "a time HH:MM"
        default: "true or false"
        }
    }

    public func value(in settings: Settings) -> SettingValue {
        switch self {
        case .unit: .string(settings.unit.rawValue)
        case .notificationsEnabled: .bool(settings.notifications.enabled)
        case .notificationsMilestones: .bool(settings.notifications.milestones)
        case .notificationsApproaching: .bool(settings.notifications.approaching)
        case .summaryEnabled: .bool(settings.summary.enabled)
        case .summaryDay: .string(settings.summary.day.rawValue)
        case .summaryHour: .integer(settings.summary.hour)
        case .weighIn: .bool(settings.reminders.weighIn)
        case .weighInTime: .string(settings.reminders.weighInTime.description)
        case .streak: .bool(settings.reminders.streak)
        case .streakTime: .string(settings.reminders.streakTime.description)
        case .streakDays: .integer(settings.reminders.streakDays)
        case .breakfast, .lunch, .dinner: .bool(settings.reminders.meals[meal!] ?? false)
        case .breakfastTime, .lunchTime, .dinnerTime: .string((settings.reminders.mealTimes[meal!] ?? meal!.defaultTime).description)
        case .hydration: .bool(settings.reminders.hydration)
        case .hydrationInterval: .integer(settings.reminders.hydrationInterval)
        case .quietHoursEnabled: .bool(settings.quietHours.enabled)
        case .quietHoursStart: .string(settings.quietHours.start.description)
        case .quietHoursEnd: .string(settings.quietHours.end.description)
        case .widgetSignal: .integer(settings.widgetSignal)
        }
    }

    /// Sets the key from a typed value, as read from the file.
    public func apply(_ value: SettingValue, to settings: inout Settings) throws {
        let invalid = W8CoreError.invalidSettingValue(key: rawValue, value: value.description, expected: expected)
        switch (self, value) {
        case (.unit, .string(let s)):
            guard let unit = WeightUnit(rawValue: s.lowercased()) else { throw invalid }
            settings.unit = unit
        case (.notificationsEnabled, .bool(let b)): settings.notifications.enabled = b
        case (.notificationsMilestones, .bool(let b)): settings.notifications.milestones = b
        case (.notificationsApproaching, .bool(let b)): settings.notifications.approaching = b
        case (.summaryEnabled, .bool(let b)): settings.summary.enabled = b
        case (.summaryDay, .string(let s)):
            guard let day = Weekday(rawValue: String(s.lowercased().prefix(3))),
                Weekday.fullNames[day]!.hasPrefix(s.lowercased())
            else { throw invalid }
            settings.summary.day = day
        case (.summaryHour, .integer(let h)):
            guard (0...23).contains(h) else { throw invalid }
            settings.summary.hour = h
        case (.weighIn, .bool(let b)): settings.reminders.weighIn = b
        case (.streak, .bool(let b)): settings.reminders.streak = b
        case (.breakfast, .bool(let b)), (.lunch, .bool(let b)), (.dinner, .bool(let b)):
            settings.reminders.meals[meal!] = b
        case (.hydration, .bool(let b)): settings.reminders.hydration = b
        case (.quietHoursEnabled, .bool(let b)): settings.quietHours.enabled = b
        case (.streakDays, .integer(let n)):
            guard (2...60).contains(n) else { throw invalid }
            settings.reminders.streakDays = n
        case (.widgetSignal, .integer(let n)):
            guard Settings.widgetSignalRange.contains(n) else { throw invalid }
            settings.widgetSignal = n
        case (.hydrationInterval, .integer(let n)):
            guard (15...720).contains(n) else { throw invalid }
            settings.reminders.hydrationInterval = n
        case (_, .string(let text)) where isTime:
            guard let time = LocalTime(text) else { throw invalid }
            switch self {
            case .weighInTime: settings.reminders.weighInTime = time
            case .streakTime: settings.reminders.streakTime = time
            case .quietHoursStart: settings.quietHours.start = time
            case .quietHoursEnd: settings.quietHours.end = time
            default: settings.reminders.mealTimes[meal!] = time
            }
        default:
            throw invalid
        }
    }

    /// Parses a value typed on the command line (`w8 config KEY VALUE`) into the key's type.
    public func parse(_ text: String) throws -> SettingValue {
        let invalid = W8CoreError.invalidSettingValue(key: rawValue, value: text, expected: expected)
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
