import Foundation
import Testing
import W8Core
import W8TestHarness
import W8TestSupport

/// The built `w8` against real notification servers: dunst under Xvfb on a private bus, no server, a hung one.
@Suite(.serialized, .ownThread) struct CLINotificationTests {
    static var artifacts: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("artifacts")
    }

    // Goal, then entries crossing 25, 50, 75 + approaching, and 100: each one a real notification.
    @Test func scenarioThroughDunst() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try w8.run("add", "200", "--date", "2026-11-01")
        try w8.run("goal", "160")
        var notified: [String?] = []
        for weight in ["190", "180", "164 lb", "160", "159"] {
            let result = try w8.run("add", weight, "--note", "<b>me & you</b>", "--json")
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            notified.append((try object(try result.json())["notified"]) as? String)
            if weight == "160" {
                try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
                try dunst.screenshot(to: Self.artifacts.appendingPathComponent("notification-goal-achieved.png"))
            }
        }
        #expect(notified == ["25", "50", "approaching", "100", nil])
        let shown = try dunst.history()
        #expect(shown.count == 4)
        #expect(
            shown.map(\.summary) == [
                "25% of the way to your goal!", "Halfway there!", "You're close to your goal!",
                "Goal achieved! You reached 160.0 lb",
            ])
        #expect(shown.allSatisfy { $0.appName == "W8Trackr" && $0.category == "x-w8trackr.milestone" })
        #expect(shown.allSatisfy { $0.urgency == .normal })
        #expect(shown.allSatisfy { $0.summary.count <= 50 && $0.displayedBody.count <= 150 })
        #expect(
            shown[1].displayedBody == "You've lost 20.0 lb so far, 20.0 lb to go to 160.0 lb. Keep up the great work!")
        #expect(shown.last?.expiry == .never)
        #expect(shown.dropLast().allSatisfy { $0.expiry == .serverDefault })
        let milestones = try #require(try w8.json("milestones") as? [[String: Any]])
        let sent = Dictionary(milestones.map { ($0["type"] as! String, $0["notification_sent"] as! Bool) }) { $0 || $1 }
        #expect(sent == ["25": true, "50": true, "75": false, "approaching": true, "100": true])
    }

    /// `w8 add` confined to one CPU (`taskset -c 0`, as a container or a busy machine may run it) records the entry
    /// and posts its milestone, as on many (issue 40): no thread of it waits for a CPU that is not there.
    @Test func addOnOneCPURecordsAndPosts() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try w8.run("add", "200", "--date", "2026-11-01")
        try w8.run("goal", "160")
        let result = try W8Sandbox.running(w8, through: ["taskset", "-c", "0", w8.executable, "add", "190", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try object(try result.json())["notified"] as? String == "25")
        #expect(try dunst.history().map(\.summary) == ["25% of the way to your goal!"])
        let entries = try #require(try w8.json("log") as? [[String: Any]])
        #expect(entries.compactMap { $0["weight"] as? Double } == [190, 200])
    }

    // The weekly summary attaches its chart, as image-path and as image-data (dunst, which advertises icon-static,
    // draws the pixels: the spec ranks image-data first); the screenshot keeps what it showed.
    @Test func summaryCarriesItsChart() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let monitor = try NotifyCallMonitor(bus: dunst.bus)
        // The 13 days up to 4 days before the test clock's day.
        for (day, weight) in [
            (-16, "184"), (-13, "183.2"), (-10, "182.6"), (-7, "181.4"), (-5, "180.9"), (-4, "180.2"),
        ] {
            #expect(try w8.run("add", weight, "--date", TestClock.moment(day, "07:00")).status == 0)
        }
        // 6% of the way: no milestone, the summary alone
        #expect(try w8.run("goal", "120", "--date", TestClock.moment(-16, "08:00")).status == 0)
        let sent = try w8.run("summary", "--send")
        #expect(sent.status == 0, "\(sent.stderr)")
        // dunst draws a moment after it answers: take the screenshot once the screen is no
        // longer black, and before history() closes everything.
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts.appendingPathComponent("notification-summary-chart.png")
        #expect(try dunst.screenshotOnceDrawn(to: screenshot), "dunst showed nothing on the screen: \(dunst.log)")
        #expect(!dunst.log.contains("Failed to load image"), "\(dunst.log)")
        let chart = w8.root.appendingPathComponent("cache/w8trackr/summary-chart.png").path  // $XDG_CACHE_HOME
        let summary = try #require(try dunst.history().first { $0.category == "x-w8trackr.summary" })
        #expect(summary.iconPath == "", "dunst drew the image-data pixels, not the file")
        let call = try #require(try monitor.calls().first { $0.summary == summary.summary })
        #expect(call.hints["image-path"] == chart)
        #expect(call.hintTypes["image-data"] == "(iiibiiay)", "\(call.hintTypes)")
        #expect(call.hints["image-data"]?.contains("128") == true)
        // A real PNG decoder reads it at the size the summary draws: the 128 px sparkline, not the full chart.
        let identify = try W8Sandbox.running(w8, through: ["identify", "-format", "%m %w %h", chart])
        #expect(identify.stdout == "PNG 128 128", "\(identify.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: chart)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func notifyTestAndDoctorSeeTheServer() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let posted = try w8.run("notify-test", "--category", "reminder")
        #expect(posted.status == 0)
        let shown = try dunst.history()
        #expect(shown.count == 1)
        #expect(shown.first?.category == "x-w8trackr.reminder")
        #expect(shown.first?.urgency == .normal, "a reminder is as urgent as the others: GNOME shows no banner for low")
        let doctor = try object(try w8.json("doctor"))
        let server = try object(doctor["notification_server"] as Any)
        #expect(server["name"] as? String == "dunst")
        #expect((server["capabilities"] as? [String])?.contains("body") == true)
    }

    // Graceful degradation: recorded, not notified, one warning, exit 0, within 3 s.
    @discardableResult
    func expectDegraded(_ w8: W8Sandbox, reason: String) throws -> W8Run {
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")
        let result = try w8.run("add", "175", "--json")
        #expect(result.status == 0)
        #expect(result.seconds < 3 * testTimeScale, "took \(result.seconds) s")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        let added = try object(try result.json())
        #expect(added["achieved"] as? [String] == ["25"])
        #expect(added["notified"] is NSNull)
        let milestones = try #require(try w8.json("milestones") as? [[String: Any]])
        #expect(milestones.map { $0["notification_sent"] as? Bool } == [false])
        #expect(try #require(try w8.json("log") as? [[String: Any]]).count == 2)
        return result
    }

    @Test func noSessionBus() throws {
        try expectDegraded(try W8Sandbox(), reason: "no D-Bus session bus")
    }

    @Test func busWithoutNotificationServer() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try expectDegraded(try W8Sandbox(bus: bus), reason: "notification")
        let doctor = try W8Sandbox(bus: bus).run("doctor")
        #expect(doctor.stdout.contains("none reachable"))
    }

    /// libnotify is loaded only to post, close or ask the server: with a `libnotify.so.4` that cannot be loaded first
    /// on the library path, `w8 add` still logs the entry and records the milestone, and warns in one line naming the
    /// loader's reason; every command that posts nothing works as before (a binary linked against libnotify would
    /// not even start), and the doctor names the cause.
    @Test func withoutLibnotifyTheEntryIsLoggedWithOneWarning() throws {
        let w8 = try W8Sandbox()
        try w8.breakLibrary("libnotify.so.4")

        let added = try expectDegraded(w8, reason: "libnotify cannot be loaded: ")
        #expect(added.stderr.hasPrefix("w8: warning: notification not shown (libnotify cannot be loaded: "))
        #expect(added.stderr.contains("libnotify.so.4"), "\(added.stderr)")

        let backup = w8.root.appendingPathComponent("backup.json").path
        // None of these posts: the goal of 100 is a new journey, and 179.6 lb is 0.5% of it.
        for arguments in [
            ["add", "179.6"], ["status"], ["log"], ["widget"], ["chart", "--width", "50", "--height", "12"],
            ["milestones"], ["goal", "100"], ["drink", "250"], ["today"], ["summary"],
            ["export", "--format", "json", "--output", backup], ["import", "--dry-run", backup], ["--version"],
        ] {
            let run = try w8.run(arguments)
            #expect(run.status == 0, "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
            #expect(!run.stderr.contains("libnotify"), "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
        }

        let test = try w8.run("notify-test")
        #expect(test.status == 69)
        #expect(test.stderrLines.count == 1, "\(test.stderr)")
        #expect(test.stderr.hasPrefix("w8: notification not shown: libnotify cannot be loaded: "), "\(test.stderr)")
        let doctor = try object(try w8.json("doctor"))
        let server = try object(doctor["notification_server"] as Any)
        #expect(server["status"] as? String == "libnotify_unavailable")
        #expect((server["error"] as? String)?.contains("libnotify.so.4") == true)
    }

    @Test func hungNotificationServer() throws {
        let hung = try HungNotificationServer()
        defer { hung.stop() }
        try expectDegraded(try W8Sandbox(bus: hung.bus), reason: "did not answer")
    }
}
