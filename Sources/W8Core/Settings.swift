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

/// The person's settings, as kept in `config.toml`.
public struct Settings: Sendable, Equatable {
    public var unit: WeightUnit = .lb
    public var notifications = NotificationPreferences()
    public var summary = SummarySchedule()

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

    public var help: String {
        switch self {
        case .unit: "preferred unit for all math and messages: lb or kg"
        case .notificationsEnabled: "master switch for goal notifications"
        case .notificationsMilestones: "notify at 25/50/75/100% of the goal"
        case .notificationsApproaching: "notify when within 5 lb / 2.5 kg of the goal"
        case .summaryEnabled: "send the weekly progress summary"
        case .summaryDay: "day of the weekly summary: sun, mon, tue, wed, thu, fri or sat"
        case .summaryHour: "hour of the weekly summary, local time: 0 to 23"
        }
    }

    var expected: String {
        switch self {
        case .unit: "lb or kg"
        case .summaryDay: "sun, mon, tue, wed, thu, fri or sat"
        case .summaryHour: "a whole hour from 0 to 23"
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
