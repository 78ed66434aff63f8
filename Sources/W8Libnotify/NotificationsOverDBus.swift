import Foundation
import Synchronization
import W8Core
import W8DBus

/// Posts and closes notifications by calling the server's `org.freedesktop.Notifications` methods over the session
/// bus directly, sending what libnotify sends (the same arguments and hints, checked against it on real servers).
///
/// libnotify first loads GIO and GLib and ten more libraries, then makes seven calls before `Notify`; this makes the
/// handshake, `Hello` and `Notify` in one write and waits for one answer. It never loads libnotify, so it does not
/// cover what needs libnotify's main loop (buttons) or GDBus's other transports: a result of nil means "not tried,
/// nothing was sent", and the sink then goes through libnotify, which reports the failure in its own words.
struct NotificationsOverDBus: Sendable {
    let sockets: [UnixSocketAddress]
    /// The longest a call waits for the server, as the libnotify thread's deadline.
    let deadline: TimeInterval

    /// The connection `prepare()` opened, for the next call to take.
    let prepared = PreparedConnection()

    static let destination = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Shows `notification` with `icon` (already resolved to a file where one is installed); nil when nothing was
    /// sent.
    func post(_ notification: DesktopNotification, icon: String) -> Result<UInt32, LibnotifyError>? {
        converse { connection, deadline throws(Failure) in
            // The capabilities decide only how a body with markup characters is sent and whether an image goes
            // out; libnotify asks them before every post, this only when they matter.
            var capabilities: [String]?
            if notification.imagePath != nil || notification.body.contains(where: { "&<>".contains($0) }) {
                let serial = connection.queue(Self.call("GetCapabilities"))
                let reply = try answer(connection, serial, deadline)
                if reply.type == .methodReturn, reply.signature == "as" {
                    var body = reply.body
                    capabilities = try? body.strings()
                }
            }
            let escape = capabilities?.contains("body-markup") ?? true
            let image = capabilities.map { $0.contains("icon-static") || $0.contains("icon-multi") } ?? true
            let serial = connection.queue(
                Self.notify(notification, icon: icon, escapeBody: escape, sendImage: image, pid: getpid()))
            let reply = try answer(connection, serial, deadline)
            try Self.check(reply)
            var body = reply.body
            guard reply.signature == "u", let id = try? body.uint32() else {
                throw .failed(.serverError("Notify answered with '\(reply.signature)', not a notification id"))
            }
            return id
        }
    }

    /// Connects and sends the handshake and `Hello` without waiting, for the next `post` or `close` to use: the bus
    /// answers them meanwhile, and the call then waits only for its own answer. Nothing is shown. A failure here
    /// is left to the call to meet and report.
    func prepare() {
        if let until = Self.hungUntil.withLock({ $0 }), DBusConnection.now() < until { return }
        guard let connection = try? DBusConnection(sockets: sockets), (try? connection.send()) != nil else { return }
        prepared.keep(connection)
    }

    /// Closes the notification with server id `id`; nil when nothing was sent.
    func close(id: UInt32) -> Result<Void, LibnotifyError>? {
        converse { connection, deadline throws(Failure) in
            var arguments = DBusWriter()
            arguments.uint32(id)
            let serial = connection.queue(Self.call("CloseNotification", signature: "u", arguments))
            try Self.check(try answer(connection, serial, deadline))
        }
    }

    /// The `Notify` call libnotify 0.8 makes for `notification` (`notify_notification_show`).
    static func notify(
        _ notification: DesktopNotification, icon: String, escapeBody: Bool, sendImage: Bool, pid: Int32
    ) -> DBusMethodCall {
        var arguments = DBusWriter()
        arguments.string(DesktopNotification.appName)
        arguments.uint32(notification.replacesID ?? 0)
        arguments.string(icon)
        arguments.string(notification.title)
        arguments.string(
            escapeBody ? LibnotifyNotificationSink.escapeMarkup(notification.body) : notification.body)
        arguments.array(alignment: 4) { _ in }  // no buttons: those go through libnotify
        arguments.array(alignment: 8) { hints in
            func hint(_ name: String, _ type: String, _ value: (inout DBusWriter) -> Void) {
                hints.structure { entry in
                    entry.string(name)
                    entry.variant(type, value)
                }
            }
            hint("category", "s") { $0.string(notification.category.rawValue) }
            hint("desktop-entry", "s") { $0.string(DesktopNotification.desktopEntry) }
            hint("urgency", "y") { $0.byte(notification.urgency.rawValue) }
            hint("sender-pid", "x") { $0.int64(Int64(pid)) }
            if let tag = notification.replaceTag {
                for name in DesktopNotification.replaceTagHints { hint(name, "s") { $0.string(tag) } }
            }
            if let imagePath = notification.imagePath, sendImage {
                hint("image-path", "s") { $0.string(imagePath) }
            }
        }
        arguments.int32(LibnotifyNotificationSink.timeout(notification.expiry))
        return call("Notify", signature: "susssasa{sv}i", arguments)
    }

