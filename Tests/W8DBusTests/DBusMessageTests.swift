import Foundation
import Testing

@testable import W8DBus

/// The wire format against GDBus's own (`Gio.DBusMessage` through python3-gi): what we write, GDBus reads back
/// to the same values; what GDBus writes, in either byte order, we read.
@Suite("D-Bus messages, checked against GDBus")
struct DBusMessageTests {
    /// Runs `script` with python3 (GDBus through python3-gi), the message file as its argument; its stdout.
    func gdbus(_ script: String, _ bytes: [UInt8] = []) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("w8-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let message = directory.appendingPathComponent("message")
        try Data(bytes).write(to: message)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sys\nfrom gi.repository import Gio, GLib\n" + script, message.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3-gi failed: \(text)")
        return text
    }

    @Test("A Notify call with every kind of value is read by GDBus as written")
    func notifyCallReadsBack() throws {
        var body = DBusWriter()
        body.string("W8Trackr")
        body.uint32(7)
        body.string("/usr/share/icons/hicolor/48x48/apps/w8trackr.png")
        body.string("Objectif atteint 🎉")
        body.string("a & b\0never sent")
        body.array(alignment: 4) { actions in
            actions.string("snooze")
            actions.string("Snooze")
        }
        body.array(alignment: 8) { hints in
            func hint(_ name: String, _ type: String, _ value: (inout DBusWriter) -> Void) {
                hints.structure { entry in
                    entry.string(name)
                    entry.variant(type, value)
                }
            }
            hint("urgency", "y") { $0.byte(2) }
            hint("sender-pid", "x") { $0.int64(-42) }
            hint("category", "s") { $0.string("x-w8trackr.milestone") }
        }
        body.int32(-1)
        let call = DBusMethodCall(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify", signature: "susssasa{sv}i", body: body)

        let read = try gdbus(
            """
            blob = open(sys.argv[1], "rb").read()
            assert Gio.DBusMessage.bytes_needed(blob) == len(blob)
            m = Gio.DBusMessage.new_from_blob(blob, Gio.DBusCapabilityFlags.NONE)
            print(m.get_message_type().value_nick, m.get_serial(), int(m.get_flags()), m.get_byte_order().value_nick)
            print(m.get_destination(), m.get_path(), m.get_interface(), m.get_member(), m.get_signature())
            print(m.get_body().print_(True))
            """, call.encoded(serial: 3))

        #expect(
            read.split(separator: "\n").map(String.init) == [
                "method-call 3 0 little-endian",
                "org.freedesktop.Notifications /org/freedesktop/Notifications org.freedesktop.Notifications Notify "
                    + "susssasa{sv}i",
                "('W8Trackr', uint32 7, '/usr/share/icons/hicolor/48x48/apps/w8trackr.png', 'Objectif atteint 🎉', "
                    + "'a & b', ['snooze', 'Snooze'], {'urgency': <byte 0x02>, 'sender-pid': <int64 -42>, "
                    + "'category': <'x-w8trackr.milestone'>}, -1)",
            ])
    }

    @Test("Hello, with no body, is a message GDBus reads", arguments: [1, 200_000] as [UInt32])
    func helloReadsBack(serial: UInt32) throws {
        let read = try gdbus(
            """
            m = Gio.DBusMessage.new_from_blob(open(sys.argv[1], "rb").read(), Gio.DBusCapabilityFlags.NONE)
            print(m.get_member(), m.get_serial(), m.get_signature() or "-", m.get_body())
            """, DBusMethodCall.hello.encoded(serial: serial))
        #expect(read == "Hello \(serial) - None\n")
    }

    @Test("Replies and errors GDBus writes are read in either byte order", arguments: ["little", "big"])
    func readsGDBusReplies(order: String) throws {
        let blobs = try gdbus(
            """
            order = Gio.DBusMessageByteOrder.\(order == "big" ? "BIG_ENDIAN" : "LITTLE_ENDIAN")
            call = Gio.DBusMessage.new_method_call(":1.0", "/org/freedesktop/Notifications",
                "org.freedesktop.Notifications", "Notify")
            call.set_serial(9)
            reply = Gio.DBusMessage.new_method_reply(call)
            reply.set_body(GLib.Variant("(u)", (4000000001,)))
            reply.set_byte_order(order)
            reply.set_serial(77)
            caps = Gio.DBusMessage.new_method_reply(call)
            caps.set_body(GLib.Variant("(as)", (["actions", "body", "body-markup"],)))
            caps.set_byte_order(order)
            caps.set_serial(78)
            error = Gio.DBusMessage.new_method_error_literal(call, "org.freedesktop.DBus.Error.ServiceUnknown",
                "The name is not activatable")
            error.set_byte_order(order)
            error.set_serial(79)
            for m in (reply, caps, error):
                print(m.to_blob(Gio.DBusCapabilityFlags.NONE).hex())
            """)
        let messages = try blobs.split(separator: "\n").map { line in
            let hex = Array(line.utf8)
            let bytes = stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
            }
            #expect(try DBusMessage.length(startOf: bytes[...]) == bytes.count)
            return try DBusMessage(bytes: bytes)
        }
        try #require(messages.count == 3)

        #expect(messages[0].type == .methodReturn && messages[0].replySerial == 9 && messages[0].serial == 77)
        var id = messages[0].body
        #expect(messages[0].signature == "u")
        #expect(try id.uint32() == 4_000_000_001)
        var capabilities = messages[1].body
        #expect(try capabilities.strings() == ["actions", "body", "body-markup"])
        #expect(messages[2].type == .error && messages[2].replySerial == 9)
        #expect(messages[2].errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
        var text = messages[2].body
        #expect(try text.string() == "The name is not activatable")
    }

    @Test("What is not a whole message is never read past its end")
    func refusesShortOrForeign() throws {
        let hello = DBusMethodCall.hello.encoded(serial: 1)
        #expect(try DBusMessage.length(startOf: hello.prefix(15)) == nil)
        #expect(throws: DBusProtocolError.self) { try DBusMessage.length(startOf: ([0x58] + hello.dropFirst())[...]) }
        #expect(throws: DBusProtocolError.self) { try DBusMessage(bytes: Array(hello.dropLast(4))) }
    }
}
