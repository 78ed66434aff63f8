import Foundation
import Testing
import W8TestSupport

@testable import W8Core

func settings(_ edit: (inout Settings) -> Void = { _ in }) -> Settings {
    var s = Settings()
    edit(&s)
    return s
}

@Suite struct ScheduleTests {
    static let hours = [0, 1, 9, 12, 23]

    // Next-fire for every weekday and a spread of hours, from a Wednesday noon in Berlin.
    @Test(arguments: Weekday.allCases, hours)
    func weeklySummaryNextFire(day: Weekday, hour: Int) throws {
        let cal = PinnedCalendar.berlin
        let now = cal.date(2026, 11, 18, 12)  // Wednesday
        let schedule = Schedule(
            settings: settings {
                $0.summary.day = day
                $0.summary.hour = hour
            }, calendar: cal)
        let next = try #require(schedule.next(.weeklySummary, after: now))
        let c = cal.dateComponents([.weekday, .hour, .minute, .second], from: next.date)
        #expect(c.weekday == day.calendarWeekday)
        #expect(c.hour == hour && c.minute == 0 && c.second == 0)
        #expect(next.date > now)
        #expect(next.date.timeIntervalSince(now) <= 7 * 86400)
        // And the one after is a week later in wall-clock terms.
        let after = try #require(schedule.next(.weeklySummary, after: next.date))
        #expect(cal.dateComponents([.day], from: next.date, to: after.date).day == 7)
    }

    /// A weigh-in reminder at `time` every day in `zone`, quiet hours off.
    func weighInSchedule(zone: String, time: LocalTime) -> (Calendar, Schedule) {
        let cal = PinnedCalendar.gregorian(zone)
        let schedule = Schedule(
            settings: settings {
                $0.reminders.weighIn = true
                $0.reminders.weighInTime = time
                $0.quietHours.enabled = false
            }, calendar: cal)
        return (cal, schedule)
    }

