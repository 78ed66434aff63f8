import Foundation
import Testing
import W8TestHarness

/// A Monday before the test clock's start, as `YYYY-MM-DD`.
private let monday = TestClock.day(TestClock.daysBack(to: 2))

/// Issue 39 on the desktops whose Do Not Disturb w8 reads, each a real server headless on its own bus, with the
/// session's lock from a logind stand-in on a private system bus (`LogindStandIn`): the real daemon, its clock 60
/// times faster, holds the water reminder while the session is locked and while the desktop is in Do Not Disturb,
/// and shows it once after each. Screenshots go to `.build/screenshots/presence-KIND-*.png`.
@Suite(.serialized, .ownThread) struct DesktopPresenceTests {
    /// Where each desktop's Do Not Disturb is read, as the daemon's log and `AwayReason` name it.
    static let sources: [DesktopSession.Kind: (signal: String, reason: String)] = [
        .gnome: ("GNOME show-banners", "do not disturb (GNOME)"),
        .plasma: ("Plasma Inhibited", "do not disturb (Plasma)"),
        .swaync: ("swaync GetDnd", "do not disturb (swaync)"),
        .mako: ("mako do-not-disturb mode", "do not disturb (mako)"),
        .xfce4Notifyd: ("xfce4-notifyd do-not-disturb", "do not disturb (xfce4-notifyd)"),
    ]

    /// The water reminders the server holds or shows now.
    static func waterReminders(_ desktop: DesktopSession) throws -> [[String: Any]] {
        try desktop.notifications().filter { $0["summary"] as? String == "Drink some water" }
    }

