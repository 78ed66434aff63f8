import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8App

/// The doctor's findings, on a home directory of its own with a server status given.
@Suite struct DoctorTests {
    let directory: TemporaryDirectory
    let paths: Paths

    init() throws {
        directory = try TemporaryDirectory()
        // The host's unit directories (/etc/systemd/user, /usr/local/lib/systemd/user) are not searched.
        let xdg = XDGDirectories(environment: ["HOME": directory.path], accountHome: "/nowhere")
        paths = Paths(
            xdg: xdg,
            systemdUnitPath: [xdg.configHome + "/systemd/user", directory.appending("etc"), directory.appending("lib")]
                .joined(separator: ":"))
    }

    func doctor(_ server: ServerStatus, settings: @escaping @Sendable () throws -> Settings = { Settings() }) -> Doctor
    {
        var doctor = Doctor(
            paths: paths, sessionBus: "unix:path=/run/bus", checkServer: { server }, loadSettings: settings)
        return doctor
    }

    @Test("Files: not created yet, then private, then a world-readable database is flagged")
    func files() throws {
        defer { directory.remove() }
        let present = Presenter(unit: .lb, timeZone: TimeZone(identifier: "UTC")!)
        let none = doctor(
            .reachable(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2", capabilities: []))
        #expect(none.diagnose().files.allSatisfy { $0.mode == nil })

        try FileManager.default.createDirectory(
            atPath: paths.dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(atPath: paths.database, contents: nil, attributes: [.posixPermissions: 0o644])
        let found = none.diagnose()

        #expect(found.files.map(\.isPrivate) == [true, false, nil])
        #expect(present.doctor(found, json: false).contains { $0.hasSuffix("(mode 644) WARNING: readable by others") })
        let lines = present.doctor(found, json: false)
        #expect(lines[1] == "Notification server:          dunst 1.9.0 by knopwob (spec 1.2)")
        // One value column: every label ends with a colon, is in sentence case, and its value starts in column 31.
        for line in lines where !line.hasPrefix(" ") {
            let label = String(line.prefix(30))
            #expect(label.trimmingCharacters(in: .whitespaces).hasSuffix(":"), "\(line)")
            #expect(line.dropFirst(30).first != " ", "\(line)")
            let words = label.split(separator: " ").dropFirst().filter { !$0.contains(".") }
            #expect(words.allSatisfy { $0.first?.isLowercase == true }, "\(line)")
        }
        #expect(lines.contains("Data directory:               \(paths.dataDirectory) (mode 700)"), "\(lines)")
    }

    @Test("A server that failed to start is named, with the file that starts it; JSON says failed_to_start")
    func failedToStart() throws {
        defer { directory.remove() }
        let status = ServerStatus.unreachable(
            status: "failed_to_start", name: "dunst", message: "the notification server (dunst) failed to start",
            services: [(name: "dunst", file: "/usr/share/dbus-1/services/org.knopwob.dunst.service")])
        let present = Presenter(unit: .lb, timeZone: TimeZone(identifier: "UTC")!)
        let diagnosis = doctor(status).diagnose()
        let text = present.doctor(diagnosis, json: false)
        #expect(text.contains { $0.contains("none reachable: the notification server (dunst) failed to start") })
        #expect(
            text.contains {
                $0.hasSuffix("dunst is started by D-Bus from /usr/share/dbus-1/services/org.knopwob.dunst.service")
            })
        let json = present.doctor(diagnosis, json: true).joined()
        #expect(json.contains("\"status\": \"failed_to_start\""))
        #expect(json.contains("\"name\": \"dunst\""))
    }

    @Test("The click line names what the running server does: GNOME runs the entry, any other does nothing")
    func clickDependsOnTheServer() {
        let entry = (path: "/usr/share/applications/w8trackr.desktop", exec: "w8 summary --send")
        func server(_ name: String) -> ServerStatus {
            .reachable(name: name, vendor: "v", version: "1.0", specVersion: "1.2", capabilities: [])
        }
        #expect(
            Presenter.click(server: server("gnome-shell"), entry: entry)
                == "GNOME runs 'w8 summary --send' (/usr/share/applications/w8trackr.desktop)")
        #expect(
            Presenter.click(server: server("dunst"), entry: entry)
                == "does nothing on dunst 1.0: w8 offers no default action (GNOME runs 'w8 summary --send')")
        #expect(Presenter.click(server: server("dunst"), entry: nil) == "does nothing (no w8trackr.desktop installed)")
        let none = ServerStatus.unreachable(status: "no_session_bus", name: nil, message: "x", services: [])
        #expect(Presenter.click(server: none, entry: entry).hasPrefix("GNOME runs"))
    }

    @Test("A config file that cannot be read is reported INVALID with its reason")
    func invalidConfig() {
        defer { directory.remove() }
        struct Broken: Error, LocalizedError { var errorDescription: String? { "config.toml: line 3: expected '='" } }
        let diagnosis = doctor(
            .unreachable(status: "not_installed", name: nil, message: "x", services: []),
            settings: {
                throw Broken()
            }
        ).diagnose()
        #expect(diagnosis.configProblem == "config.toml: line 3: expected '='")
    }

    @Test("Units: found in the user's directory, enabled by a wants link; otherwise not installed")
    func units() throws {
        defer { directory.remove() }
        let status = ServerStatus.unreachable(status: "not_installed", name: nil, message: "x", services: [])
        #expect(doctor(status).diagnose().units.allSatisfy { $0.path == nil && !$0.enabled })

        let user = paths.systemdUserDirectory
        try FileManager.default.createDirectory(
            atPath: user + "/default.target.wants", withIntermediateDirectories: true)
        try "[Unit]\n".write(toFile: user + "/w8trackr.service", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: user + "/default.target.wants/w8trackr.service", withDestinationPath: user + "/w8trackr.service")
        try FileManager.default.createDirectory(atPath: directory.appending("lib"), withIntermediateDirectories: true)
        try "[Unit]\n".write(
            toFile: directory.appending("lib/w8trackr-summary.timer"), atomically: true, encoding: .utf8)

        let units = doctor(status).diagnose().units
        #expect(units.map(\.path) == [user + "/w8trackr.service", directory.appending("lib/w8trackr-summary.timer")])
        #expect(units.map(\.enabled) == [true, false])
    }
}
