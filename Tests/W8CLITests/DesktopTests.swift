import Foundation
import Testing
import W8Core
import W8TestHarness

/// The day this file's history is told from: the test clock's Sunday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let sunday = TestClock.daysBack(to: 1)

/// w8 on the desktops people run, each a real server headless on its own bus and display (issue 25): GNOME Shell
/// 43, KDE Plasma 5.27, lxqt-notificationd, swaync, xfce4-notifyd, notification-daemon, mako and dunst. Each test
/// asks the server what it shows (GNOME's Eval, the display's windows, swaync's own interface, `makoctl list`, a
/// screenshot), presses its buttons (or picks from the server's menu) as a person would, and keeps a screenshot in
/// `.build/screenshots/`.
///
/// One session per desktop runs every step, in order: a reminder with buttons from the real daemon and a press of
/// "+1 cup", a second reminder after the server closed the first, the summary with its chart, and a click.
@Suite(.serialized, .ownThread) struct DesktopTests: ProbeSuite {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let artifacts = repository.appendingPathComponent(".build/screenshots")

    /// The buttons a notification shows, as labels, whatever form the desktop's script gives them in.
    static func labels(_ notification: [String: Any]) -> [String] {
        (notification["actions"] as? [Any] ?? []).compactMap { action in
            (action as? [String: Any])?["label"] as? String ?? action as? String
        }
    }

    /// Whether the notification is on screen now: GNOME's banner, the others' popup.
    static func onScreen(_ notification: [String: Any]) -> Bool {
        notification["banner"] as? Bool ?? notification["popup"] as? Bool ?? false
    }

    static func id(_ notification: [String: Any]) -> UInt32? { (notification["id"] as? NSNumber)?.uint32Value }

    /// A w8 on this desktop with its icons installed where `make install` puts them (the sandbox's
    /// `share/icons/hicolor`, first in `XDG_DATA_DIRS`), so that it sends the icon file.
    func sandbox(_ desktop: DesktopSession) throws -> W8Sandbox {
        let w8 = try W8Sandbox(extra: desktop.environment, user: desktop.user)
        let share = w8.root.appendingPathComponent("share")
        let icons = Self.repository.appendingPathComponent("data/icons/hicolor")
        for size in ["48x48", "128x128"] {
            let target = share.appendingPathComponent("icons/hicolor/\(size)/apps")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try Data(contentsOf: icons.appendingPathComponent("\(size)/apps/w8trackr.png")).write(
                to: target.appendingPathComponent("w8trackr.png"))
        }
        try desktop.user.ownRecursively(share)
        // Then the system's: GLib finds the MIME database there, which gdk-pixbuf needs to read the chart's PNG
        // for image-data (without it lxqt-notificationd, which reads only image-data, showed no image).
        w8.environment["XDG_DATA_DIRS"] = share.path + ":/usr/share"
        try w8.configure(W8Sandbox.hydrationButtons)
        return w8
    }

    func shot(_ desktop: DesktopSession, _ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let url = Self.artifacts.appendingPathComponent("desktop-\(desktop.kind)-\(name).png")
        try desktop.screenshot(to: url)
        return url
    }

