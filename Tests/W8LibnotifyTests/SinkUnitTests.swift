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

    @Test("XDG data directories follow the spec's defaults")
    func dataDirectories() {
        #expect(
            LibnotifyNotificationSink.dataDirectories(environment: ["HOME": "/home/a"])
                == ["/home/a/.local/share", "/usr/local/share", "/usr/share"])
        #expect(
            LibnotifyNotificationSink.dataDirectories(
                environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/x:relative:/y"])
                == ["/d", "/x", "/y"])
    }

    @Test("The icon is used by name only where it is installed")
    func resolvesIcon() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("w8-icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let apps = root.appendingPathComponent("icons/hicolor/48x48/apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let sink = LibnotifyNotificationSink(dataDirectories: ["/nonexistent", root.path])
        #expect(sink.resolveIcon("w8trackr") == "dialog-information")

        try Data().write(to: apps.appendingPathComponent("w8trackr.png"))

        #expect(sink.resolveIcon("w8trackr") == "w8trackr")
        #expect(sink.resolveIcon("/nonexistent/icon.png") == "dialog-information")
    }

    @Test(
        "Error messages are one line a person can act on",
        arguments: [
            LibnotifyError.noSessionBus("DBUS_SESSION_BUS_ADDRESS is unset"), .noNotificationServer("no owner"),
            .serverError("bad hint"), .timedOut(seconds: 2),
        ])
    func messages(error: LibnotifyError) throws {
        let message = try #require(error.errorDescription)
        #expect(!message.contains("\n"))
        #expect(message.count < 200)
    }

    @Test("The timeout message names the deadline")
    func timeoutMessage() {
        #expect(LibnotifyError.timedOut(seconds: 2).localizedDescription.contains("within 2 s"))
    }
}
