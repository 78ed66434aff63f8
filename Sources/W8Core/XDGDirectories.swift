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

    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - accountHome: the account's home directory, for when `HOME` is unset or empty.
    public init(environment: [String: String], accountHome: String) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome
        self.home = home
        func base(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return (home as NSString).appendingPathComponent(fallback)
        }
        dataHome = base("XDG_DATA_HOME", ".local/share")
        configHome = base("XDG_CONFIG_HOME", ".config")
        cacheHome = base("XDG_CACHE_HOME", ".cache")
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dataDirectories = dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// Where installed data such as icons is looked for, most personal first: `dataHome`, then `dataDirectories`.
    public var dataSearchPath: [String] { [dataHome] + dataDirectories }
}
