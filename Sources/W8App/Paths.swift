import Foundation

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

    /// Resolves the paths from an environment; relative XDG values are ignored, as the specification says.
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func base(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return (home as NSString).appendingPathComponent(fallback)
        }
        dataDirectory = (base("XDG_DATA_HOME", ".local/share") as NSString).appendingPathComponent("w8trackr")
        database = (dataDirectory as NSString).appendingPathComponent("w8trackr.sqlite")
        configDirectory = (base("XDG_CONFIG_HOME", ".config") as NSString).appendingPathComponent("w8trackr")
        configFile = (configDirectory as NSString).appendingPathComponent("config.toml")
        cacheDirectory = (base("XDG_CACHE_HOME", ".cache") as NSString).appendingPathComponent("w8trackr")
    }
}
