import Foundation
import Testing
import W8TestHarness

/// A Monday before the test clock's start, as `YYYY-MM-DD`.
private let monday = TestClock.day(TestClock.daysBack(to: 2))

/// Issue 39 through the real daemon on dunst: reminders that fall due while the person is away (the session
/// locked through a logind stand-in, dunst paused, the machine suspended) are held and shown once when they are back.
/// The daemon's clock runs 60 times faster, so the 15-minute reminders come every 15 real seconds.
@Suite(.serialized, .ownThread) struct PresenceCLITests {
    /// Runs `body` on a new dunst whose system bus is a new logind stand-in's, with water reminders every 15
    /// minutes from 07:00 (the weigh-in, off unless `settings` turn it on, at 09:10) and `settings`; stops both after.
    static func withSession(
        _ settings: KeyValuePairs<String, String> = [:], _ body: (DunstSession, LogindStandIn, W8Sandbox) throws -> Void
    ) throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let logind = try LogindStandIn()
        defer { logind.stop() }
        w8.environment["DBUS_SYSTEM_BUS_ADDRESS"] = logind.address
        try w8.configure([
            "reminders.hydration": "true", "reminders.hydration_interval": "15", "summary.enabled": "false",
            "reminders.weigh_in_time": "09:10",
        ])
        try w8.configure(settings)
        try body(dunst, logind, w8)
    }

    /// The daemon from `start` on `monday`, 60 times faster, once its log says `first`.
    static func daemon(_ w8: W8Sandbox, from start: String, once first: String) throws -> DaemonProcess {
        let daemon = try DaemonProcess(w8, fakeStart: "\(monday) \(start) x60")
        try daemon.waitForLog(first, timeout: 10)
        return daemon
    }

    /// The daemon from 08:58 with dunst paused, once it has held the 09:00 water reminder for that.
    static func heldWhilePaused(_ dunst: DunstSession, _ w8: W8Sandbox) throws -> DaemonProcess {
        try dunst.setPaused(true)
        let daemon = try Self.daemon(w8, from: "08:58:00", once: "dunst paused away")
        try daemon.waitForLog("hydration@\(monday)T09:00: held: do not disturb (dunst)", timeout: 10)
        return daemon
    }

    /// Every notification dunst holds or held: on screen, waiting, or in its history.
    static func everything(_ dunst: DunstSession) throws -> Int {
        try dunst.onScreenCount() + dunst.count("history")
    }

    /// The summaries in dunst's history, oldest first (`history()` closes what is on screen first).
    static func shown(_ dunst: DunstSession) throws -> [String] { try dunst.history().map(\.summary) }

    @Test func heldWhileLockedAndShownOnceWhenBack() throws {
        try Self.withSession(["reminders.weigh_in": "true"]) { dunst, logind, w8 in
            try logind.lock()
            let daemon = try Self.daemon(w8, from: "08:58:00", once: "presence: logind LockedHint away")
            defer { daemon.stop() }
            try daemon.waitForLog("hydration@\(monday)T09:00: held: screen locked", timeout: 10)
            try daemon.waitForLog("hydration@\(monday)T09:15: held: screen locked", timeout: 30)
            #expect(daemon.log.contains("weigh-in@\(monday)T09:10: held: screen locked"))
            // Nothing reached the server while locked: nothing wakes a locked screen.
            #expect(try Self.everything(dunst) == 0)

            try logind.unlock()
            try daemon.waitForLog("hydration@\(monday)T09:00 (held, due 2 times): sent", timeout: 10)
            try daemon.waitForLog("weigh-in@\(monday)T09:10 (held, due 1 times): sent", timeout: 10)
            let shown = try dunst.history()
            #expect(shown.map(\.summary) == ["Drink some water", "Time to weigh in"])
            let water = shown.first { $0.summary == "Drink some water" }
            #expect(water?.displayedBody.contains("Due 2 times since 09:00, while you were away.") == true)

            // Held again the next time: locked once more, the next water reminder waits.
            try logind.lock()
            try daemon.waitForLog("hydration@\(monday)T09:30: held: screen locked", timeout: 30)
            #expect(try Self.everything(dunst) == 2)
            try logind.unlock()
            try daemon.waitForLog("hydration@\(monday)T09:30 (held, due 1 times): sent", timeout: 10)
            #expect(try Self.shown(dunst) == ["Drink some water", "Time to weigh in", "Drink some water"])
            #expect(daemon.stop() == 0)
        }
    }

    @Test func aDaemonRestartedWhileAwayStillShowsItOnce() throws {
        try Self.withSession { dunst, logind, w8 in
            try logind.lock()
            let first = try Self.daemon(w8, from: "08:58:00", once: "presence: logind LockedHint away")
            try first.waitForLog("hydration@\(monday)T09:00: held: screen locked", timeout: 10)
            #expect(first.stop() == 0)
            try Self.expectHeldListed(w8)
            try Self.expectDoctorSaysLocked(w8)

            let second = try Self.daemon(w8, from: "09:05:00", once: "presence: logind LockedHint away")
            defer { second.stop() }
            #expect(try Self.everything(dunst) == 0)
            try logind.unlock()
            try second.waitForLog("hydration@\(monday)T09:00 (held, due 1 times): sent", timeout: 10)
            #expect(second.stop() == 0)
            #expect(try Self.shown(dunst) == ["Drink some water"])

            // A third run finds nothing held.
            let third = try DaemonProcess(w8, fakeStart: "\(monday) 09:06:00")
            try third.waitForLog("started;", timeout: 10)
            #expect(third.stop() == 0)
            #expect(!third.log.contains("(held"))
            #expect(try Self.shown(dunst) == ["Drink some water"])
        }
    }

    /// A line of `w8 doctor` with its column padding reduced to one space.
    static func words(_ line: Substring) -> String { line.split(separator: " ").joined(separator: " ") }

    /// `w8 schedule` lists the held water reminder first, with its reason, as text and as JSON.
    static func expectHeldListed(_ w8: W8Sandbox) throws {
        let json = try w8.run(clock: "@\(monday) 09:05:00", ["schedule", "--json"])
        let events = try #require(try json.json() as? [[String: Any]], "\(json.stderr)")
        let held = try #require(events.first)
        #expect(held["event"] as? String == "hydration" && held["held"] as? Bool == true)
        #expect(held["reason"] as? String == "screen locked" && held["times"] as? Int == 1)
        #expect((held["at"] as? String)?.hasPrefix("\(monday)T09:00:00") == true)
        #expect(events.dropFirst().allSatisfy { $0["held"] as? Bool == false })
        let text = try w8.run(clock: "@\(monday) 09:05:00", ["schedule"])
        #expect(text.stdout.split(separator: "\n").first == "hydration   held since 09:00: screen locked")
    }

    /// `w8 doctor` says what each signal it can read says, and which kind this desktop does not give.
    static func expectDoctorSaysLocked(_ w8: W8Sandbox) throws {
        let json = try #require(try w8.json("doctor") as? [String: Any])
        let presence = try #require(json["presence"] as? [String: Any])
        #expect(presence["wait"] as? Bool == true && presence["away"] as? Bool == true)
        #expect(presence["reasons"] as? [String] == ["screen locked"])
        #expect(presence["missing"] as? [String] == ["idle"])
        let signals = presence["signals"] as? [[String: Any]] ?? []
        let readable = signals.filter { $0["readable"] as? Bool == true }.compactMap { $0["name"] as? String }
        #expect(readable == ["logind LockedHint", "logind PrepareForSleep", "dunst paused"])
        let lines = try w8.run("doctor").stdout.split(separator: "\n").map(Self.words)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Presence:") })
        #expect(
            Array(lines[start..<min(start + 5, lines.count)]) == [
                "Presence: away: screen locked", "logind LockedHint: away: screen locked",
                "logind PrepareForSleep: here", "dunst paused: here",
                "no idle signal on this desktop: only the lock and Do Not Disturb count",
            ])
    }

    @Test func aReminderWhoseReasonIsGoneIsNeverShown() throws {
        try Self.withSession(["reminders.weigh_in": "true"]) { dunst, logind, w8 in
            try logind.lock()
            let daemon = try Self.daemon(w8, from: "09:08:00", once: "weigh-in@\(monday)T09:10: held: screen locked")
            defer { daemon.stop() }
            // Logged meanwhile (on another device, say): the weigh-in reminder has no reason left.
            #expect(try w8.run(clock: "@\(monday) 09:12:00", ["add", "80"]).status == 0)
            try logind.unlock()
            try daemon.waitForLog(
                "weigh-in@\(monday)T09:10 (held, due 1 times): skipped: its reason is gone", timeout: 10)
            #expect(daemon.stop() == 0)
            #expect(try Self.shown(dunst).isEmpty)
        }
    }

    /// The hourly summary timer's run holds the summary as the daemon does, and a later run shows it once the
    /// person is back (also where no daemon runs).
    @Test func theSummaryTimerHoldsItTooAndShowsItOnReturn() throws {
        let settings: KeyValuePairs<String, String> = [
            "summary.enabled": "true", "summary.day": "mon", "summary.hour": "9", "reminders.hydration": "false",
        ]
        try Self.withSession(settings) { dunst, logind, w8 in
            try w8.run("add", "180", "--date", monday)
            try logind.lock()
            let held = try w8.run(clock: "@\(monday) 09:00:01", ["summary", "--send", "--if-due", "--json"])
            #expect(held.status == 0, "\(held.stderr)")
            #expect(held.stdout.contains("held: screen locked"), "\(held.stdout)")
            #expect(try Self.everything(dunst) == 0)
            let still = try w8.run(clock: "@\(monday) 10:00:01", ["summary", "--send", "--if-due"])
            #expect(still.status == 0, "\(still.stderr)")
            #expect(try Self.everything(dunst) == 0)

            try logind.unlock()
            let back = try w8.run(clock: "@\(monday) 11:00:01", ["summary", "--send", "--if-due"])
            #expect(back.status == 0, "\(back.stderr)")
            let shown = try Self.shown(dunst)
            #expect(shown.count == 1 && shown.first?.hasPrefix("Your week: ") == true, "\(shown)")
            #expect(try w8.run(clock: "@\(monday) 12:00:01", ["summary", "--send", "--if-due"]).status == 0)
            #expect(try Self.shown(dunst).count == 1)
        }
    }

    /// X11's idle time, on dunst's Xvfb: with `reminders.away_after` at one minute, a minute without input makes the
    /// X server's IDLETIME alarm fire; the water reminders are held; a pointer's motion through XTest (`xdotool`)
    /// ends it, and the held one comes.
    @Test func heldWhileIdleOnX11ShownOnInput() throws {
        try Self.withSession(["reminders.away_after": "1"]) { dunst, _, w8 in
            w8.environment["DISPLAY"] = dunst.display
            let move = { (x: String) in
                let moved = try W8Sandbox.running(w8, through: ["xdotool", "mousemove", x, x])
                #expect(moved.status == 0, "\(moved.stderr)")
            }
            try move("10")
            let daemon = try Self.daemon(w8, from: "08:58:00", once: "X11 idle time here")
            defer { daemon.stop() }
            try daemon.waitForLog(": held: idle", timeout: 100)
            #expect(!daemon.log.contains("(held, due"))

            try move("200")
            try daemon.waitForLog("(held, due 1 times): sent", timeout: 10)
            let shown = try dunst.history().last
            #expect(shown?.displayedBody.contains("while you were away.") == true, "\(String(describing: shown))")
            #expect(daemon.stop() == 0)
        }
    }

    @Test func heldWhileDunstIsPausedAndShownWhenItIsNot() throws {
        try Self.withSession { dunst, _, w8 in
            let daemon = try Self.heldWhilePaused(dunst, w8)
            defer { daemon.stop() }
            #expect(try Self.everything(dunst) == 0)
            try dunst.setPaused(false)
            try daemon.waitForLog("hydration@\(monday)T09:00 (held, due 1 times): sent", timeout: 10)
            #expect(try Self.shown(dunst) == ["Drink some water"])

            try dunst.setPaused(true)
            try daemon.waitForLog("T09:15: held: do not disturb (dunst)", timeout: 30)
            #expect(try Self.everything(dunst) == 1)
            try dunst.setPaused(false)
            try daemon.waitForLog("T09:15 (held, due 1 times): sent", timeout: 10)
            #expect(daemon.stop() == 0)
        }
    }

    /// A server that restarts is followed: the name watch reads the new dunst, which is not paused, so what was held
    /// while the old one was paused is shown on the new one.
    @Test func aRestartedServerIsReadAgain() throws {
        try Self.withSession { dunst, _, w8 in
            let daemon = try Self.heldWhilePaused(dunst, w8)
            defer { daemon.stop() }
            try dunst.restartServer()
            try daemon.waitForLog("hydration@\(monday)T09:00 (held, due 1 times): sent", timeout: 10)
            #expect(try Self.shown(dunst) == ["Drink some water"])
            #expect(daemon.stop() == 0)
        }
    }

    @Test func heldWhileSuspendedAndShownOnResume() throws {
        try Self.withSession { dunst, logind, w8 in
            let daemon = try Self.daemon(w8, from: "08:58:00", once: "presence: logind LockedHint here")
            defer { daemon.stop() }
            try logind.suspend()
            try daemon.waitForLog("hydration@\(monday)T09:00: held: suspended", timeout: 10)
            #expect(try Self.everything(dunst) == 0)
            // Resumed with the session still locked: nothing comes yet.
            try logind.lock()
            try logind.resume()
            try daemon.waitForLog("T09:15: held: screen locked", timeout: 30)
            #expect(try Self.everything(dunst) == 0)
            try logind.unlock()
            try daemon.waitForLog("hydration@\(monday)T09:00 (held, due 2 times): sent", timeout: 10)
            #expect(try Self.shown(dunst) == ["Drink some water"])
            #expect(daemon.stop() == 0)
        }
    }

    @Test func turnedOffPostsAtTheDueTime() throws {
        try Self.withSession(["reminders.wait_for_presence": "false"]) { dunst, logind, w8 in
            try logind.lock()
            let daemon = try Self.daemon(w8, from: "08:58:00", once: "hydration@\(monday)T09:00: sent")
            #expect(daemon.stop() == 0)
            let doctor = try w8.run("doctor").stdout.split(separator: "\n").map(Self.words)
            #expect(
                doctor.contains("Presence: off (reminders.wait_for_presence = false): reminders come at their time"),
                "\(doctor)")
            #expect(try Self.shown(dunst) == ["Drink some water"])
        }
    }
}