    // A time that does not exist fires once, at the first valid time after it; the next day is normal.
    @Test(arguments: [
        ("Europe/Berlin", 2026, 3, 29, LocalTime(hour: 2, minute: 30), 3, 0),
        ("America/New_York", 2026, 3, 8, LocalTime(hour: 2, minute: 30), 3, 0),
        ("America/New_York", 2026, 3, 8, LocalTime(hour: 2, minute: 0), 3, 0),
    ])
    func springForwardGap(zone: String, y: Int, m: Int, d: Int, time: LocalTime, hour: Int, minute: Int) throws {
        let (cal, schedule) = weighInSchedule(zone: zone, time: time)
        let dayBefore = cal.date(y, m, d - 1, 12)
        let fire = try #require(schedule.next(.weighIn, after: dayBefore))
        #expect(
            cal.dateComponents([.day, .hour, .minute], from: fire.date)
                == DateComponents(day: d, hour: hour, minute: minute))
        let next = try #require(schedule.next(.weighIn, after: fire.date))
        #expect(
            cal.dateComponents([.day, .hour, .minute], from: next.date)
                == DateComponents(day: d + 1, hour: time.hour, minute: time.minute))
    }

    // A time that happens twice fires once, at its first pass.
    @Test(arguments: [
        ("Europe/Berlin", 2026, 10, 25, LocalTime(hour: 2, minute: 30), 3600.0),
        ("America/New_York", 2026, 11, 1, LocalTime(hour: 1, minute: 30), -4 * 3600.0),
    ])
    func fallBackRepeatedHour(zone: String, y: Int, m: Int, d: Int, time: LocalTime, firstPassOffset: Double) throws {
        let (cal, schedule) = weighInSchedule(zone: zone, time: time)
        let fire = try #require(schedule.next(.weighIn, after: cal.date(y, m, d - 1, 12)))
        #expect(cal.timeZone.secondsFromGMT(for: fire.date) == Int(firstPassOffset) + (firstPassOffset > 0 ? 3600 : 0))
        // After the first pass, the second pass of the same wall-clock time does not fire again.
        let next = try #require(schedule.next(.weighIn, after: fire.date))
        #expect(next.date.timeIntervalSince(fire.date) > 23 * 3600)
        #expect(next.key != fire.key)
    }

    // Berlin's spring-forward day is a Sunday: a 02:00 summary goes out at 03:00.
    @Test func summaryOnTheSpringForwardSunday() throws {
        let cal = PinnedCalendar.berlin
        let schedule = Schedule(settings: settings { $0.summary.hour = 2 }, calendar: cal)
        let fire = try #require(schedule.next(.weeklySummary, after: cal.date(2026, 3, 28, 12)))
        #expect(cal.dateComponents([.day, .hour], from: fire.date) == DateComponents(day: 29, hour: 3))
        #expect(fire.key == "summary@2026-03-29T02:00")
    }

    @Test func quietHoursSilenceRemindersNotTheSummary() throws {
        let cal = PinnedCalendar.berlin
        let s = settings {
            $0.reminders.weighIn = true
            $0.reminders.weighInTime = LocalTime(hour: 6, minute: 30)
            $0.summary.hour = 6
        }
        let schedule = Schedule(settings: s, calendar: cal)
        #expect(schedule.next(.weighIn, after: cal.date(2026, 11, 18, 0)) == nil)
        #expect(schedule.next(.weeklySummary, after: cal.date(2026, 11, 18, 0)) != nil)
        #expect(QuietHours().contains(LocalTime(hour: 23)))
        #expect(QuietHours().contains(LocalTime(hour: 6, minute: 59)))
        #expect(!QuietHours().contains(LocalTime(hour: 7)))
        #expect(
            QuietHours(start: LocalTime(hour: 13), end: LocalTime(hour: 14)).contains(LocalTime(hour: 13, minute: 30)))
        #expect(!QuietHours(enabled: false).contains(LocalTime(hour: 23)))
    }

    // The hydration interval is minutes (iShnak's unit mix-up fixed), from the end of quiet hours.
    @Test func hydrationEveryIntervalMinutes() throws {
        let cal = PinnedCalendar.utc
        let schedule = Schedule(
            settings: settings {
                $0.reminders.hydration = true
                $0.reminders.hydrationInterval = 90
            }, calendar: cal)
        var times: [String] = []
        var t = cal.date(2026, 11, 18, 0)
        while let next = schedule.next(.hydration, after: t), next.date < cal.date(2026, 11, 19, 0) {
            times.append(cal.localTime(of: next.date).description)
            t = next.date
        }
        #expect(times == ["07:00", "08:30", "10:00", "11:30", "13:00", "14:30", "16:00", "17:30", "19:00", "20:30"])
    }

    @Test func mealDefaults() throws {
        let cal = PinnedCalendar.utc
        let s = settings { s in
            for meal in Meal.allCases { s.reminders[enabled: meal] = true }
        }
        let upcoming = Schedule(settings: s, calendar: cal).upcoming(after: cal.date(2026, 11, 18, 0))
        #expect(
            upcoming.map(\.key) == [
                "breakfast@2026-11-18T08:00", "lunch@2026-11-18T13:30", "dinner@2026-11-18T18:00",
                "summary@2026-11-22T09:00",
            ])
    }

    @Test func disabledSummaryIsNeitherScheduledNorDue() {
        let cal = PinnedCalendar.berlin
        let schedule = Schedule(settings: settings { $0.summary.enabled = false }, calendar: cal)
        #expect(schedule.upcoming(after: cal.date(2026, 11, 18, 0)).isEmpty)
        #expect(schedule.dueSummary(lastRun: nil, now: cal.date(2026, 11, 22, 9)) == nil)
    }
}

@Suite struct CatchUpTests {
    let cal = PinnedCalendar.berlin
    var schedule: Schedule { Schedule(settings: Settings(), calendar: cal) }  // Sunday 09:00

