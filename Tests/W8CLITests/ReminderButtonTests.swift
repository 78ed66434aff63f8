import Foundation
import Testing
import W8Core
import W8TestHarness

/// The day this file's history is told from: the test clock's Sunday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let sunday = TestClock.daysBack(to: 1)

/// The daemon's reminder buttons against a notification server on a private bus that presses one (issue 15).
@Suite(.serialized, .ownThread) struct ReminderButtonTests {
    /// A sandbox with the hourly hydration reminder on, the summary off, and a 300 ml cup and a 750 ml bottle.
    func sandbox(_ server: ButtonNotificationServer) throws -> W8Sandbox {
        let w8 = try W8Sandbox(bus: server.bus)
        try w8.configure(W8Sandbox.hydrationButtons)
        return w8
    }

    func waterToday(_ w8: W8Sandbox) throws -> Int? {
        let run = try w8.run("today", "--date", "\(TestClock.day(sunday))", "--json")
        return (try run.json() as? [String: Any])?["water_ml"] as? Int
    }

    @Test func pressingCupLogsTheCupAndClosesTheReminder() throws {
        // Given a server with buttons that presses "+1 cup" on whatever offers it
        let server = try ButtonNotificationServer(capabilities: ["actions", "body"], press: "cup")
        defer { server.stop() }
        let w8 = try sandbox(server)
        #expect(try waterToday(w8) == 0)
        // When the daemon's hydration reminder fires
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 10:59:58")
        defer { daemon.stop() }
        try daemon.waitForLog("hydration@\(TestClock.day(sunday))T11:00: sent", timeout: 8)
        try daemon.waitForLog("reminder.hydration button 'cup': logged 300 ml", timeout: 5)
        // Then the reminder carried both drinks with the configured sizes, the cup was logged, and it was closed
        let received = server.received()
        let notify = try #require(received.first { $0.method == "Notify" }, "server saw: \(received)")
        #expect(notify.summary == "Drink some water")
        #expect(
            notify.actions == [
                NotificationAction(id: "cup", label: "+1 cup (300 ml)"),
                NotificationAction(id: "bottle", label: "+1 bottle (750 ml)"),
            ])
        #expect(try waterToday(w8) == 300, "log: \(daemon.log)")
        let deadline = Date().addingTimeInterval(3)
        while !server.received().contains(where: { $0.method == "CloseNotification" }), Date() < deadline {
            usleep(20_000)
        }
        #expect(
            server.received().filter { $0.method == "CloseNotification" }.map(\.id) == [notify.id],
            "server saw: \(server.received())")
        #expect(daemon.stop() == 0)
    }

    @Test func aServerWithoutActionsGetsNoButtons() throws {
        // Given a server that does not advertise "actions" (it would still press "cup" if offered)
        let server = try ButtonNotificationServer(capabilities: ["body"], press: "cup")
        defer { server.stop() }
        let w8 = try sandbox(server)
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 10:59:58")
        defer { daemon.stop() }
        try daemon.waitForLog("hydration@\(TestClock.day(sunday))T11:00: sent", timeout: 8)
        // The quiet proven, not slept on: the server recorded that "cup" was not offered, so it will press nothing,
        // and the daemon has exited, so it will close nothing.
        #expect(daemon.stop() == 0)
        // Then the reminder went out as before: no buttons, nothing logged, nothing closed
        let received = server.received()
        #expect(received.map(\.method) == ["Notify", "NotOffered"], "server saw: \(received)")
        #expect(received.first?.actions == [])
        #expect(try waterToday(w8) == 0)
    }
}
