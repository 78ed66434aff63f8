import Foundation

/// The XDG Base Directory specification's directories, resolved from an environment. The one place w8 reads
/// `XDG_*`: relative values are ignored, as the specification says, and an empty or unset variable takes its
/// default under the home directory.
public struct XDGDirectories: Sendable, Equatable {
    public let home: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public let dataHome: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public let configHome: String
    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    public let cacheHome: String
    /// `$XDG_DATA_DIRS`, default `/usr/local/share:/usr/share`.
    public let dataDirectories: [String]
    /// `$XDG_CONFIG_DIRS`, default `/etc/xdg`.
    public let configDirectories: [String]
    /// `$XDG_RUNTIME_DIR`; it has no default.
    public let runtimeDirectory: String?

    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - accountHome: the account's home directory, for when `HOME` is unset or empty; asked only then (the
    ///     password database look-up costs every command a few hundred microseconds).
    public init(environment: [String: String], accountHome: @autoclosure () -> String) {
        self.init(variable: { environment[$0] }, accountHome: accountHome())
    }

    /// The same from `variable`, which reads one environment variable (such as `getenv`), without a dictionary of
    /// them all: a thread that starts before `ProcessInfo.environment` exists finds the directories this way.
    public init(variable: (String) -> String?, accountHome: @autoclosure () -> String) {
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? accountHome()
        self.home = home
        func base(_ name: String, _ fallback: String) -> String {
            if let value = variable(name), value.hasPrefix("/") { return value }
            return (home as NSString).appendingPathComponent(fallback)
        }
        dataHome = base("XDG_DATA_HOME", ".local/share")
        configHome = base("XDG_CONFIG_HOME", ".config")
        cacheHome = base("XDG_CACHE_HOME", ".cache")
        let dirs = variable("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dataDirectories = dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let configDirs = variable("XDG_CONFIG_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        configDirectories = configDirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        runtimeDirectory = variable("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// Where a session bus reads `.service` files, first first, as the D-Bus spec's
    /// `<standard_session_servicedirs/>`: `$XDG_RUNTIME_DIR/dbus-1/services`, then `dbus-1/services` under each
    /// data directory, then the bus's own `/usr/share/dbus-1/services`.
    public var sessionServiceDirectories: [String] {
        let directories =
            (runtimeDirectory.map { [$0 + "/dbus-1/services"] } ?? []) + dataSearchPath.map { $0 + "/dbus-1/services" }
            + ["/usr/share/dbus-1/services"]
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// Where installed data such as icons is looked for, most personal first: `dataHome`, then `dataDirectories`.
    public var dataSearchPath: [String] { [dataHome] + dataDirectories }
}
