import Foundation
import Testing
import W8Core
import W8TestHarness
import W8TestSupport

/// The day this file's history is told from: the test clock's Sunday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let sunday = TestClock.daysBack(to: 1)

/// The built `w8 daemon` and `w8 summary --send --if-due` under faketime, posting to a real dunst.
@Suite(.serialized, .ownThread) struct CLISchedulerTests {
    func faketime(_ w8: W8Sandbox, at start: String, _ arguments: [String]) throws -> W8Run {
        try w8.run(clock: "@\(start)", arguments)
    }

    func seedWeek(_ w8: W8Sandbox) throws {
        try w8.run("add", "180", "--date", "\(TestClock.day(sunday - 12))")
        try w8.run("goal", "160", "--date", "\(TestClock.day(sunday - 12))")
        try w8.run("add", "178", "--date", "\(TestClock.day(sunday - 4))")
        try w8.run("add", "176", "--date", "\(TestClock.day(sunday - 1))T08:00")
    }

    /// `w8 summary --send --if-due` on Sunday at 09:00, on a new dunst, in a sandbox that `setUp` prepared: the run,
    /// and the summaries of what dunst showed.
    func dueSummaryOnNewDunst(_ setUp: (W8Sandbox) throws -> Void) throws -> (run: W8Run, shown: [String]) {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try setUp(w8)
        let run = try faketime(w8, at: "\(TestClock.day(sunday)) 09:00:00", ["summary", "--send", "--if-due"])
        return (run, try dunst.history().map(\.summary))
    }

    /// A seeded week on a new dunst and the daemon started under faketime at `fakeStart`: stop the daemon, then dunst.
    func weekWithDaemon(from fakeStart: String) throws -> (DunstSession, W8Sandbox, DaemonProcess) {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        do {
            try seedWeek(w8)
            return (dunst, w8, try DaemonProcess(w8, fakeStart: fakeStart))
        } catch {
            dunst.stop()
            throw error
        }
    }

    // The daemon posts the summary at the configured time, not before.
    @Test func daemonSendsTheSummaryOnTime() throws {
        let (dunst, w8, daemon) = try weekWithDaemon(from: "\(TestClock.day(sunday)) 08:59:57")
        defer { dunst.stop() }
        defer { daemon.stop() }
        // The daemon logs its plan when it starts: the summary at 09:00, three seconds ahead, and nothing sent yet.
        try daemon.waitForLog("started; next: summary@\(TestClock.day(sunday))T09:00", timeout: 5)
        #expect(try dunst.displayedCount() == 0, "sent early; log: \(daemon.log)")
        try daemon.waitForLog("summary@\(TestClock.day(sunday))T09:00: sent", timeout: 6)
        #expect(
            daemon.log.components(separatedBy: "\n").filter { $0.contains(": sent") }.count == 1,
            "one send, after the plan: \(daemon.log)")
        let shown = try dunst.history()
        #expect(shown.map(\.summary) == ["Your week: down 4.0 lb"])
        #expect(shown.first?.category == "x-w8trackr.summary")
        // Trend: 180, then 1 − 0.9^8 of the way to 178 (178.86), then 1 − 0.9^3.33 of the way to 176; too few
        // weigh-ins this week for a rate.
        #expect(
            shown.first?.displayedBody
                == "2 weigh-ins, latest 176.0 lb. 20.0% of the way to 160.0 lb, 16.0 lb to go. Trend 178.0 lb.")
        // Two timer runs right after: nothing more.
        for _ in 0..<2 {
            let run = try faketime(w8, at: "\(TestClock.day(sunday)) 09:00:05", ["summary", "--send", "--if-due"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("already sent") || run.stdout.contains("not due"), "\(run.stdout)")
        }
        #expect(try dunst.history().count == 1)  // dunst's history keeps the first one
        let stopped = daemon.stop()
        #expect(stopped == 0)
        #expect(daemon.log.contains("stopping"))
    }

    // A due summary that no server could show (the catch-up at login, before the desktop's server exists) exits 69,
    // so that the summary service's Restart=on-failure tries again, and stays unsent: the next run sends it.
    @Test func anUnshownSummaryExits69AndIsSentByTheNextRun() throws {
        let alone = try W8Sandbox()
        try seedWeek(alone)
        let failed = try faketime(alone, at: "\(TestClock.day(sunday)) 09:00:05", ["summary", "--send", "--if-due"])
        #expect(failed.status == 69, "\(failed.stdout) \(failed.stderr)")
        #expect(failed.stderrLines.count == 1 && failed.stderr.contains("summary not shown"), "\(failed.stderr)")

        // The same home on a desktop with a server, two minutes later: sent.
        let dunst = try DunstSession()
        defer { dunst.stop() }
        let w8 = try W8Sandbox(bus: dunst.bus)
        try? FileManager.default.removeItem(at: w8.root.appendingPathComponent("data"))
        try FileManager.default.copyItem(
            at: alone.root.appendingPathComponent("data"), to: w8.root.appendingPathComponent("data"))
        let retried = try faketime(w8, at: "\(TestClock.day(sunday)) 09:02:05", ["summary", "--send", "--if-due"])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(try dunst.history().map(\.summary) == ["Your week: down 4.0 lb"])
    }

    // An empty week gets the gentle reminder (US3-2).
    @Test func emptyWeekGetsAGentleReminder() throws {
        let (run, shown) = try dueSummaryOnNewDunst {
            try $0.run("add", "180", "--date", "\(TestClock.day(sunday - 21))")
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(shown == ["Time for a weigh-in?"])
    }

    // Disabled: nothing, ever (US3-3).
    @Test func disabledSendsNothing() throws {
        let (run, shown) = try dueSummaryOnNewDunst {
            try seedWeek($0)
            try $0.run("config", "summary.enabled", "false")
        }
        #expect(run.status == 0)
        #expect(run.stdout.contains("disabled"))
        #expect(shown.isEmpty)
    }

    // Eight timer runs at once on the hour: exactly one notification.
    @Test func racingTimerRunsSendOnce() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try seedWeek(w8)
        let runs = LockedRuns()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            runs.append(
                Result { try faketime(w8, at: "\(TestClock.day(sunday)) 09:00:00", ["summary", "--send", "--if-due"]) })
        }
        let outputs = try runs.items.map { try $0.get() }
        #expect(outputs.allSatisfy { $0.status == 0 })
        #expect(outputs.filter { $0.stdout.contains(": sent") }.count == 1, "\(outputs.map(\.stdout))")
        #expect(try dunst.history().count == 1)
    }

    // A config change reaches a running daemon without a restart.
    @Test func daemonPicksUpConfigChanges() throws {
        let (dunst, w8, daemon) = try weekWithDaemon(from: "\(TestClock.day(sunday)) 09:30:00")
        defer { dunst.stop() }
        defer { daemon.stop() }
        try daemon.waitForLog("started", timeout: 5)
        let changed = Date()
        try w8.run("config", "summary.hour", "10")
        try daemon.waitForLog("next: summary@\(TestClock.day(sunday))T10:00", timeout: 2)
        #expect(Date().timeIntervalSince(changed) < 2 * testTimeScale)
        daemon.stop()
    }
}

