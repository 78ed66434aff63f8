import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// Scheduled events on a temporary database, the in-memory sink and a Berlin calendar.
@Suite final class EventRunnerTests: SchedulingSuite {
    func runner(_ settings: Settings = Settings(), sink: InMemoryNotificationSink? = nil) -> EventRunner {
        EventRunner(
            database: store.database, sink: sink ?? self.sink, settings: settings, calendar: calendar,
            summaryImage: { _ in "/tmp/summary.png" })
    }

    func weighInSettings() -> Settings {
        var settings = Settings()
        settings.reminders.weighIn = true
        return settings
    }

    @Test("A summary is claimed once: a second runner at the same moment finds it already sent")
    func summaryOnce() throws {
        let sunday = calendar.date(2026, 11, 22, 9)
        try store.database.setLastRun("summary", sunday.addingTimeInterval(-7 * 86400))

        let first = try runner().sendSummaryIfDue(at: sunday.addingTimeInterval(5))
        let second = try runner().sendSummaryIfDue(at: sunday.addingTimeInterval(6))

        #expect(first?.1 == .sent(1))
        #expect(second == nil)
        #expect(sink.posted.count == 1)
        #expect(sink.posted.first?.imagePath == "/tmp/summary.png")
        #expect(try store.database.claims().map(\.sent) == [true])
        // Tagged with its week, so that a post again after a crash replaces it on screen; `w8 summary --send`
        // outside the schedule carries no tag.
        #expect(sink.posted.first?.replaceTag == "w8trackr-summary-2026-11-22")
        _ = try runner().sendSummary(at: sunday)
        #expect(sink.posted.last?.replaceTag == nil)
    }

    @Test("A summary that could not be shown is unclaimed, so the next run sends it")
    func failedSummaryIsRetried() throws {
        let sunday = calendar.date(2026, 11, 22, 9)
        try store.database.setLastRun("summary", sunday.addingTimeInterval(-7 * 86400))

        let failed = try runner(sink: InMemoryNotificationSink(failure: NoServer())).sendSummaryIfDue(at: sunday)
        let retried = try runner().sendSummaryIfDue(at: sunday.addingTimeInterval(60))

        #expect(failed.map { "\($0.1)" }?.hasPrefix("not shown") == true)
        #expect(retried?.1 == .sent(1))
    }

    @Test("A summary claimed by a run that died before posting is sent by the first run after the claim is abandoned")
    func summaryOfAKilledRunIsNotLost() throws {
        let sunday = calendar.date(2026, 11, 22, 9)
        try store.database.setLastRun("summary", sunday.addingTimeInterval(-7 * 86400))
        let key = try #require(runner().schedule.latest(.weeklySummary, atOrBefore: sunday)).key
        #expect(try store.database.claim(key, at: sunday))  // the run that is killed before it posts

        let soon = try runner().sendSummaryIfDue(at: sunday.addingTimeInterval(30))
        let later = try runner().sendSummaryIfDue(at: sunday.addingTimeInterval(AppDatabase.abandonedClaim + 1))

        #expect(soon?.1 == .alreadyClaimed)
        #expect(later?.1 == .sent(1))
        #expect(sink.posted.count == 1)
        #expect(try store.database.claims().map(\.sent) == [true])
    }

    @Test("The weigh-in reminder is skipped once a weight is logged that local day")
    func weighInSkippedAfterLogging() throws {
        let runner = runner(weighInSettings())
        let occurrence = try #require(runner.schedule.latest(.weighIn, atOrBefore: calendar.date(2026, 11, 23, 8)))
        let context = EvaluationContext(now: occurrence.date, calendar: calendar, settings: Settings())
        let tracker = Tracker(
            database: store.database, sink: InMemoryNotificationSink(), context: context,
            statusBar: CountingStatusBar())
        _ = try tracker.add(
            WeightEntry(weight: Weight(180, .lb), date: calendar.date(2026, 11, 23, 0, 5)))

        #expect(try runner.fire(occurrence, at: occurrence.date) == .skipped("a weight is already logged today"))
        #expect(sink.posted.isEmpty)
    }

    @Test("A weigh-in reminder is posted when nothing is logged, and its server id is kept to close it later")
    func weighInPosted() throws {
        let runner = runner(weighInSettings())
        let occurrence = try #require(runner.schedule.latest(.weighIn, atOrBefore: calendar.date(2026, 11, 23, 8)))

        #expect(try runner.fire(occurrence, at: occurrence.date.addingTimeInterval(2)) == .sent(1))
        #expect(sink.posted.map(\.title) == ["Time to weigh in"])
        #expect(try store.database.notificationID(forKey: Tracker.weighInReminderKey) == 1)
    }

    @Test("A reminder replaces the previous one only while it is open, and never an id kept from another process")
    func reminderReplacesOnlyAnOpenOne() throws {
        let runner = runner(weighInSettings())
        // An id a run before a restart kept: the server may have closed it long ago (Plasma then shows nothing).
        try store.database.setNotificationID(42, forKey: Tracker.weighInReminderKey, at: calendar.date(2026, 11, 22, 8))
        let monday = try #require(runner.schedule.latest(.weighIn, atOrBefore: calendar.date(2026, 11, 23, 8)))

        #expect(try runner.postReminder(.weighIn, monday.date) == .sent(1))
        #expect(try runner.postReminder(.weighIn, monday.date) == .sent(1), "still open: replaced")
        sink.serverClosed(id: 1)
        #expect(try runner.postReminder(.weighIn, monday.date) == .sent(2), "closed: a new one")

        #expect(sink.posted.allSatisfy { $0.replacesID == nil && $0.replacesOpen && $0.urgency == .normal })
        #expect(sink.posted.map(\.replaceTag) == Array(repeating: "w8trackr-reminder.weigh-in", count: 3))
        #expect(try store.database.notificationID(forKey: Tracker.weighInReminderKey) == 2)
    }

    @Test("A reminder more than 15 minutes late (after a suspend) is dropped, not shown out of its moment")
    func lateReminderDropped() throws {
        let runner = runner(weighInSettings())
        let occurrence = try #require(runner.schedule.latest(.weighIn, atOrBefore: calendar.date(2026, 11, 23, 8)))

        let outcome = try runner.fire(occurrence, at: occurrence.date.addingTimeInterval(16 * 60))

        #expect(outcome == .skipped("16 minutes late"))
        #expect(sink.posted.isEmpty)
        #expect(try store.database.claims().isEmpty)
    }
}