    @Test func firstRunSendsOnlyWithinTheHour() {
        #expect(
            schedule.dueSummary(lastRun: nil, now: cal.date(2026, 11, 22, 9, 0, 0))?.key == "summary@2026-11-22T09:00")
        #expect(schedule.dueSummary(lastRun: nil, now: cal.date(2026, 11, 22, 9, 59)) != nil)
        #expect(schedule.dueSummary(lastRun: nil, now: cal.date(2026, 11, 22, 10, 1)) == nil)
        // Installed on a Wednesday: last Sunday's summary is not sent.
        #expect(schedule.dueSummary(lastRun: nil, now: cal.date(2026, 11, 25, 12)) == nil)
    }

    @Test func missedWhileOffIsSentOnceAndOnlyTheLatest() {
        let lastRun = cal.date(2026, 11, 1, 12)  // three Sundays missed
        let due = schedule.dueSummary(lastRun: lastRun, now: cal.date(2026, 11, 24, 8))
        #expect(due?.key == "summary@2026-11-22T09:00")
        #expect(schedule.dueSummary(lastRun: cal.date(2026, 11, 24, 8), now: cal.date(2026, 11, 24, 9)) == nil)
    }

    @Test func notDueBeforeItsTime() {
        #expect(schedule.dueSummary(lastRun: cal.date(2026, 11, 22, 8), now: cal.date(2026, 11, 22, 8, 59, 59)) == nil)
        #expect(
            schedule.dueSummary(lastRun: cal.date(2026, 11, 22, 8), now: cal.date(2026, 11, 22, 9))?.key
                == "summary@2026-11-22T09:00")
    }

    // A config change moves the occurrence: the new day and hour count from the next run on.
    @Test func configChangeMovesTheOccurrence() {
        let monday = Schedule(
            settings: settings {
                $0.summary.day = .mon
                $0.summary.hour = 18
            }, calendar: cal)
        #expect(
            monday.dueSummary(lastRun: cal.date(2026, 11, 23, 17), now: cal.date(2026, 11, 23, 18))?.key
                == "summary@2026-11-23T18:00")
        #expect(monday.next(.weeklySummary, after: cal.date(2026, 11, 23, 18))?.key == "summary@2026-11-30T18:00")
    }
}

@Suite struct WeeklySummaryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func entry(_ daysAgo: Double, _ value: Double, _ unit: WeightUnit = .lb) -> WeightEntry {
        WeightEntry(
            id: Int64(100 - daysAgo), weight: Weight(value, unit), date: now.addingTimeInterval(-daysAgo * 86400))
    }

    @Test(arguments: [
        ([(6.0, 180.0), (1, 178.0)], WeightTrend.down), ([(6, 180), (1, 180.4)], .stable),
        ([(5, 180), (0.5, 181)], .up),
        ([(3, 180)], .unknown),
    ])
    func trendFromTheWeek(points: [(Double, Double)], trend: WeightTrend) {
        let s = WeeklySummary(
            unit: .lb, now: now, entries: points.map { entry($0.0, $0.1) }, before: nil, progress: nil)
        #expect(s.trend == trend)
    }

    // The change is measured from the latest entry before the week when there is one.
    @Test func changeFromTheEntryBeforeTheWeek() throws {
        let s = WeeklySummary(
            unit: .kg, now: now, entries: [entry(2, 80, .kg)], before: entry(9, 81, .kg), progress: nil)
        #expect(s.trend == .down)
        #expect(try #require(s.change) == -1)
        #expect(s.notification.title == "Your week: down 1.0 kg")
        #expect(s.notification.category == .summary)
    }

    @Test func gentleReminderWithoutEntries() {
        let s = WeeklySummary(unit: .lb, now: now, entries: [], before: entry(9, 180), progress: nil)
        #expect(s.notification.title == "Time for a weigh-in?")
        #expect(s.trend == .unknown)
    }

    @Test func progressInTheBodyAndLimits() {
        let progress = GoalProgress(
            start: Weight(200, .lb), current: Weight(178, .lb), goal: Weight(160, .lb), unit: .lb)
        let s = WeeklySummary(
            unit: .lb, now: now, entries: [entry(6, 1543), entry(1, 178)], before: nil, progress: progress)
        let n = s.notification
        #expect(n.body.contains("55.0% of the way to 160.0 lb, 18.0 lb to go"))
        #expect(n.title.count <= 50 && n.body.count <= 150)
    }

    @Test func streaks() {
        let cal = PinnedCalendar.berlin
        let today = cal.date(2026, 3, 30, 20)
        let dates = [
            cal.date(2026, 3, 29, 8), cal.date(2026, 3, 28, 23, 59), cal.date(2026, 3, 27, 7), cal.date(2026, 3, 25, 7),
        ]
        #expect(Streak.daysBefore(today, dates: dates, calendar: cal) == 3)
        #expect(Streak.daysBefore(today, dates: [], calendar: cal) == 0)
    }
}
