import CLibnotify

// GVariant values and GDBus calls, signals and name watches, as the presence watch reads them. Everything here runs
// on the libnotify thread, whose loop dispatches the signals (see `LibnotifyThread`).

/// A GVariant that Swift holds a reference to, dropped with it.
final class Variant {
    let raw: OpaquePointer

    init(owning raw: OpaquePointer) { self.raw = raw }
    init(borrowing raw: OpaquePointer) { self.raw = g_variant_ref(raw) }
    deinit { g_variant_unref(raw) }

    var type: String { String(cString: g_variant_get_type_string(raw)) }
    var count: Int { Int(g_variant_n_children(raw)) }

    subscript(index: Int) -> Variant? {
        index < count ? Variant(owning: g_variant_get_child_value(raw, gsize(index))) : nil
    }

    /// What a `v` holds; any other value is itself.
    var unboxed: Variant { type == "v" ? Variant(owning: g_variant_get_variant(raw)) : self }

    var bool: Bool? { type == "b" ? g_variant_get_boolean(raw) != 0 : nil }

    var string: String? { ["s", "o", "g"].contains(type) ? String(cString: g_variant_get_string(raw, nil)) : nil }

    var unsigned: UInt64? {
        switch type {
        case "u": UInt64(g_variant_get_uint32(raw))
        case "t": g_variant_get_uint64(raw)
        default: nil
        }
    }

    /// The strings of an `as`.
    var strings: [String] { type == "as" ? (0..<count).compactMap { self[$0]?.string } : [] }

    /// The value under `key` in an `a{sv}`, unboxed.
    func value(forKey key: String) -> Variant? {
        guard type == "a{sv}" else { return nil }
        for index in 0..<count {
            if let entry = self[index], entry[0]?.string == key { return entry[1]?.unboxed }
        }
        return nil
    }
}

/// A D-Bus connection of GDBus, as the presence watch uses it: calls that never start a service, signals and names.
struct Bus {
    let connection: OpaquePointer

    /// The bus, or nil when there is none (`DBUS_SYSTEM_BUS_ADDRESS` or the session bus unreachable).
    static func connect(_ type: GBusType) -> Bus? {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(type, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        return Bus(connection: connection)
    }

    /// Calls `method` and returns its reply, or nil when it failed; never starts a service that is not running.
    func call(
        _ name: String, _ path: String, _ interface: String, _ method: String, _ arguments: [OpaquePointer?] = [],
        timeoutMilliseconds: Int32 = 2000
    ) -> Variant? {
        let parameters = arguments.isEmpty ? nil : g_variant_new_tuple(arguments, gsize(arguments.count))
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, name, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
            timeoutMilliseconds, nil, &error)
        if let error { g_error_free(error) }
        return reply.map { Variant(owning: $0) }
    }

    /// The property `property` of `interface`, unboxed; nil when it cannot be read.
    func property(_ name: String, _ path: String, _ interface: String, _ property: String) -> Variant? {
        call(
            name, path, "org.freedesktop.DBus.Properties", "Get",
            [g_variant_new_string(interface), g_variant_new_string(property)])?[0]?.unboxed
    }

    /// Calls `body(member, parameters)` for each matching signal, for the life of the process.
    func subscribe(
        sender: String, interface: String?, member: String?, path: String?,
        _ body: @escaping (String, Variant) -> Void
    ) {
        let handler = Unmanaged.passRetained(SignalHandler(body)).toOpaque()
        _ = g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, member, parameters, data in
                guard let data, let parameters else { return }
                Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue().body(
                    member.map { String(cString: $0) } ?? "", Variant(borrowing: parameters))
            }, handler, { Unmanaged<SignalHandler>.fromOpaque($0!).release() })
    }

    /// Calls `appeared` each time `name` gets an owner (also at once, when it has one) and `vanished` each time it
    /// loses it, for the life of the process.
    func watch(_ name: String, appeared: @escaping () -> Void, vanished: @escaping () -> Void) {
        let handler = Unmanaged.passRetained(NameHandler(appeared: appeared, vanished: vanished)).toOpaque()
        _ = g_bus_watch_name_on_connection(
            connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, data in Unmanaged<NameHandler>.fromOpaque(data!).takeUnretainedValue().appeared() },
            { _, _, data in Unmanaged<NameHandler>.fromOpaque(data!).takeUnretainedValue().vanished() }, handler,
            { Unmanaged<NameHandler>.fromOpaque($0!).release() })
    }
}

private final class SignalHandler {
    let body: (String, Variant) -> Void
    init(_ body: @escaping (String, Variant) -> Void) { self.body = body }
}

private final class NameHandler {
    let appeared: () -> Void
    let vanished: () -> Void
    init(appeared: @escaping () -> Void, vanished: @escaping () -> Void) {
        self.appeared = appeared
        self.vanished = vanished
    }
}
