import Foundation
import Testing
import W8Core
import W8TestSupport

/// The built `w8` against real notification servers, or their absence.
@Suite(.serialized) struct NotificationServerTests {
    /// An installed server that dies when D-Bus starts it (dunst with no display) is not "no server".
    @Test func serverThatFailsToStart() throws {
        let dunstService = URL(fileURLWithPath: "/usr/share/dbus-1/services/org.knopwob.dunst.service")
        try #require(
            FileManager.default.fileExists(atPath: dunstService.path),
            "dunst's D-Bus service file is missing; install it with: apt-get install dunst")
        let bus = try PrivateSessionBus(serviceFiles: [dunstService])
        defer { bus.stop() }
        let w8 = try W8Sandbox(bus: bus)
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")

        let added = try w8.run("add", "175")

        #expect(added.status == 0)
        #expect(added.seconds < 3)
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
        let w8 = try W8Sandbox(bus: bus)
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")

        let added = try w8.run("add", "175")

        #expect(added.status == 0)
        #expect(added.stderr.contains("no notification server installed"), "\(added.stderr)")
        #expect(!added.stderr.contains("failed to start"), "\(added.stderr)")
        let report = try object(try object(try w8.json("doctor"))["notification_server"] as Any)
        #expect(report["status"] as? String == "not_installed")
        #expect(try w8.run("doctor").stdout.contains("no notification server installed"))
    }
}
