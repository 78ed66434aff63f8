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

    /// Resolves the paths from an environment; relative XDG values are ignored, as the specification says.
    public init(environment: [String: String]) {
        self.init(xdg: XDGDirectories(environment: environment, accountHome: NSHomeDirectory()))
    }

    public init(xdg: XDGDirectories) {
        self.xdg = xdg
        dataDirectory = (xdg.dataHome as NSString).appendingPathComponent("w8trackr")
        database = (dataDirectory as NSString).appendingPathComponent("w8trackr.sqlite")
        configDirectory = (xdg.configHome as NSString).appendingPathComponent("w8trackr")
        configFile = (configDirectory as NSString).appendingPathComponent("config.toml")
        cacheDirectory = (xdg.cacheHome as NSString).appendingPathComponent("w8trackr")
    }

    /// The user's unit directory that `systemctl --user` reads first: `$XDG_CONFIG_HOME/systemd/user`.
    public var systemdUserDirectory: String { xdg.configHome + "/systemd/user" }
}
