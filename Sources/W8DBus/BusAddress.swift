// Where the session bus listens, read from a D-Bus address as `DBUS_SESSION_BUS_ADDRESS` holds it.
// Specification: https://dbus.freedesktop.org/doc/dbus-specification.html#addresses

/// A Unix socket a bus listens on: a file, or a name in Linux's abstract namespace.
public enum UnixSocketAddress: Sendable, Equatable {
    case path(String)
    case abstract(String)
}

/// The session bus's sockets, as GDBus finds them (`g_dbus_address_get_for_bus_sync`).
public enum SessionBusAddress {
    /// The sockets to try in order, from `busAddress` (`DBUS_SESSION_BUS_ADDRESS`), or when it is unset or empty,
    /// `runtimeDirectory/bus` if that exists (`XDG_RUNTIME_DIR`, where systemd's user bus lives).
    ///
    /// Nil when there is nothing this client can connect to by itself: no address, or one that names a transport
    /// other than a Unix socket file or abstract name (`tcp:`, `autolaunch:`, `unixexec:` …), or is malformed.
    /// GDBus, which speaks all of them and reports each failure in its own words, is then the way.
    public static func sockets(
        busAddress: String?, runtimeDirectory: String?, exists: (String) -> Bool
    ) -> [UnixSocketAddress]? {
        guard let busAddress, !busAddress.isEmpty else {
            guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { return nil }
            let path = runtimeDirectory + "/bus"
            return exists(path) ? [.path(path)] : nil
        }
        var sockets: [UnixSocketAddress] = []
        for entry in busAddress.split(separator: ";", omittingEmptySubsequences: true) {
            guard let socket = unixSocket(entry) else { return nil }
            sockets.append(socket)
        }
        return sockets.isEmpty ? nil : sockets
    }

    /// `unix:path=…` or `unix:abstract=…`, with any other keys (`guid=`) ignored; nil for anything else.
    static func unixSocket(_ entry: Substring) -> UnixSocketAddress? {
        guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { return nil }
        var path: String?
        var abstract: String?
        for pair in entry[entry.index(after: colon)...].split(separator: ",") {
            guard let equals = pair.firstIndex(of: "="), let value = unescape(pair[pair.index(after: equals)...])
            else { return nil }
            switch pair[..<equals] {
            case "path": path = value
            case "abstract": abstract = value
            case "guid": continue
            // `tmpdir`, `dir` and `runtime` are for servers; a client cannot connect to them.
            default: return nil
            }
        }
        switch (path, abstract) {
        case (let path?, nil) where !path.isEmpty: return .path(path)
        case (nil, let abstract?): return .abstract(abstract)
        default: return nil
        }
    }

    /// A value with its `%XX` escapes decoded; nil for a malformed escape or text that is not UTF-8.
    static func unescape(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
