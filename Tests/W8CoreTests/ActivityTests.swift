import Foundation
import Testing
import W8Core
import W8TestSupport

/// The activity log's rules: the local day, the total a day shows, and the steps people type.
@Suite struct ActivityTests {
    func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(text)) }

    @Test(
        "A day is YYYY-MM-DD of the Gregorian calendar",
        arguments: [
            ("2026-11-23", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-13-01", false),
            ("2026-1-05", false), ("26-11-23", false), ("2026-11-23T10:00", false), ("２０２６-11-23", false),
        ])
    func calendarDayText(text: String, valid: Bool) {
        #expect((CalendarDay(text) != nil) == valid)
        if valid { #expect(CalendarDay(text)?.description == text) }
    }

    @Test("The local day of an instant is the zone's, and day arithmetic crosses the clocks' change")
    func localDay() throws {
        // 23:30 in Berlin on the night the clocks go back is still the 25th there, and the 25th is 22:30 UTC.
        let lateNight = PinnedCalendar.berlin.date(2026, 10, 25, 23, 30)
        #expect(CalendarDay(lateNight, calendar: PinnedCalendar.berlin).description == "2026-10-25")
        #expect(CalendarDay(lateNight, calendar: PinnedCalendar.utc).description == "2026-10-25")
        let morning = PinnedCalendar.berlin.date(2026, 10, 26, 0, 30)
        #expect(CalendarDay(morning, calendar: PinnedCalendar.utc).description == "2026-10-25")
        #expect(CalendarDay(morning, calendar: PinnedCalendar.berlin).description == "2026-10-26")
        let sunday = try day("2026-10-25")
        #expect(sunday.adding(days: 1, calendar: PinnedCalendar.berlin).description == "2026-10-26")
        #expect(sunday.adding(days: -25, calendar: PinnedCalendar.berlin).description == "2026-09-30")
    }

    @Test("The manual total wins; imported sources are never added, and the choice among them is fixed")
    func shownTotal() throws {
        let monday = try day("2026-11-23")
        let watch = ActivityDay(day: monday, steps: 9000, distance: 6500, source: ActivitySource(rawValue: "zz-band"))
        let phone = ActivityDay(
            day: monday, steps: 12_000, distance: 8000, source: ActivitySource(rawValue: "aa-phone"))
        let manual = ActivityDay(day: monday, steps: 7000, source: .manual)

        #expect(ActivityDay.shown([watch, phone, manual]) == manual)
        #expect(ActivityDay.shown([]) == nil)
        // Not the sum (21000), and not the busiest: the precedence, then the name.
        #expect(ActivityDay.shown([watch, phone])?.steps == 12_000)
        #expect(ActivityDay.shown([watch, phone], precedence: [watch.source])?.steps == 9000)
    }

    @Test("One shown total per day, newest first")
    func shownDays() throws {
        let rows = [
            ActivityDay(day: try day("2026-11-21"), steps: 100, source: ActivitySource(rawValue: "import")),
            ActivityDay(day: try day("2026-11-23"), steps: 300, source: .manual),
            ActivityDay(day: try day("2026-11-23"), steps: 999, source: ActivitySource(rawValue: "import")),
            ActivityDay(day: try day("2026-11-22"), steps: 200, source: .manual),
        ]
        #expect(ActivityDay.shownDays(rows).map(\.steps) == [300, 200, 100])
    }

    @Test("The daily average counts the days without steps as 0; none without any")
    func dailyAverage() throws {
        let days = [
            ActivityDay(day: try day("2026-11-23"), steps: 10_000, source: .manual),
            ActivityDay(day: try day("2026-11-20"), steps: 4001, source: .manual),
        ]
        #expect(ActivityDay.dailyAverage(days, over: 7) == 2000)  // 14001 / 7 = 2000.14
        #expect(ActivityDay.dailyAverage([], over: 7) == nil)
    }

    @Test("The widget's tooltip shows today's steps only when a step goal is set")
    func tooltipSteps() {
        var entry = WidgetEntry(
            date: Date(), currentWeight: nil, unit: .kg, goalWeight: nil, entryDate: nil, trend: .unknown,
            progressPercent: nil)
        entry.steps = 6000
        #expect(entry.stepsLine == nil)
        entry.stepGoal = 8000
        #expect(
            entry.tooltip(formatDate: { _ in "" })
                == "W8Trackr: no weigh-ins yet. Log one with 'w8 add 182.4'.\nSteps 6000 of 8000 today (75%)")
    }

    @Test("Steps are a whole number from 0 to 200,000", arguments: [("0", 0), ("8000", 8000), (" 200000 ", 200_000)])
    func steps(text: String, value: Int) throws {
        #expect(try ActivityInput.steps(text) == value)
    }

    @Test(
        "Anything else is refused with the value named",
        arguments: ["-5", "abc", "", "200001", "8000.5", "1,5", "8 000", "99999999999999999999", "٣"])
    func badSteps(text: String) {
        #expect(throws: W8CoreError.stepsInvalid(text)) { try ActivityInput.steps(text) }
        #expect(W8CoreError.stepsInvalid(text).localizedDescription.hasPrefix("steps '\(text)' must be"))
    }

    @Test("activity.step_goal is 0 (off) to 100,000")
    func stepGoalKey() throws {
        var settings = Settings()
        #expect(settings.stepGoal == 0)
        try SettingKey.stepGoal.apply(try SettingKey.stepGoal.parse("8000"), to: &settings)
        #expect(settings.stepGoal == 8000)
        for bad in ["100001", "-1"] {
            #expect(throws: W8CoreError.self) {
                try SettingKey.stepGoal.apply(try SettingKey.stepGoal.parse(bad), to: &settings)
            }
        }
        #expect(settings.stepGoal == 8000)
    }
}
