import Foundation
import Testing
import W8Core
import W8TestHarness
import W8TestSupport

/// The built `w8` against each real notification server, as its Debian package configures it: dunst (no `-config`),
/// xfce4-notifyd and notification-daemon under Xvfb, mako in a headless sway. The icons are installed the way
/// `make install` puts them under /usr/local/share; the servers' answers are read from a D-Bus monitor, from the
/// server itself where it has a command for it, and from a screenshot kept in `.build/screenshots/`.
@Suite(.serialized, .ownThread) struct NotificationServerTests {
    /// What each server calls itself in GetServerInformation.
    static let names: [NotificationServerKind: String] = [
        .dunst: "dunst", .xfce4Notifyd: "Xfce Notify Daemon", .notificationDaemon: "Notification Daemon", .mako: "mako",
    ]

    @Test(arguments: NotificationServerKind.allCases)
    func milestoneShowsWithIconAndEscapedText(kind: NotificationServerKind) throws {
        let start = Date()
        let session = try NotificationServerSession(kind)
        defer { session.stop() }
        try session.installIcons()
        let w8 = try W8Sandbox(session: session)
        try #require(try w8.run("add", "180", "--date", "2026-11-01").status == 0)
        try #require(try w8.run("goal", "160").status == 0)

        // When an entry crosses 25% of the way.
        let added = try w8.run("add", "175", "--note", "<b>me & you</b>", "--json")

        #expect(added.status == 0)
        #expect(added.stderr.isEmpty, "\(added.stderr)\n\(session.log)")
        #expect(try object(try added.json())["notified"] as? String == "25")
        // The server got the milestone with its app name, category and the installed icon's file, and gave it an id.
        let milestone = try #require(try session.monitor.answeredCalls(count: 1).first)
        #expect(milestone.appName == "W8Trackr")
        #expect(milestone.summary == "25% of the way to your goal!")
        #expect(displayedMarkup(milestone.body) == "You've lost 5.0 lb so far. 15.0 lb to go to 160.0 lb. Keep it up!")
        #expect(milestone.icon == session.installedIcon.path)
        #expect(milestone.hints["category"] == "x-w8trackr.milestone")
        #expect(milestone.hints["desktop-entry"] == "w8trackr")
        let id = try #require(milestone.reply?.id, "\(milestone)")
        #expect(id > 0)
        // It is on screen, icon and all.
        let shot = screenshotDirectory.appendingPathComponent("\(kind)-milestone.png")
        let onScreen = try session.screenshotShowingIcon(to: shot)
        #expect(onScreen.iconPixels >= 200, "no icon on screen in \(shot.path)\n\(session.log)")
        let milestoneScreen = try onScreen.screenshot.copy(
            to: FileManager.default.temporaryDirectory.appendingPathComponent("w8-\(UUID().uuidString).png"))
        defer { try? FileManager.default.removeItem(at: milestoneScreen.url) }
        // The server's own record, where it has one: dunst resolved the icon to the file; mako has it on screen.
        if let shown = try session.shown() {
            let record = try #require(shown.first { $0.id == id }, "\(shown)")
            #expect(record.appName == "W8Trackr")
            #expect(record.summary == milestone.summary)
            #expect(record.iconPath == session.installedIcon.path)
            #expect(record.displayedBody == displayedMarkup(milestone.body))
        }
        try session.close(id: id)

        // Text with markup characters, as a weekly summary could carry, shows as written.
        let text = "Down 2 lb & <feeling> great > \"last\" week's"
        let probe = try NotificationProbe.locate()
        let posted = try probe.run(
            [.post(DesktopNotification(key: "summary.weekly", title: "Your week", body: text, category: .summary))],
            environment: session.environment, user: session.user)
        #expect(posted.outcomes.map(\.error) == [nil], "\(posted.outcomes)")
        let summary = try #require(try session.monitor.answeredCalls(count: 2).last)
        #expect(summary.reply?.id != nil, "\(summary)")
        #expect(!summary.body.contains("<") && !summary.body.contains(">"), "\(summary.body)")
        #expect(displayedMarkup(summary.body) == text)
        let markupShot = screenshotDirectory.appendingPathComponent("\(kind)-markup.png")
        // notification-daemon shows one notification at a time, and the next only about 4 s after the first,
        // closed or not: wait until the milestone has made way.
        let shown = try session.screenshotShowingIcon(to: markupShot, changedFrom: milestoneScreen, timeout: 7)
        #expect(shown.iconPixels >= 200, "\(markupShot.path)")
        #expect(try shown.screenshot.differingPixels(from: milestoneScreen) > 0, "the screen still shows the milestone")
        if let record = try session.shown() {
            #expect(record.last?.displayedBody == text, "\(record)")
        }

        // w8 doctor names the server, as it names itself.
        let information = try session.serverInformation()
        #expect(information[0] == Self.names[kind])
        let doctor = try object(try object(try w8.json("doctor"))["notification_server"] as Any)
        #expect(doctor["status"] as? String == "ok")
        #expect(doctor["name"] as? String == information[0])
        #expect(doctor["version"] as? String == information[2])
        let report = try w8.run("doctor")
        #expect(
            report.stdout.contains("Notification server:          \(information[0]) \(information[2]) by "),
            "\(report.stdout)")

        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 15 * testTimeScale, "\(kind) took \(seconds) s")
        print("\(kind): \(String(format: "%.1f", seconds)) s, screenshots \(shot.path), \(markupShot.path)")
    }

    /// An installed server that dies when D-Bus starts it (dunst with no display) is not "no server".
    /// A sandbox on `bus` whose `w8 add 175` crosses 25% of the way from 180 to 160, and that add.
    func crossQuarter(on bus: PrivateSessionBus) throws -> (W8Sandbox, W8Run) {
        let w8 = try W8Sandbox(bus: bus)
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")
        return (w8, try w8.run("add", "175"))
    }

    @Test func serverThatFailsToStart() throws {
        let dunstService = URL(fileURLWithPath: "/usr/share/dbus-1/services/org.knopwob.dunst.service")
        try #require(
            FileManager.default.fileExists(atPath: dunstService.path),
            "dunst's D-Bus service file is missing; install it with: apt-get install dunst")
        let bus = try PrivateSessionBus(serviceFiles: [dunstService])
        defer { bus.stop() }
        let (w8, added) = try crossQuarter(on: bus)

        #expect(added.status == 0)
        #expect(added.seconds < 3 * testTimeScale)
        #expect(added.stderrLines.count == 1, "\(added.stderr)")
        #expect(added.stderr.contains("the notification server (dunst) failed to start ("), "\(added.stderr)")
        #expect(added.stderr.contains("run '/usr/bin/dunst' in a terminal to see why"), "\(added.stderr)")
        #expect(!added.stderr.contains("no notification server"), "\(added.stderr)")
        #expect(bus.log.contains("Activating service name='org.freedesktop.Notifications'"), "\(bus.log)")
        let doctor = try w8.run("doctor")
        #expect(doctor.stdout.contains("the notification server (dunst) failed to start"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("dunst is started by D-Bus from "), "\(doctor.stdout)")
        let report = try object(try object(try w8.json("doctor"))["notification_server"] as Any)
        #expect(report["status"] as? String == "failed_to_start")
        #expect(report["name"] as? String == "dunst")
    }

    @Test func noServerInstalled() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let (w8, added) = try crossQuarter(on: bus)

        #expect(added.status == 0)
        #expect(added.stderr.contains("no notification server installed"), "\(added.stderr)")
        #expect(!added.stderr.contains("failed to start"), "\(added.stderr)")
        let report = try object(try object(try w8.json("doctor"))["notification_server"] as Any)
        #expect(report["status"] as? String == "not_installed")
        #expect(try w8.run("doctor").stdout.contains("no notification server installed"))
    }
}