    static func call(_ member: String, signature: String = "", _ arguments: DBusWriter = DBusWriter())
        -> DBusMethodCall
    {
        DBusMethodCall(
            destination: destination, path: path, interface: destination, member: member, signature: signature,
            body: arguments)
    }

    /// Why a conversation stopped: nothing reached anyone (libnotify may try), or the error to report.
    enum Failure: Error {
        case notDelivered
        case failed(LibnotifyError)
    }

    /// Connects, runs `body`, and sorts the outcome: nil when nothing reached the bus, so libnotify may try.
    private func converse<T>(_ body: (DBusConnection, Int64) throws(Failure) -> T) -> Result<T, LibnotifyError>? {
        // A server that let an earlier call run out of time is still busy with it: fail at once, as libnotify's
        // thread does while its call is stuck (GDBus gives up on it after 25 s).
        let start = DBusConnection.now()
        if let until = Self.hungUntil.withLock({ $0 }), start < until { return .failure(.timedOut(seconds: deadline)) }
        let connection: DBusConnection
        if let early = prepared.take() {
            connection = early
        } else {
            do {
                connection = try DBusConnection(sockets: sockets)
            } catch {
                return nil
            }
        }
        do {
            return .success(try body(connection, start + Int64(deadline * 1e9)))
        } catch {
            switch error {
            case .notDelivered: return nil
            case .failed(let error):
                if case .timedOut = error { Self.hungUntil.withLock { $0 = DBusConnection.now() + 25_000_000_000 } }
                return .failure(error)
            }
        }
    }

    /// Until when (`DBusConnection.now()`) calls fail at once, after one ran out of time.
    private static let hungUntil = Mutex<Int64?>(nil)

    /// The answer to `serial`, with the connection's failures as the sink reports them.
    private func answer(_ connection: DBusConnection, _ serial: UInt32, _ deadline: Int64) throws(Failure)
        -> DBusMessage
    {
        do {
            return try connection.reply(to: serial, deadline: deadline)
        } catch {
            switch error {
            case .unreachable, .authenticationRejected: throw .notDelivered
            case .timedOut: throw .failed(.timedOut(seconds: self.deadline))
            case .closed(let reason): throw .failed(.noSessionBus(reason))
            case .malformed(let detail):
                throw .failed(.serverError("the session bus sent something unreadable: \(detail)"))
            }
        }
    }

    /// Throws the error a D-Bus error reply stands for.
    static func check(_ reply: DBusMessage) throws(Failure) {
        guard reply.type == .error else { return }
        var body = reply.body
        let message = reply.signature.hasPrefix("s") ? (try? body.string()) ?? "" : ""
        throw .failed(error(named: reply.errorName ?? "", message: message))
    }

    /// What a D-Bus error from the bus or the server means, sorted as `GLibError.libnotifyError` sorts GDBus's
    /// codes for the same names.
    static func error(named name: String, message: String) -> LibnotifyError {
        let bus = "org.freedesktop.DBus.Error."
        if name.hasPrefix(bus + "Spawn.") {
            return .serverFailedToStart(ServerStartFailure(detail: message, throughSystemd: false))
        }
        if name.hasPrefix("org.freedesktop.systemd1.")
            || (name == bus + "NameHasNoOwner" && message.contains("Could not activate"))
        {
            return .serverFailedToStart(ServerStartFailure(detail: message, throughSystemd: true))
        }
        switch name.hasPrefix(bus) ? String(name.dropFirst(bus.count)) : "" {
        case "ServiceUnknown", "NameHasNoOwner": return .noNotificationServer(message)
        case "NoReply", "Timeout", "TimedOut": return .timedOut(seconds: 25)
        case "Disconnected", "NoServer", "FileNotFound": return .noSessionBus(message)
        default: return .serverError(message)
        }
    }
}

/// A connection opened ahead of the call that uses it (`NotificationsOverDBus.prepare()`).
final class PreparedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: DBusConnection?

    func keep(_ connection: DBusConnection) { lock.withLock { self.connection = connection } }

    /// The connection, once: a connection serves one call.
    func take() -> DBusConnection? {
        lock.withLock {
            defer { connection = nil }
            return connection
        }
    }
}
