import Foundation
import Testing
import W8Core
import W8TestSupport

/// The intake log's rules: amounts, day totals across daylight-saving days, and the reminders that know.
@Suite struct IntakeTests {
    let settings = IntakeSettings()

    @Test(
        "Every amount form reads as millilitres",
        arguments: [
            ("250", 250), ("250ml", 250), ("250 ml", 250), ("0.5l", 500), ("0,5 l", 500), ("12oz", 355),
            ("cup", 250), ("bottle", 500), ("2cups", 500), ("3 cups", 750), ("1.5 bottles", 750), ("CUP", 250),
            ("5l", 5000), ("1", 1),
        ])
    func amounts(text: String, millilitres: Int) throws {
        #expect(try IntakeInput.drink(text, settings: settings) == millilitres)
    }

    @Test("Cups and bottles are the configured sizes")
    func configuredSizes() throws {
        var custom = IntakeSettings()
        custom.cup = 300
        custom.bottle = 750
        #expect(try IntakeInput.drink("2cups", settings: custom) == 600)
        #expect(try IntakeInput.drink("bottle", settings: custom) == 750)
    }

    @Test(
        "Bad amounts are refused with the value named",
        arguments: [
            ("-5", "must be more than 0"), ("0", "must be more than 0"), ("0.0004l", "must be more than 0"),
            ("abc", "is not a drink"), ("20l", "at most 5 l"), ("5001", "at most 5 l"), ("2 spoons", "is not a drink"),
            ("", "is not a drink"), ("1e3", "is not a drink"), ("--5", "is not a drink"), ("nan", "is not a drink"),
        ])
    func badAmounts(text: String, fragment: String) {
        #expect {
            try IntakeInput.drink(text, settings: settings)
        } throws: { error in
            let message = (error as? W8CoreError)?.localizedDescription ?? ""
            return message.contains("'\(text)'") && message.contains(fragment)
        }
    }

    @Test("Calories are whole numbers from 0 to 10,000", arguments: ["0", "450", "10000"])
    func calories(text: String) throws {
        #expect(try IntakeInput.calories(text) == Int(text))
    }

    @Test("Bad calories are refused", arguments: ["-1", "abc", "10001", "4.5", ""])
    func badCalories(text: String) {
        #expect(throws: W8CoreError.caloriesInvalid(text)) { try IntakeInput.calories(text) }
    }

    @Test("w8 eat takes meal or snack only")
    func food() throws {
        #expect(try IntakeInput.food("meal") == .meal)
        #expect(try IntakeInput.food("Snack") == .snack)
        #expect(throws: W8CoreError.foodUnknown("dessert")) { try IntakeInput.food("dessert") }
    }

    @Test(
        "A day's totals are that local day's events, on a 23-hour and a 25-hour day too",
        arguments: [(2026, 3, 29, 23.0), (2026, 10, 25, 25.0), (2026, 11, 23, 24.0)])
    func dayTotals(year: Int, month: Int, day: Int, hours: Double) {
        let calendar = PinnedCalendar.berlin
        let first = calendar.date(year, month, day, 0, 30)
        let last = calendar.date(year, month, day, 23, 30)
        let nextMidnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: first))!
        let events = [
            IntakeEvent(kind: .water, date: first.addingTimeInterval(-3600), volume: 999),  // the day before
            IntakeEvent(kind: .water, date: first, volume: 250),
            IntakeEvent(kind: .beverage, date: first, volume: 330, calories: 140),
            IntakeEvent(kind: .meal, date: calendar.date(year, month, day, 12), calories: 700),
            IntakeEvent(kind: .snack, date: last, calories: 0),
            IntakeEvent(kind: .water, date: last, volume: 500),
            IntakeEvent(kind: .water, date: nextMidnight, volume: 999),  // the day after
        ]

        let totals = IntakeDay(
            containing: calendar.date(year, month, day, 15), events: events, goals: settings, calendar: calendar)

        #expect(totals.day.duration == hours * 3600)
        #expect(totals.water == 750)
        #expect(totals.beverage == 330)
        #expect(totals.meals == 1 && totals.snacks == 1)
        #expect(totals.calories == 840)
    }

    @Test("Eight cups reach the 2,000 ml goal; the eighth is the one that crosses it")
    func eightCups() {
        var before = 0
        var crossings: [Int] = []
        for cup in 1...9 {
            let after = before + 250
            if IntakeRules.crossesWaterGoal(before: before, after: after, goal: 2000) { crossings.append(cup) }
            before = after
        }
        #expect(crossings == [8])
        #expect(!IntakeRules.crossesWaterGoal(before: 0, after: 5000, goal: 0))
    }

    @Test("The water-goal claim is one per local day")
    func waterGoalKey() {
        let calendar = PinnedCalendar.berlin
        let morning = IntakeDay(
            containing: calendar.date(2026, 10, 25, 1), events: [], goals: settings, calendar: calendar)
        let night = IntakeDay(
            containing: calendar.date(2026, 10, 25, 23, 59), events: [], goals: settings, calendar: calendar)
        #expect(IntakeRules.waterGoalKey(morning, calendar: calendar) == "water-goal@2026-10-25")
        #expect(
            IntakeRules.waterGoalKey(morning, calendar: calendar) == IntakeRules.waterGoalKey(night, calendar: calendar)
        )
    }

    @Test("The hydration reminder is skipped once the goal is met, and within its interval after a drink")
    func hydrationSkip() {
        let calendar = PinnedCalendar.berlin
        let now = calendar.date(2026, 11, 23, 14)
        let drinks = (0..<8).map {
            IntakeEvent(kind: .water, date: now.addingTimeInterval(Double(-$0 - 3) * 3600), volume: 250)
        }
        let met = IntakeDay(containing: now, events: drinks, goals: settings, calendar: calendar)
        let half = IntakeDay(containing: now, events: Array(drinks.prefix(4)), goals: settings, calendar: calendar)

        #expect(
            IntakeRules.hydrationSkip(at: now, day: met, lastDrink: nil, intervalMinutes: 120)?.hasPrefix(
                "the day's water goal is met") == true)
        #expect(
            IntakeRules.hydrationSkip(
                at: now, day: half, lastDrink: now.addingTimeInterval(-10 * 60), intervalMinutes: 120)
                == "a drink was logged 10 minutes ago")
        #expect(
            IntakeRules.hydrationSkip(
                at: now, day: half, lastDrink: now.addingTimeInterval(-120 * 60), intervalMinutes: 120) == nil)
        #expect(IntakeRules.hydrationSkip(at: now, day: half, lastDrink: nil, intervalMinutes: 120) == nil)
        #expect(IntakeRules.hydrationDue(after: now, intervalMinutes: 90) == now.addingTimeInterval(90 * 60))
    }

    @Test(
        "A meal reminder is skipped when a meal was logged in the 2 hours before it",
        arguments: [(-30.0, true), (-120.0, true), (-121.0, false), (5.0, false)])
    func mealSkip(minutesBefore: Double, skipped: Bool) {
        let reminder = Date(timeIntervalSince1970: 1_790_000_000)
        let meal = reminder.addingTimeInterval(minutesBefore * 60)
        #expect((IntakeRules.mealSkip(at: reminder, lastMeal: meal) != nil) == skipped)
        #expect(IntakeRules.mealSkip(at: reminder, lastMeal: nil) == nil)
    }

    @Test("Volumes show in ml or US fluid ounces")
    func volumes() {
        #expect(VolumeUnit.ml.format(millilitres: 1250) == "1250 ml")
        #expect(VolumeUnit.oz.format(millilitres: 355) == "12.0 oz")
    }
}