    /// How many held reminders the daemon's log says it showed.
    static func releases(_ log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("(held, due ") && $0.contains("): sent") }.count
    }

    func shot(_ desktop: DesktopSession, _ name: String) throws {
        try FileManager.default.createDirectory(at: DesktopTests.artifacts, withIntermediateDirectories: true)
        try desktop.screenshot(
            to: DesktopTests.artifacts.appendingPathComponent("presence-\(desktop.kind)-\(name).png"))
    }

    /// `body` on `kind`'s desktop, with the logind stand-in and a w8 on both (`sandbox`); both stop after it.
    static func onDesktop(
        _ kind: DesktopSession.Kind, _ body: (DesktopSession, LogindStandIn, W8Sandbox) throws -> Void
    ) throws {
        let desktop = try DesktopSession(kind)
        defer { desktop.stop() }
        let logind = try LogindStandIn()
        defer { logind.stop() }
        try body(desktop, logind, try sandbox(desktop, logind))
    }

    /// A w8 on `desktop`, its system bus `logind`'s. On GNOME it reads the shell's settings: the system's schemas
    /// (`/usr/share` in `XDG_DATA_DIRS`, as on every desktop) and the harness's dconf database, through links from
    /// its own XDG directories.
    static func sandbox(_ desktop: DesktopSession, _ logind: LogindStandIn) throws -> W8Sandbox {
        let w8 = try W8Sandbox(extra: desktop.environment, user: desktop.user)
        w8.environment["DBUS_SYSTEM_BUS_ADDRESS"] = logind.address
        if let dconf = desktop.ready["dconf"] as? [String: String] {
            w8.environment["XDG_DATA_DIRS", default: ""] += ":/usr/share"
            for (key, directory) in [("config", "config"), ("runtime", "run")] {
                let link = w8.root.appendingPathComponent("\(directory)/dconf")
                try FileManager.default.createDirectory(
                    at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: dconf[key] ?? "")
            }
        }
        try w8.configure([
            "reminders.hydration": "true", "reminders.hydration_interval": "15", "summary.enabled": "false",
        ])
        return w8
    }

    @Test(arguments: [DesktopSession.Kind.gnome, .plasma, .swaync, .mako, .xfce4Notifyd])
    func heldWhileLockedAndInDoNotDisturbShownAfter(kind: DesktopSession.Kind) throws {
        let source = try #require(Self.sources[kind])
        try Self.onDesktop(kind) { desktop, logind, w8 in

            // Locked: held, and nothing reaches the server.
            try logind.lock()
            let daemon = try DaemonProcess(w8, fakeStart: "\(monday) 08:58:00 x60")
            defer { daemon.stop() }
            try daemon.waitForLog("logind LockedHint away", timeout: 15)
            #expect(daemon.log.contains("\(source.signal) here"), "\(daemon.log)")
            try daemon.waitForLog("hydration@\(monday)T09:00: held: screen locked", timeout: 15)
            #expect(try Self.waterReminders(desktop).isEmpty)
            try logind.unlock()
            try daemon.waitForLog("hydration@\(monday)T09:00 (held, due 1 times): sent", timeout: 15)
            _ = try desktop.waitForNotification("Drink some water") { DesktopTests.onScreen($0) }
            try shot(desktop, "after-lock")
            try desktop.expire()

            // Do Not Disturb: held again, and shown once it ends.
            try desktop.command(["cmd": "dnd", "on": true])
            try daemon.waitForLog(": held: \(source.reason)", timeout: 40)
            try shot(desktop, "in-dnd")
            #expect(
                try !desktop.notifications().contains { DesktopTests.onScreen($0) }, "nothing shown in Do Not Disturb")
            try desktop.command(["cmd": "dnd", "on": false])
            // mako sends no signal for its modes: the daemon reads them at the next due time, or within a minute.
            let deadline = Date().addingTimeInterval(75)
            while Self.releases(daemon.log) < 2, Date() < deadline { usleep(200_000) }
            #expect(Self.releases(daemon.log) == 2, "\(daemon.log)")
            _ = try desktop.waitForNotification("Drink some water") { DesktopTests.onScreen($0) }
            try shot(desktop, "after-dnd")
            #expect(daemon.stop() == 0)
        }
    }

    /// The `swayidle` children that watch idle time for a w8 on the sway whose runtime directory is `runtime`.
    static func swayidleChildren(runtime: String) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
        return pids.filter { pid in
            guard let arguments = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                arguments.hasPrefix("/usr/bin/swayidle\0-C\0/dev/null"),
                let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
            else { return false }
            return environment.split(separator: 0).contains(Data("XDG_RUNTIME_DIR=\(runtime)".utf8))
        }
    }

    /// Where each desktop's idle time is read, as the daemon's log names it.
    static let idleSignals: [DesktopSession.Kind: String] = [
        .gnome: "GNOME idle monitor", .swaync: "Wayland idle timeout (swayidle)",
    ]

    /// Idle: with `reminders.away_after` at one minute, a minute without input (none reaches the headless desktop)
    /// makes Mutter's idle monitor fire on GNOME, and the daemon's `swayidle` child say idle on sway; reminders are
    /// held; a virtual pointer's motion ends it, and they come, once. On sway the child ends with the daemon.
    @Test(arguments: [DesktopSession.Kind.gnome, .swaync])
    func heldWhileIdleShownOnInput(kind: DesktopSession.Kind) throws {
        let signal = try #require(Self.idleSignals[kind])
        try Self.onDesktop(kind) { desktop, logind, w8 in
            try w8.configure(["reminders.away_after": "1"])
            try desktop.command(["cmd": "activity"])
            let daemon = try DaemonProcess(w8, fakeStart: "\(monday) 08:58:00 x60")
            defer { daemon.stop() }
            try daemon.waitForLog("\(signal) here", timeout: 15)
            // The sway harness names its runtime directory; GNOME's has its own, which no swayidle names.
            let runtime = desktop.environment["XDG_RUNTIME_DIR"] ?? w8.environment["XDG_RUNTIME_DIR"] ?? ""
            #expect(Self.swayidleChildren(runtime: runtime).count == (kind == .swaync ? 1 : 0))
            // The desktop's part: once, in a full `make test`, sway let 120 s pass without saying idle to a live
            // swayidle. Input starts its timeout again, once; what w8 answers for is the hold that follows.
            do { try daemon.waitForLog(": held: idle", timeout: 120) } catch {
                try desktop.command(["cmd": "activity"])
                try daemon.waitForLog(": held: idle", timeout: 120)
            }
            try shot(desktop, "idle")
            #expect(Self.releases(daemon.log) == 0)
            #expect(try !Self.waterReminders(desktop).contains { ($0["body"] as? String)?.contains("away") == true })

            // Input, as a person gives it, until the desktop says it ended the idle time (the daemon logs each change of
            // presence): what w8 answers for is what follows.
            let back = {
                daemon.log.split(separator: "\n").filter {
                    $0.contains("presence now:") && $0.contains("\(signal) here")
                }
                .count
            }
            let idle = back()
            for _ in 0..<3 where back() == idle {
                try desktop.command(["cmd": "activity"])
                let until = Date().addingTimeInterval(5)
                while back() == idle, Date() < until { usleep(100_000) }
            }
            #expect(back() > idle, "the desktop never said that input ended the idle time: \(daemon.log)")
            let deadline = Date().addingTimeInterval(15)
            while Self.releases(daemon.log) < 1, Date() < deadline { usleep(200_000) }
            #expect(Self.releases(daemon.log) == 1, "\(daemon.log)")
            // It replaces the water reminder still open, if any: GNOME Shell holds one that says it was held.
            let shown = try desktop.waitForNotification("Drink some water") {
                ($0["body"] as? String)?.contains("while you were away.") == true
            }
            #expect((shown["body"] as? String)?.contains(" since ") == true, "\(shown)")
            try shot(desktop, "idle-back")
            #expect(daemon.stop() == 0)
            let gone = Date().addingTimeInterval(5)
            while !Self.swayidleChildren(runtime: runtime).isEmpty, Date() < gone { usleep(100_000) }
            #expect(Self.swayidleChildren(runtime: runtime).isEmpty, "swayidle outlived the daemon")
        }
    }
}
