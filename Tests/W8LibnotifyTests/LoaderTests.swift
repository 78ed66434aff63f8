import CLibnotify
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// CLibnotify loads libnotify with dlopen and so declares the enum values it uses by hand, without GLib's headers:
/// they must be the libraries' own, as GLib's type system names them. (What happens when libnotify cannot be loaded
/// is a process-wide outcome, tested on the built `w8` in `CLINotificationTests`.)
@Suite struct LoaderTests {
    /// The value GLib's enum type `typeFunction` (such as `g_dbus_error_get_type`) gives the member `name`.
    static func value(_ name: String, of typeFunction: String) throws -> Int32? {
        let library = try #require(dlopen("libnotify.so.4", RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        func function<T>(_ symbol: String, _ type: T.Type) throws -> T {
            unsafeBitCast(try #require(dlsym(library, symbol), "no \(symbol)"), to: type)
        }
        let type = try function(typeFunction, (@convention(c) () -> UInt).self)()
        let enumClass = try function("g_type_class_ref", (@convention(c) (UInt) -> UnsafeMutableRawPointer?).self)(type)
        let byName = try function(
            "g_enum_get_value_by_name",
            (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>) -> UnsafeRawPointer?).self)
        // A `GEnumValue`, whose first member is the `gint` value.
        return byName(enumClass, name)?.load(as: Int32.self)
    }

    @Test func loadsOncePerProcess() {
        #expect(clibnotify_load() == 0, "\(String(cString: clibnotify_error()))")
        #expect(clibnotify_load() == 0)
        #expect(String(cString: clibnotify_error()).isEmpty)
    }

    @Test func enumValuesAreTheLibrariesOwn() throws {
        let dbus: [(GDBusError, String)] = [
            (G_DBUS_ERROR_SERVICE_UNKNOWN, "SERVICE_UNKNOWN"), (G_DBUS_ERROR_NAME_HAS_NO_OWNER, "NAME_HAS_NO_OWNER"),
            (G_DBUS_ERROR_NO_REPLY, "NO_REPLY"), (G_DBUS_ERROR_NO_SERVER, "NO_SERVER"),
            (G_DBUS_ERROR_TIMEOUT, "TIMEOUT"),
            (G_DBUS_ERROR_DISCONNECTED, "DISCONNECTED"), (G_DBUS_ERROR_FILE_NOT_FOUND, "FILE_NOT_FOUND"),
            (G_DBUS_ERROR_TIMED_OUT, "TIMED_OUT"), (G_DBUS_ERROR_SPAWN_EXEC_FAILED, "SPAWN_EXEC_FAILED"),
            (G_DBUS_ERROR_SPAWN_FORK_FAILED, "SPAWN_FORK_FAILED"),
            (G_DBUS_ERROR_SPAWN_CHILD_EXITED, "SPAWN_CHILD_EXITED"),
            (G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, "SPAWN_CHILD_SIGNALED"), (G_DBUS_ERROR_SPAWN_FAILED, "SPAWN_FAILED"),
            (G_DBUS_ERROR_SPAWN_SETUP_FAILED, "SPAWN_SETUP_FAILED"),
            (G_DBUS_ERROR_SPAWN_CONFIG_INVALID, "SPAWN_CONFIG_INVALID"),
            (G_DBUS_ERROR_SPAWN_SERVICE_INVALID, "SPAWN_SERVICE_INVALID"),
            (G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, "SPAWN_SERVICE_NOT_FOUND"),
            (G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID, "SPAWN_PERMISSIONS_INVALID"),
            (G_DBUS_ERROR_SPAWN_FILE_INVALID, "SPAWN_FILE_INVALID"), (G_DBUS_ERROR_SPAWN_NO_MEMORY, "SPAWN_NO_MEMORY"),
        ]
        for (code, name) in dbus {
            #expect(
                try Self.value("G_DBUS_ERROR_" + name, of: "g_dbus_error_get_type") == Int32(code.rawValue), "\(name)")
        }
        let io: [(GIOErrorEnum, String)] = [
            (G_IO_ERROR_NOT_FOUND, "NOT_FOUND"), (G_IO_ERROR_CLOSED, "CLOSED"), (G_IO_ERROR_TIMED_OUT, "TIMED_OUT"),
            (G_IO_ERROR_CONNECTION_REFUSED, "CONNECTION_REFUSED"),
        ]
        for (code, name) in io {
            #expect(
                try Self.value("G_IO_ERROR_" + name, of: "g_io_error_enum_get_type") == Int32(code.rawValue), "\(name)")
        }
        #expect(try Self.value("G_BUS_TYPE_SESSION", of: "g_bus_type_get_type") == Int32(G_BUS_TYPE_SESSION.rawValue))
        let urgencies: [(NotifyUrgency, String)] = [
            (NOTIFY_URGENCY_LOW, "LOW"), (NOTIFY_URGENCY_NORMAL, "NORMAL"), (NOTIFY_URGENCY_CRITICAL, "CRITICAL"),
        ]
        for (urgency, name) in urgencies {
            #expect(
                try Self.value("NOTIFY_URGENCY_" + name, of: "notify_urgency_get_type") == Int32(urgency.rawValue),
                "\(name)")
        }
    }
}
