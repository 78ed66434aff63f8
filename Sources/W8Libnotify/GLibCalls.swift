import CLibnotify
import Foundation
import W8Core
import W8Text

// The small layer through which every call into GLib, GDBus and libnotify goes.
// Everything here runs on the libnotify thread only (see `LibnotifyThread`).

/// A `GError` copied into Swift; the C value is freed when this is made.
struct GLibError: Error {
    var domain: GQuark
    var code: Int32
    var message: String
    /// The D-Bus error name of a remote error, such as "org.freedesktop.DBus.Error.Spawn.ChildExited".
    var remoteName: String?

    /// Copies and frees `error` (`g_error_free`), without the "GDBus.Error:name: " prefix of remote errors.
    init(taking error: UnsafeMutablePointer<GError>) {
        remoteName = g_dbus_error_get_remote_error(error).map { takeString($0) }
        _ = g_dbus_error_strip_remote_error(error)
        domain = error.pointee.domain
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
    }

    init(message: String) {
        domain = 0
        code = 0
        self.message = message
    }

    /// The error GDBus makes of the D-Bus error `name` from a peer (`g_dbus_error_new_for_dbus_error`), for tests.
    init(dbusErrorName name: String, message: String) {
        precondition(clibnotify_load() == 0, String(cString: clibnotify_error()))
        self.init(taking: g_dbus_error_new_for_dbus_error(name, message))
    }

    func isDBusError(_ codes: GDBusError...) -> Bool {
        domain == g_dbus_error_quark() && codes.contains { Int32(bitPattern: $0.rawValue) == code }
    }

    func isIOError(_ codes: GIOErrorEnum...) -> Bool {
        domain == g_io_error_quark() && codes.contains { Int32(bitPattern: $0.rawValue) == code }
    }

    /// Sorts a failed call to the notification server into the error a person can act on.
    ///
    /// When a server is installed but dies as D-Bus starts it, dbus-daemon answers `Spawn.*` (it ran the program
    /// itself); dbus-broker answers `NameHasNoOwner` "Could not activate remote peer …", and dbus-daemon with systemd
    /// activation passes on systemd's error (`org.freedesktop.systemd1.*`). `ServiceUnknown` means nothing is
    /// installed.
    var libnotifyError: LibnotifyError {
        if isDBusError(
            G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
            G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_SERVICE_INVALID,
            G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID,
            G_DBUS_ERROR_SPAWN_FILE_INVALID, G_DBUS_ERROR_SPAWN_NO_MEMORY, G_DBUS_ERROR_SPAWN_SETUP_FAILED,
            G_DBUS_ERROR_SPAWN_CONFIG_INVALID)
        {
            return .serverFailedToStart(ServerStartFailure(detail: message, throughSystemd: false))
        }
        if remoteName?.hasPrefix("org.freedesktop.systemd1.") == true
            || (isDBusError(G_DBUS_ERROR_NAME_HAS_NO_OWNER) && message.contains("Could not activate"))
        {
            return .serverFailedToStart(ServerStartFailure(detail: message, throughSystemd: true))
        }
        if isDBusError(G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER) {
            return .noNotificationServer(message)
        }
        if isDBusError(G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT)
            || isIOError(G_IO_ERROR_TIMED_OUT)
        {
            return .timedOut(seconds: 25)
        }
        if isIOError(G_IO_ERROR_CLOSED, G_IO_ERROR_NOT_FOUND, G_IO_ERROR_CONNECTION_REFUSED)
            || isDBusError(G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_FILE_NOT_FOUND)
        {
            return .noSessionBus(message)
        }
        return .serverError(message)
    }
}

/// Takes ownership of a `gchar*`: copies it into Swift and frees it with `g_free`.
func takeString(_ string: UnsafeMutablePointer<CChar>?) -> String {
    guard let string else { return "" }
    defer { g_free(string) }
    return String(cString: string)
}

