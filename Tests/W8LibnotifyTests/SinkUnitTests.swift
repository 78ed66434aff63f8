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

    @Test("The installed icon is sent as its file, the 48 px PNG first; the themed name only when none is installed")
    func resolvesIcon() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("w8-icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let user = root.appendingPathComponent("user")
        let system = root.appendingPathComponent("system")
        let sink = LibnotifyNotificationSink(dataDirectories: ["/nonexistent", user.path, system.path])
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
