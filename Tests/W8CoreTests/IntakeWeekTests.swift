import Foundation
import Testing
import W8Core
import W8TestSupport

/// The intake log in the weekly summary and the widget: averages over the 7 days, the water line.
@Suite struct IntakeWeekTests {
    let calendar = PinnedCalendar.berlin
    var now: Date { calendar.date(2026, 11, 22, 9) }

    func events(cups: Int, meals: Int, snacks: Int = 0, beverages: Int = 0) -> [IntakeEvent] {
        let start = calendar.date(2026, 11, 16, 8)
        func hour(_ n: Int) -> Date { start.addingTimeInterval(Double(n) * 3600) }
        var events: [IntakeEvent] = (0..<cups).map { IntakeEvent(kind: .water, date: hour($0), volume: 250) }
        events += (0..<meals).map { IntakeEvent(kind: .meal, date: hour($0)) }
        events += (0..<snacks).map { _ in IntakeEvent(kind: .snack, date: start) }
        events += (0..<beverages).map { _ in IntakeEvent(kind: .beverage, date: start, volume: 330) }
        return events
    }

    func summary(_ events: [IntakeEvent], unit: VolumeUnit = .ml) -> WeeklySummary {
        let entry = WeightEntry(weight: Weight(180, .lb), date: now.addingTimeInterval(-86400))
        var summary = WeeklySummary(unit: .lb, now: now, entries: [entry], before: nil, progress: nil)
        summary.intake = WeekIntake(events: events, volumeUnit: unit)
        return summary
    }

    @Test(
        "Averages are over the 7 days of the window, days with nothing logged counting as zero",
        arguments: [
            (14, 17, 500.0, 17.0 / 7.0, "Daily average: 500 ml water, 2.4 meals."),
            (8, 3, 2000.0 / 7.0, 3.0 / 7.0, "Daily average: 286 ml water, 0.4 meals."),
            (0, 0, 0.0, 0.0, "Daily average: 0 ml water, 0.0 meals."),
        ])
    func averages(cups: Int, meals: Int, water: Double, mealsPerDay: Double, sentence: String) throws {
        // A snack and another drink make the week non-empty without counting as water or meals.
        let logged = events(cups: cups, meals: meals, snacks: 1, beverages: 1)
        let week = try #require(WeekIntake(events: logged, volumeUnit: .ml))
        #expect(week.averageWaterPerDay == water)
        #expect(week.averageMealsPerDay == mealsPerDay)
        #expect(week.sentence == sentence)
    }

    @Test("Nothing logged that week: no intake in the summary, and its body is as before")
    func nothingLogged() {
        #expect(WeekIntake(events: [], volumeUnit: .ml) == nil)
        let summary = summary([])
        #expect(summary.intake == nil)
        #expect(
            summary.notification.body == "1 weigh-in, latest 180.0 lb. Set a goal with 'w8 goal' to see your progress.")
    }

    @Test("The summary's body ends with the week's averages, in the configured volume unit")
    func bodyEndsWithTheAverages() {
        #expect(
            summary(events(cups: 14, meals: 17)).notification.body
                == "1 weigh-in, latest 180.0 lb. Set a goal with 'w8 goal' to see your progress. "
                + "Daily average: 500 ml water, 2.4 meals.")
        let ounces = summary(events(cups: 14, meals: 17), unit: .oz)
        #expect(ounces.notification.body.hasSuffix("Daily average: 16.9 oz water, 2.4 meals."))
    }

    @Test("The gentle reminder of a week without weigh-ins also carries the averages")
    func gentleReminderCarriesTheAverages() {
        var summary = WeeklySummary(unit: .lb, now: now, entries: [], before: nil, progress: nil)
        summary.intake = WeekIntake(events: events(cups: 7, meals: 0), volumeUnit: .ml)
        #expect(summary.notification.title == "Time for a weigh-in?")
        #expect(summary.notification.body.hasSuffix(" Daily average: 250 ml water, 0.0 meals."))
    }

    @Test("The widget's tooltip ends with today's water against the goal; no line without a goal or water")
    func widgetWaterLine() {
        func entry(water: Int, goal: Int) -> WidgetEntry {
            var goals = IntakeSettings()
            goals.waterGoal = goal
            let day = IntakeDay(
                containing: now, events: water > 0 ? [IntakeEvent(kind: .water, date: now, volume: water)] : [],
                goals: goals, calendar: calendar)
            return WidgetEntry(
                date: now, currentWeight: 180, unit: .lb, goalWeight: nil, entryDate: now, trend: .unknown,
                progressPercent: nil, intake: day)
        }
        #expect(
            entry(water: 750, goal: 2000).tooltip { _ in "today" }
                == "W8Trackr: 180.0 lb on today\n7-day trend: not enough weigh-ins\nWater 750 of 2000 ml today (37%)")
        #expect(entry(water: 0, goal: 2000).waterLine == "Water 0 of 2000 ml today (0%)")
        #expect(entry(water: 500, goal: 0).waterLine == "Water 500 ml today")
        #expect(entry(water: 0, goal: 0).waterLine == nil)
        #expect(!entry(water: 0, goal: 0).tooltip { _ in "today" }.contains("Water"))
    }
}