final class LockedRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var _items: [Result<W8Run, Error>] = []
    func append(_ item: Result<W8Run, Error>) { lock.withLock { _items.append(item) } }
    var items: [Result<W8Run, Error>] { lock.withLock { _items } }
}

/// Reminders from the daemon, and their closing when the person weighs in.
@Suite(.serialized, .ownThread) struct CLIReminderTests {
    @Test func weighInReminderFiresAndLoggingClosesIt() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try w8.run("config", "reminders.weigh_in", "true")
        try w8.run("config", "summary.enabled", "false")
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 07:29:58")
        defer { daemon.stop() }
        try daemon.waitForLog("weigh-in@\(TestClock.day(sunday))T07:30: sent", timeout: 6)
        #expect(try dunst.displayedCount() == 1)
        // Logging a weight closes the reminder, from another process, by the id kept in the store.
        #expect(try w8.run("add", "180").status == 0)
        #expect(try dunst.displayedCount() == 0)
        let shown = try dunst.history()
        #expect(shown.map(\.category) == ["x-w8trackr.reminder"])
        // Normal urgency: GNOME shows no banner for a low one, Plasma keeps none in its history.
        #expect(shown.first?.urgency == .normal)
        #expect(daemon.stop() == 0)
    }

    @Test func daemonWithAnEmptyWeekSendsTheGentleReminderAndDisabledSendsNothing() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 08:59:58")
        try daemon.waitForLog("summary@\(TestClock.day(sunday))T09:00: sent", timeout: 6)
        #expect(daemon.stop() == 0)
        #expect(try dunst.history().map(\.summary) == ["Time for a weigh-in?"])
        try w8.run("config", "summary.enabled", "false")
        let off = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday + 7)) 08:59:58")
        // Its log says it plans nothing, which is the decision not to post: no need to watch for 3 seconds.
        try off.waitForLog("started; no events enabled", timeout: 5)
        #expect(off.stop() == 0)
        #expect(!off.log.contains("sent"))
        #expect(try dunst.history().count == 1)
    }

    @Test func scheduleListsEnabledEvents() throws {
        let w8 = try W8Sandbox()
        try w8.run("config", "reminders.lunch", "on")
        let events = try #require(try w8.json("schedule") as? [[String: Any]])
        #expect(Set(events.compactMap { $0["event"] as? String }) == ["lunch", "summary"])
        #expect(events.allSatisfy { ($0["at"] as? String)?.count == 25 })
    }
}
