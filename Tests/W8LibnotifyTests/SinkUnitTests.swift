import Foundation
import Testing
import W8Core

@testable import W8Libnotify

/// The parts of the sink that need no server.
@Suite("LibnotifyNotificationSink without a server")
struct SinkUnitTests {
    @Test(
        "Markup characters are escaped",
        arguments: [
            ("plain", "plain"), ("<b>&", "&lt;b&gt;&amp;"), ("&amp;", "&amp;amp;"),
            ("82,5 kg → 80 kg", "82,5 kg → 80 kg"),
        ])
    func escapes(text: String, escaped: String) {
        #expect(LibnotifyNotificationSink.escapeMarkup(text) == escaped)
    }

    @Test("Expiry maps to libnotify timeouts")
    func timeouts() {
        #expect(LibnotifyNotificationSink.timeout(.serverDefault) == -1)
        #expect(LibnotifyNotificationSink.timeout(.never) == 0)
        #expect(LibnotifyNotificationSink.timeout(.milliseconds(5000)) == 5000)
    }

    @Test("The installed icon is sent as its file, the 48 px PNG first; the themed name only when none is installed")
    func resolvesIcon() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("w8-icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let user = root.appendingPathComponent("user")
        let system = root.appendingPathComponent("system")
        let sink = LibnotifyNotificationSink(
            dataDirectories: ["/nonexistent", user.path, system.path], sessionBusAddress: nil)
        func install(_ directory: URL, _ relative: String) throws -> String {
            let file = directory.appendingPathComponent("icons/hicolor/\(relative)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: file)
            return file.path
        }
        #expect(sink.resolveIcon("w8trackr") == "w8trackr")

        let svg = try install(system, "scalable/apps/w8trackr.svg")
        #expect(sink.resolveIcon("w8trackr") == svg)
        let png128 = try install(system, "128x128/apps/w8trackr.png")
        #expect(sink.resolveIcon("w8trackr") == png128, "a PNG before the SVG")
        _ = try install(system, "32x32/apps/w8trackr.png")
        #expect(sink.resolveIcon("w8trackr") == png128, "larger before smaller")
        let png48 = try install(system, "48x48/apps/w8trackr.png")
        #expect(sink.resolveIcon("w8trackr") == png48)
        let other = try install(system, "48x48/apps/other.png")
        #expect(sink.resolveIcon("other") == other)
        let userSVG = try install(user, "scalable/apps/w8trackr.svg")
        #expect(sink.resolveIcon("w8trackr") == userSVG, "XDG_DATA_HOME comes first")

        #expect(sink.resolveIcon("/nonexistent/icon.png") == "/nonexistent/icon.png")
    }

    @Test(
        "The doctor's name for each failure",
        arguments: [
            (LibnotifyError.noSessionBus("x"), "no_session_bus"), (.noNotificationServer("x"), "not_installed"),
            (.serverFailedToStart(ServerStartFailure(detail: "x", throughSystemd: false)), "failed_to_start"),
            (.serverError("x"), "server_error"), (.timedOut(seconds: 2), "timed_out"),
            (.libraryUnavailable("x"), "libnotify_unavailable"),
        ])
    func doctorStatus(error: LibnotifyError, status: String) {
        #expect(error.doctorStatus == status)
        #expect((error.startFailure != nil) == (status == "failed_to_start"))
    }

    @Test("A missing bus is explained by an unset DBUS_SESSION_BUS_ADDRESS, and only then")
    func unsetBus() {
        let missing = LibnotifyError.noSessionBus("Cannot autolaunch D-Bus without X11 $DISPLAY")
        #expect(missing.onBus(nil) == .noSessionBus("DBUS_SESSION_BUS_ADDRESS is unset"))
        #expect(missing.onBus("unix:path=/run/user/1000/bus") == missing)
        #expect(LibnotifyError.serverError("x").onBus(nil) == .serverError("x"))
    }

    @Test(
        "Error messages are one line a person can act on",
        arguments: [
            LibnotifyError.noSessionBus("DBUS_SESSION_BUS_ADDRESS is unset"), .noNotificationServer("no owner"),
            .serverError("bad hint"), .timedOut(seconds: 2),
            .serverFailedToStart(
                ServerStartFailure(
                    services: [Self.dunst], detail: "Process org.freedesktop.Notifications received signal 5",
                    throughSystemd: false)),
            .serverFailedToStart(
                ServerStartFailure(
                    services: [Self.dunst],
                    detail: "Could not activate remote peer 'org.freedesktop.Notifications': startup job failed",
                    throughSystemd: true)),
        ])
    func messages(error: LibnotifyError) throws {
        let message = try #require(error.errorDescription)
        #expect(!message.contains("\n"))
        #expect(message.count < 200)
    }

    static let dunst = NotificationService(
        name: "dunst", executable: "/usr/bin/dunst", systemdUnit: "dunst.service",
        file: "/usr/share/dbus-1/services/org.knopwob.dunst.service")

    @Test(
        "D-Bus errors sort into: nothing installed, installed but failed to start, no answer",
        arguments: [
            ("org.freedesktop.DBus.Error.ServiceUnknown", "The name was not provided by any .service files", "none"),
            ("org.freedesktop.DBus.Error.NameHasNoOwner", "Could not get owner of name", "none"),
            ("org.freedesktop.DBus.Error.Spawn.ChildExited", "Process exited with status 1", "dbus"),
            ("org.freedesktop.DBus.Error.Spawn.ChildSignaled", "Process received signal 5", "dbus"),
            ("org.freedesktop.DBus.Error.Spawn.ExecFailed", "Failed to execute program", "dbus"),
            ("org.freedesktop.DBus.Error.Spawn.Failed", "Failed", "dbus"),
            // dbus-broker, and dbus-daemon passing on systemd's answer
            (
                "org.freedesktop.DBus.Error.NameHasNoOwner", "Could not activate remote peer 'x': startup job failed",
                "systemd"
            ),
            ("org.freedesktop.systemd1.UnitMasked", "Unit dunst.service is masked.", "systemd"),
            ("org.freedesktop.DBus.Error.NoReply", "no reply", "timeout"),
        ])
    func classifies(name: String, message: String, expected: String) {
        let error = GLibError(dbusErrorName: name, message: message).libnotifyError
        switch (error, expected) {
        case (.noNotificationServer(let detail), "none"): #expect(detail == message)
        case (.serverFailedToStart(let failure), "dbus"), (.serverFailedToStart(let failure), "systemd"):
            #expect(failure.throughSystemd == (expected == "systemd"))
            #expect(failure.detail == message)
        case (.timedOut, "timeout"): break
        default: Issue.record("\(name) became \(error), expected \(expected)")
        }
    }

    @Test("A server that failed to start is named from the first service directory that provides notifications")
    func namesTheServerThatFailed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("w8-services-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ directory: String, _ file: String, _ text: String) throws {
            let url = root.appendingPathComponent(directory)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try text.write(to: url.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try write("home", "org.example.Other.service", "[D-BUS Service]\nName=org.example.Other\nExec=/bin/other\n")
        try write(
            "system", "org.knopwob.dunst.service",
            "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/dunst\nSystemdService=dunst.service\n")
        try write(
            "system", "fr.emersion.mako.service",
            "# comment\n[D-BUS Service]\nName = org.freedesktop.Notifications\nExec=/usr/bin/mako --flag\n")
        try write("later", "x.service", "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/later\n")
        let directories = [
            "/nonexistent", root.appendingPathComponent("home").path,
            root.appendingPathComponent("system").path, root.appendingPathComponent("later").path,
        ]

        let services = NotificationService.providers(in: directories)

        #expect(services.map(\.name) == ["mako", "dunst"])
        #expect(services.map(\.systemdUnit) == [nil, "dunst.service"])
        let failed = LibnotifyError.serverFailedToStart(
            ServerStartFailure(detail: "received signal 5", throughSystemd: false)
        )
        .namingServers(from: directories)
        #expect(
            failed.localizedDescription
                == "the notification server (mako or dunst) failed to start (received signal 5); "
                + "run the one your desktop uses in a terminal to see why")
        let dunstOnly = LibnotifyError.serverFailedToStart(
            ServerStartFailure(services: [Self.dunst], detail: "received signal 5", throughSystemd: false))
        #expect(
            dunstOnly.localizedDescription
                == "the notification server (dunst) failed to start (received signal 5); "
                + "run '/usr/bin/dunst' in a terminal to see why")
        #expect(
            LibnotifyError.serverFailedToStart(ServerStartFailure(detail: "startup job failed", throughSystemd: true))
                .localizedDescription == "the notification server failed to start (startup job failed); "
                + "see 'journalctl --user -e'")
    }

    @Test("The timeout message names the deadline")
    func timeoutMessage() {
        #expect(LibnotifyError.timedOut(seconds: 2).localizedDescription.contains("within 2 s"))
        // Not in the test process's locale (the host's LANG): w8's messages are English.
        #expect(LibnotifyError.timedOut(seconds: 2.5).localizedDescription.contains("within 2.5 s"))
        #expect(LibnotifyError.timedOut(seconds: 1234).localizedDescription.contains("within 1234 s"))
    }
}