/// The libnotify state of this process, touched only on the libnotify thread.
struct LibnotifyContext {
    /// The session bus connection, kept so that the bus going away cannot end the process (see `connect`).
    private var connection: OpaquePointer?
    /// The server's capabilities, once it has answered.
    private var knownCapabilities: [String]?
    /// Notifications with buttons or `replacesOpen`, by key, kept alive so that libnotify hears their
    /// `ActionInvoked` and `NotificationClosed` (after which their id reads 0); one per key, released when the next
    /// of that key is posted.
    var posted: [String: UnsafeMutablePointer<NotifyNotification>] = [:]

    /// Readies libnotify and the session bus: `notify_init` once, then `g_bus_get_sync`.
    ///
    /// `notify_init` never touches D-Bus; connecting here first turns "no bus" into its own error, and lets us
    /// clear `exit-on-close` so that a bus that goes away fails later calls instead of ending the whole process.
    mutating func connect() throws(LibnotifyError) {
        if notify_is_initted() == 0 {
            // libnotify reports failures both as a GError and as a g_warning on stderr; we keep the GError only.
            g_log_set_handler("libnotify", G_LOG_LEVEL_WARNING, { _, _, _, _ in }, nil)
            guard notify_init(DesktopNotification.appName) != 0 else { throw .serverError("notify_init failed") }
        }
        guard connection == nil else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            // The sink says so when DBUS_SESSION_BUS_ADDRESS is unset (`LibnotifyError.onBus`).
            throw .noSessionBus(error.map { GLibError(taking: $0).message } ?? "g_bus_get_sync failed")
        }
        g_dbus_connection_set_exit_on_close(bus, 0)
        connection = bus
    }

    /// The server's capabilities, from `notify_get_server_caps`; nil when the server did not answer.
    func capabilities() -> [String]? {
        guard let list = notify_get_server_caps() else { return nil }
        defer { clibnotify_free_string_list(list) }
        var result: [String] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                result.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        return result
    }

    /// The capabilities, asked of the server once per process.
    mutating func serverCapabilities() -> [String]? {
        if knownCapabilities == nil { knownCapabilities = capabilities() }
        return knownCapabilities
    }

    /// Whether the server shows buttons (`actions`); false when it does not say.
    mutating func serverShowsActions() -> Bool {
        serverCapabilities()?.contains("actions") ?? false
    }

    /// Whether bodies must be escaped: true unless the server says it does not read markup.
    mutating func serverReadsMarkup() -> Bool {
        serverCapabilities()?.contains("body-markup") ?? true
    }

    /// Whether the server shows the `image-path`/`image-data` image: it advertises `icon-static` or `icon-multi`
    /// (the spec's capabilities for the notification's image, which it draws in the icon's place) or `body-images`
    /// (swaync advertises only that, and shows `image-path`); true when it does not say.
    mutating func serverShowsImages() -> Bool {
        serverCapabilities().map { !Set($0).isDisjoint(with: Self.imageCapabilities) } ?? true
    }

    static let imageCapabilities: Set<String> = ["icon-static", "icon-multi", "body-images"]

    /// Asks the server for `GetServerInformation` directly through GDBus, to learn why libnotify's call failed.
    ///
    /// `notify_get_server_info` reports failure without a `GError`; this repeats the call to get one.
    func diagnoseServer(timeoutMilliseconds: Int32) -> LibnotifyError {
        guard let connection else { return .noSessionBus("not connected") }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
            "org.freedesktop.Notifications", "GetServerInformation", nil, nil, G_DBUS_CALL_FLAGS_NONE,
            timeoutMilliseconds, nil, &error)
        if let reply { g_variant_unref(reply) }
        if let error { return GLibError(taking: error).libnotifyError }
        // TRANSLATORS: after "the notification server refused the notification: "; keep GetServerInformation.
        return .serverError(tr("the server answered GetServerInformation, but libnotify could not read it"))
    }
}
