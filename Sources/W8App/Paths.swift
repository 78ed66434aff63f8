import Foundation
import W8Core

/// Where W8Trackr keeps its files, following the XDG Base Directory specification.
public struct Paths: Sendable, Equatable {
    /// `$XDG_DATA_HOME/w8trackr`, 0700.
    public var dataDirectory: String
    /// `$XDG_DATA_HOME/w8trackr/w8trackr.sqlite`, 0600.
    public var database: String
    /// `$XDG_CONFIG_HOME/w8trackr`.
    public var configDirectory: String
    /// `$XDG_CONFIG_HOME/w8trackr/config.toml`.
    public var configFile: String
    /// `$XDG_CACHE_HOME/w8trackr`, 0700: the summary's chart image.
    public var cacheDirectory: String
    /// The XDG directories these are under.
    public var xdg: XDGDirectories
    /// Where the systemd user manager looks for units, first first (`systemdUnitSearchPath`).
    public var systemdUnitPath: [String]

    /// Resolves the paths from an environment; relative XDG values are ignored, as the specification says.
    /// `accountHome` is the password database's home, asked only when `HOME` is unset or empty.
    public init(environment: [String: String], accountHome: @autoclosure () -> String) {
        self.init(
            xdg: XDGDirectories(environment: environment, accountHome: accountHome()),
            systemdUnitPath: environment["SYSTEMD_UNIT_PATH"])
    }

    /// - Parameter systemdUnitPath: `$SYSTEMD_UNIT_PATH`; nil when it is unset.
    public init(xdg: XDGDirectories, systemdUnitPath: String? = nil) {
        self.xdg = xdg
        self.systemdUnitPath = Paths.systemdUnitSearchPath(xdg: xdg, variable: systemdUnitPath)
        dataDirectory = (xdg.dataHome as NSString).appendingPathComponent("w8trackr")
        database = (dataDirectory as NSString).appendingPathComponent("w8trackr.sqlite")
        configDirectory = (xdg.configHome as NSString).appendingPathComponent("w8trackr")
        configFile = (configDirectory as NSString).appendingPathComponent("config.toml")
        cacheDirectory = (xdg.cacheHome as NSString).appendingPathComponent("w8trackr")
    }

    /// The user's unit directory that `systemctl --user` reads first: `$XDG_CONFIG_HOME/systemd/user`.
    public var systemdUserDirectory: String { xdg.configHome + "/systemd/user" }

    /// The user unit search path of systemd.unit(5), as systemd 252 builds it (`lookup_paths_init`), without the
    /// manager's own control, transient and generator directories, which hold no installed units:
    /// `$XDG_CONFIG_HOME/systemd/user`, `$XDG_CONFIG_DIRS/systemd/user`, `/etc/systemd/user`,
    /// `$XDG_RUNTIME_DIR/systemd/user`, `/run/systemd/user`, `$XDG_DATA_HOME/systemd/user`,
    /// `$XDG_DATA_DIRS/systemd/user`, `/usr/local/lib/systemd/user`, `/usr/lib/systemd/user`.
    ///
    /// `$SYSTEMD_UNIT_PATH`, when set, replaces that list (an empty value leaves no directory, as in systemd);
    /// ending it with `:` puts the list after its own directories. Relative entries are taken from the working
    /// directory, as systemd does.
    public static func systemdUnitSearchPath(xdg: XDGDirectories, variable: String?) -> [String] {
        let defaults =
            [xdg.configHome] + xdg.configDirectories + ["/etc"] + (xdg.runtimeDirectory.map { [$0] } ?? [])
            + ["/run", xdg.dataHome] + xdg.dataDirectories
        let standard =
            defaults.map { $0 + "/systemd/user" } + ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
        var directories = standard
        if var variable {
            let append = variable.hasSuffix(":")
            if append { variable.removeLast() }
            let own = variable.split(separator: ":").map { URL(fileURLWithPath: String($0)).standardized.path }
            directories = append ? own + standard : own
        }
        // systemd drops repeats, keeping the first.
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }
}
