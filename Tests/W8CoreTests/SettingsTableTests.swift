import Foundation
import Testing

@testable import W8Core

/// The settings table: each key's row types, bounds and stores its value, and refuses anything else untouched.
@Suite struct SettingsTableTests {
    /// A value of another TOML type than the key's own.
    static func wrongType(for value: SettingValue) -> SettingValue {
        switch value {
        case .bool: .integer(1)
        case .integer: .string("7")
        case .string: .bool(true)
        }
    }

    @Test("A value of the wrong type is refused, naming the key, and changes nothing", arguments: SettingKey.allCases)
    func wrongTypeIsRefused(key: SettingKey) {
        var settings = Settings()
        let bad = Self.wrongType(for: key.value(in: settings))
        #expect {
            try key.apply(bad, to: &settings)
        } throws: { error in
            "\(error)".contains(key.rawValue)
        }
        #expect(settings == Settings())
    }

    @Test(
        "Whole-number keys take their bounds and refuse one past them",
        arguments: [
            (SettingKey.summaryHour, 0, 23), (.streakDays, 2, 60), (.hydrationInterval, 15, 720),
            (.widgetSignal, 0, 30),
        ])
    func bounds(key: SettingKey, low: Int, high: Int) throws {
        var settings = Settings()
        for good in [low, high] {
            try key.apply(.integer(good), to: &settings)
            #expect(key.value(in: settings) == .integer(good))
        }
        let before = settings
        for bad in [low - 1, high + 1] {
            #expect(throws: W8CoreError.self) { try key.apply(.integer(bad), to: &settings) }
        }
        #expect(settings == before)
    }

    @Test("Each meal's switch and time land on that meal only", arguments: Meal.allCases)
    func mealsAreIndependent(meal: Meal) throws {
        var settings = Settings()
        let (enabled, time) = try #require(
            SettingKey.allCases.filter { $0.rawValue.hasPrefix("reminders.\(meal.rawValue)") }.sorted {
                $0.rawValue < $1.rawValue
            }.twoElements)
        try enabled.apply(.bool(true), to: &settings)
        try time.apply(.string("06:15"), to: &settings)
        #expect(settings.reminders[enabled: meal])
        #expect(settings.reminders[time: meal] == LocalTime(hour: 6, minute: 15))
        for other in Meal.allCases where other != meal {
            #expect(!settings.reminders[enabled: other])
            #expect(settings.reminders[time: other] == other.defaultTime)
        }
    }

    @Test("Every key has help text and says what it expects")
    func everyKeyIsDescribed() {
        for key in SettingKey.allCases {
            #expect(!key.help.isEmpty && !key.expected.isEmpty, "\(key)")
        }
    }
}

extension Array {
    fileprivate var twoElements: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
