import Foundation

/// A notification server the session bus can start: a D-Bus `.service` file that provides
/// `org.freedesktop.Notifications`, such as dunst's `org.knopwob.dunst.service`.
public struct NotificationService: Sendable, Equatable, Codable {
    /// The program's name, the base name of `executable`: "dunst", "xfce4-notifyd", "mako".
    public var name: String
    /// The program D-Bus runs, the first word of the file's `Exec=`.
    public var executable: String
    /// The systemd user unit D-Bus asks systemd to start instead, from `SystemdService=`.
    public var systemdUnit: String?
    /// The `.service` file.
    public var file: String

    public init(name: String, executable: String, systemdUnit: String?, file: String) {
        self.name = name
        self.executable = executable
        self.systemdUnit = systemdUnit
        self.file = file
    }

    public static let busName = "org.freedesktop.Notifications"

    /// The notification servers the bus would start, read from the first of `directories` that has any: a bus
    /// takes a name from the first directory providing it. Several when that directory has several.
    public static func providers(in directories: [String]) -> [NotificationService] {
        let fileManager = FileManager.default
        for directory in directories {
            guard let names = try? fileManager.contentsOfDirectory(atPath: directory) else { continue }
            let services = names.filter { $0.hasSuffix(".service") }.sorted().compactMap { name in
                parse(file: directory + "/" + name)
            }
            .filter { $0.providesNotifications }
            if !services.isEmpty { return services.map(\.service) }
        }
        return []
    }

    /// Reads the `[D-BUS Service]` group of a `.service` file.
    static func parse(file: String) -> (service: NotificationService, providesNotifications: Bool)? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        var group = ""
        var keys: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("[") {
                group = line
            } else if group == "[D-BUS Service]", let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                keys[String(line[..<equals]).trimmingCharacters(in: .whitespaces)] = String(
                    line[line.index(after: equals)...]
                ).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let name = keys["Name"], let exec = keys["Exec"],
            let executable = exec.split(separator: " ").first.map(String.init)
        else { return nil }
        let service = NotificationService(
            name: URL(fileURLWithPath: executable).lastPathComponent, executable: executable,
            systemdUnit: keys["SystemdService"].flatMap { $0.isEmpty ? nil : $0 }, file: file)
        return (service, name == busName)
    }
}