    @Test(arguments: DesktopSession.Kind.allCases)
    func everyReminderIsSeenAndPressed(kind: DesktopSession.Kind) throws {
        let desktop = try DesktopSession(kind)
        defer { desktop.stop() }
        let w8 = try sandbox(desktop)
        print("\(kind): \(desktop.serverName) \(desktop.serverVersion), ready in \(desktop.secondsToStart) s")

        // 1. The daemon's hydration reminder is on screen with both buttons; "+1 cup" pressed there logs 300 ml.
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 10:59:58")
        defer { daemon.stop() }
        try daemon.waitForLog("hydration@\(TestClock.day(sunday))T11:00: sent", timeout: 10)
        let reminder = try desktop.waitForNotification("Drink some water") { Self.onScreen($0) }
        // mako and dunst draw no buttons: their menus (`makoctl menu`, `dunstctl context`) offer the actions,
        // mako's in an order of its own.
        let labels = Self.labels(reminder)
        let expected = ["+1 cup (300 ml)", "+1 bottle (750 ml)"]
        if kind == .mako {
            #expect(Set(labels) == Set(expected), "\(reminder)")
        } else {
            #expect(labels == expected, "\(reminder)")
        }
        // GNOME shows a banner's buttons once it is hovered; the screenshot shows them.
        if kind == .gnome { try desktop.command(["cmd": "expand"]) }
        _ = try shot(desktop, "reminder")
        let reminderID = try #require(Self.id(reminder))
        try desktop.press(id: reminderID, action: "cup")
        try daemon.waitForLog("reminder.hydration button 'cup': logged 300 ml", timeout: 10)
        let today = try w8.run("today", "--date", "\(TestClock.day(sunday))", "--json")
        #expect(today.status == 0, "\(today.stderr)")
        #expect((try today.json() as? [String: Any])?["water_ml"] as? Int == 300, "\(today.stdout)")
        #expect(
            try desktop.signals().contains {
                $0["name"] as? String == "ActionInvoked" && Self.id($0) == reminderID
                    && $0["action"] as? String == "cup"
            })
        #expect(daemon.stop() == 0)
    }

    @Test(arguments: DesktopSession.Kind.allCases)
    func aReminderAfterOneTheServerClosedIsShown(kind: DesktopSession.Kind) throws {
        let desktop = try DesktopSession(kind)
        defer { desktop.stop() }
        let w8 = try sandbox(desktop)
        let go = w8.root.appendingPathComponent("go").path
        let reminder = DesktopNotification.reminder(.weighIn)
        // The sink posts the weigh-in reminder, waits while the server closes it, then posts the next one.
        let steps: [NotificationProbe.Step] = [.post(reminder), .waitForFile(go), .post(reminder)]
        // The probe is no w8: it reads no day, and runs on the real clock.
        var environment = w8.environment
        for name in TestClock.preloadVariables { environment[name] = nil }
        let running = BackgroundProbe(try probe, steps, environment: environment, user: desktop.user)

        // The first as the server accepted it: what matters is that the server then closes it. (On a loaded machine
        // the harness once saw Plasma accept and expire it without matching its popup window to it.)
        let first = try desktop.waitForNotification(reminder.title) { _ in true }
        let firstID = try #require(Self.id(first))
        // The server closes it: GNOME when it is dismissed (a click on a banner without a default action), Plasma,
        // lxqt, xfce4-notifyd, mako and dunst when it expires. swaync only hides an expired one in its control
        // center, and notification-daemon in the queue behind its tray icon: still open there.
        if kind == .gnome { try desktop.click(id: firstID) } else { try desktop.expire() }
        let closes = ![.swaync, .notificationDaemon].contains(kind)
        let deadline = Date().addingTimeInterval(closes ? 15 : 0)
        var closed = false
        repeat {
            closed = try desktop.signals().contains {
                $0["name"] as? String == "NotificationClosed" && Self.id($0) == firstID
            }
            if !closed { usleep(200_000) }
        } while !closed && Date() < deadline
        let signals = try desktop.signals()
        #expect(closed == closes, "\(signals)")
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        let run = try running.wait(timeout: 60)
        #expect(run.outcomes.map { $0.error } == [nil, nil, nil], "\(run.outcomes)")
        let secondID = try #require(run.outcomes[2].id)

        // The second is on screen: a new notification where the first was closed, the first replaced where it was
        // still open.
        let second = try desktop.waitForNotification(reminder.title, timeout: 20) {
            Self.id($0) == secondID && (Self.onScreen($0) || $0["shown"] as? Bool == true)
        }
        #expect(Self.id(second) == secondID)
        #expect((secondID == firstID) == !closes, "first \(firstID), second \(secondID)")
        _ = try shot(desktop, "second-reminder")
    }

    @Test(arguments: DesktopSession.Kind.allCases)
    func theSummaryCarriesItsChartAndAClickShowsTheSummary(kind: DesktopSession.Kind) throws {
        let desktop = try DesktopSession(kind)
        defer { desktop.stop() }
        let w8 = try sandbox(desktop)
        // The last six days of the test's clock (the summary's week is the 7 days up to now): 184 down to 170.
        for (day, weight) in [(-5, "184"), (-4, "183.2"), (-3, "182.6"), (-1, "181.4"), (0, "175"), (0, "170")] {
            let time = weight == "170" ? "09:00" : "07:00"
            #expect(try w8.run("add", weight, "--date", TestClock.moment(day, time)).status == 0)
        }
        // The desktop entry, installed as make install lays it out, with this w8: GNOME ties a notification to its
        // app when it first sees it, so it is there before anything is posted.
        var applications: String?
        // What the entry's Exec runs before `summary --send`.
        var command = w8.executable
        if kind == .gnome {
            let directory = try #require(desktop.ready["applications_dir"] as? String)
            applications = directory
            let entry = try String(
                contentsOf: Self.repository.appendingPathComponent("data/w8trackr.desktop"), encoding: .utf8)
            #expect(entry.contains("Exec=w8 summary --send\n") && entry.contains("Terminal=false\n"))
            // The shell's w8 keeps its data in the shell's home: it sends the summary of an empty week.
            // The shell starts it on the test's clock too: `env` with libfaketime's variables before it.
            let clock = try TestClock.environment().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            command = ((clock.isEmpty ? [] : ["env"] + clock) + [w8.executable]).joined(separator: " ")
            try entry.replacingOccurrences(of: "Exec=w8 ", with: "Exec=\(command) ").write(
                toFile: directory + "/w8trackr.desktop", atomically: true, encoding: .utf8)
            let found = "imports.gi.Shell.AppSystem.get_default().lookup_app('w8trackr.desktop') !== null"
            let deadline = Date().addingTimeInterval(20)
            while try desktop.command(["cmd": "eval", "js": found])["result"] as? String != "true", Date() < deadline {
                usleep(250_000)
            }
        }
        // The summary with its chart: the image reaches the server wherever it can show one.
        let sent = try w8.run("summary", "--send")
        #expect(sent.status == 0, "\(sent.stderr)")
        // mako's and dunst's popups are read off a screenshot: the image is judged once the popup is drawn.
        let summary = try desktop.waitForNotification("Your week: down 14.0 lb") {
            ![.mako, .dunst].contains(kind) || Self.onScreen($0)
        }
        #expect(summary["has_image"] as? Bool == true, "\(summary)")
        _ = try shot(desktop, "summary")

        // A click: GNOME runs the entry's Exec, which posts this week's summary again; no terminal, no "Failed to
        // launch".
        if kind == .gnome, let applications {
            try desktop.click(id: try #require(Self.id(summary)))
            let again = try desktop.waitForNotification("Time for a weigh-in?", timeout: 20) { _ in true }
            #expect(again["source"] as? String == "W8Trackr", "\(again)")
            let all = try desktop.command(["cmd": "notifications"])
            #expect(
                !"\(all["others"] ?? "")".contains("Failed to launch"), "GNOME could not launch the entry: \(all)")
            _ = try shot(desktop, "after-click")
        } else {
            // Elsewhere no notification offers a default action and none names an app to launch: a click does
            // nothing, and nothing new is posted.
            let before = Set(try desktop.notifications().compactMap(Self.id))
            try desktop.click(id: try #require(Self.id(summary)))
            usleep(3_000_000)
            let after = Set(try desktop.notifications().compactMap(Self.id))
            #expect(after.isSubset(of: before), "new after the click: \(after.subtracting(before))")
        }
        if kind == .gnome, let applications {
            // The doctor says what a click does, from the entry the desktop reads.
            var environment = w8.environment
            environment["XDG_DATA_DIRS"] = URL(fileURLWithPath: applications).deletingLastPathComponent().path
            let doctor = try W8Sandbox.running(w8, through: ["env", w8.executable, "doctor"], environment: environment)
            #expect(
                doctor.stdout.contains(
                    "Click on a notification:      GNOME runs '\(command) summary --send' (\(applications)/"),
                "\(doctor.stdout)")
        }
    }
}
