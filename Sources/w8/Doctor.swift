import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Libnotify

extension W8 {
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check notifications, files and systemd units, and say what is wrong.",
            discussion: "Example: w8 doctor --json")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            let server = Result { () throws(LibnotifyError) in
                try LibnotifyNotificationSink.serverInfo(deadline: 2.0, serviceDirectories: runtime.serviceDirectories)
            }
            let files = [
                ("data_directory", runtime.paths.dataDirectory), ("database", runtime.paths.database),
                ("config_file", runtime.paths.configFile),
            ].map { FileReport(role: $0.0, path: $0.1) }
            let config = Result { try runtime.settings() }
            let units = UnitReport.all(environment: runtime.environment)
            if output.json {
                return emit(
                    .object([
                        ("session_bus", .string(runtime.environment["DBUS_SESSION_BUS_ADDRESS"])),
                        ("notification_server", serverJSON(server)),
                        ("files", .array(files.map(\.json))),
                        ("config_valid", .bool((try? config.get()) != nil)),
                        ("systemd_units", .array(units.map(\.json))),
                    ]))
            }
            print("Session bus:                 \(runtime.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "unset (GLib will try $XDG_RUNTIME_DIR/bus)")")
            switch server {
            case .success(let info):
                print("Notification server:         \(info.name) \(info.version) by \(info.vendor) (spec \(info.specVersion))")
                print("Capabilities:                \(info.capabilities.joined(separator: ", "))")
                if !info.capabilities.contains("persistence") {
                    print("                             no 'persistence': a reached goal may vanish from screen after its timeout")
                }
            case .failure(let error):
                print("Notification server:         none reachable: \(error.localizedDescription)")
                if case .serverFailedToStart(let failure) = error {
                    for service in failure.services {
                        print("                             \(service.name) is started by D-Bus from \(service.file)")
                    }
                }
                print("                             milestones are still recorded; see 'w8 milestones'")
            }
            for file in files { print(file.line) }
            if case .failure(let error) = config { print("Config:                      INVALID: \(error.localizedDescription)") }
            for unit in units { print(unit.line) }
        }

        func serverJSON(_ server: Result<NotificationServerInfo, LibnotifyError>) -> JSON {
            switch server {
            case .success(let info):
                return .object([
                    ("status", .string("ok")), ("name", .string(info.name)), ("vendor", .string(info.vendor)),
                    ("version", .string(info.version)), ("spec_version", .string(info.specVersion)),
                    ("capabilities", .array(info.capabilities.map { .string($0) })), ("error", .null),
                ])
            case .failure(let error):
                let status: String
                var name: String?
                switch error {
                case .noSessionBus: status = "no_session_bus"
                case .noNotificationServer: status = "not_installed"
                case .serverFailedToStart(let failure):
                    status = "failed_to_start"
                    name = failure.serverName
                case .serverError: status = "server_error"
                case .timedOut: status = "timed_out"
                }
                return .object([
                    ("status", .string(status)), ("name", .string(name)),
                    ("error", .string(error.localizedDescription)),
                ])
            }
        }
    }

    struct NotifyTest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notify-test", abstract: "Post a sample notification to check that notifications reach you.",
            discussion: "Example: w8 notify-test --category reminder")

        @Option(help: "The kind of notification: milestone, summary or reminder.")
        var category: Category = .milestone

        enum Category: String, ExpressibleByArgument, CaseIterable {
            case milestone, summary, reminder
        }

        func run() throws {
            let runtime = Runtime()
            let sample = DesktopNotification(
                key: "test", title: "W8Trackr is set up",
                body: "Milestones, summaries and reminders will appear like this. Keep it up!",
                urgency: category == .reminder ? .low : .normal,
                category: NotificationCategory.allCases.first { $0.rawValue.hasSuffix(category.rawValue) }!)
            do {
                let id = try runtime.sink().post(sample)
                print("Posted a \(category.rawValue) notification (server id \(id)).")
            } catch {
                FileHandle.standardError.write(Data("w8: notification not shown: \(error.localizedDescription)\n".utf8))
                throw ExitCode(69)
            }
        }
    }
}

/// A file W8Trackr keeps, with its mode.
struct FileReport {
    let role: String
    let path: String

    var mode: Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    var expected: Int? { role == "data_directory" ? 0o700 : role == "database" ? 0o600 : nil }

    var json: JSON {
        .object([
            ("role", .string(role)), ("path", .string(path)), ("exists", .bool(mode != nil)),
            ("mode", .string(mode.map { String($0, radix: 8) })),
            ("private", expected.map { e in .bool(mode.map { $0 & 0o077 == 0 && $0 & 0o700 == e & 0o700 } ?? false) } ?? .null),
        ])
    }

    var line: String {
        let label = (role.replacingOccurrences(of: "_", with: " ").capitalized + ":").padding(toLength: 30, withPad: " ", startingAt: 0)
        guard let mode else { return "\(label)\(path) (not created yet)" }
        var text = "\(label)\(path) (mode \(String(mode, radix: 8)))"
        if expected != nil, mode & 0o077 != 0 { text += " WARNING: readable by others" }
        return text
    }
}

/// Whether a systemd user unit is installed and enabled, read from the unit directories.
struct UnitReport {
    let name: String
    let path: String?
    let enabled: Bool

    static func all(environment: [String: String]) -> [UnitReport] {
        let paths = Paths(environment: environment)
        let user = paths.systemdUserDirectory
        let data = paths.xdg.dataHome
        let directories = [
            user, "/etc/systemd/user", data + "/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user",
        ]
        let wants = [user, "/etc/systemd/user"]
        let fm = FileManager.default
        return SystemdUnit.enabledUnits.map(\.fileName).map { name in
            let path = directories.map { $0 + "/" + name }.first { fm.fileExists(atPath: $0) }
            let enabled = wants.contains { base in
                ((try? fm.contentsOfDirectory(atPath: base)) ?? []).filter { $0.hasSuffix(".wants") }.contains {
                    fm.fileExists(atPath: base + "/" + $0 + "/" + name)
                }
            }
            return UnitReport(name: name, path: path, enabled: enabled)
        }
    }

    var json: JSON {
        .object([("name", .string(name)), ("path", .string(path)), ("installed", .bool(path != nil)), ("enabled", .bool(enabled))])
    }

    var line: String {
        let label = "Unit \(name): ".padding(toLength: 30, withPad: " ", startingAt: 0)
        guard let path else { return "\(label)not installed" }
        return "\(label)\(path), \(enabled ? "enabled" : "not enabled")"
    }
}
