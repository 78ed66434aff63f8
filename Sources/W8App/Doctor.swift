import Foundation
import W8Core
import W8Store
import W8Text

/// The notification server as the session bus answers for it.
public enum ServerStatus: Sendable, Equatable {
    case reachable(name: String, vendor: String, version: String, specVersion: String, capabilities: [String])
    /// `status` is `no_session_bus`, `not_installed`, `failed_to_start`, `server_error`, `timed_out` or
    /// `libnotify_unavailable`; `name` the server D-Bus would start, when known; `services` the `.service` files
    /// that start it.
    case unreachable(status: String, name: String?, message: String, services: [(name: String, file: String)])

    public static func == (lhs: ServerStatus, rhs: ServerStatus) -> Bool { "\(lhs)" == "\(rhs)" }
}

/// A file W8Trackr keeps, with its mode.
public struct FileReport: Sendable, Equatable {
    public let role: String
    public let path: String
    /// The permission bits; nil when the file does not exist.
    public let mode: Int?

    /// The mode it must have: 0700 for the data directory, 0600 for the database.
    public var expected: Int? { role == "data_directory" ? 0o700 : role == "database" ? 0o600 : nil }

    /// Whether only the owner can read it; nil for a file with no such rule.
    public var isPrivate: Bool? {
        expected.map { e in mode.map { $0 & 0o077 == 0 && $0 & 0o700 == e & 0o700 } ?? false }
    }
}

/// Whether a systemd user unit is installed, enabled and running.
public struct UnitReport: Sendable, Equatable {
    public let name: String
    public let path: String?
    public let enabled: Bool
    /// What the user manager says of it, as `ActiveState (SubState)`: "active (running)", "inactive (dead)",
    /// "failed (failed)"; nil when no user manager answered.
    public var state: String? = nil

    /// Whether the user manager says it is active.
    public var isActive: Bool { state?.hasPrefix("active") == true }
}

/// What `w8 doctor` found.
public struct Diagnosis: Sendable, Equatable {
    public var sessionBus: String?
    public var server: ServerStatus
    public var files: [FileReport]
    /// Why config.toml cannot be used; nil when it can.
    public var configProblem: String?
    /// Why the database cannot be used (damaged, not a database); nil when it can or does not exist yet.
    public var databaseProblem: String? = nil
    /// Why the data directory cannot be written (a read-only mount); nil when it can or does not exist yet.
    public var dataDirectoryProblem: String? = nil
    public var units: [UnitReport]
    /// Whether the session reached `graphical-session.target`, which starts the daemon; nil when no user manager
    /// answered.
    public var graphicalSession: Bool? = nil
    /// The installed `w8trackr.desktop` that a click on a notification opens on GNOME, and its `Exec=`; nil when
    /// none is installed.
    public var desktopEntry: (path: String, exec: String)? = nil
    /// The sync folder, its devices and its problems; nil when this machine is in none.
    public var sync: SyncStatus? = nil
    /// The presence signals and what they say (issue 39); nil when not asked.
    public var presence: PresenceReport? = nil

    public static func == (lhs: Diagnosis, rhs: Diagnosis) -> Bool { "\(lhs)" == "\(rhs)" }
}

/// What `w8 doctor` says of the presence signals that hold reminders while the person is away (issue 39).
public struct PresenceReport: Sendable, Equatable {
    /// `reminders.wait_for_presence`.
    public var wait: Bool
    public var signals: [PresenceSignal]

    public init(wait: Bool, signals: [PresenceSignal]) {
        self.wait = wait
        self.signals = signals
    }

    public var readable: [PresenceSignal] { signals.filter(\.readable) }

    /// What the readable signals say now: the reasons that hold.
    public var reasons: [AwayReason] { readable.compactMap(\.away) }

    /// The kinds of signal ("dnd", "idle") that nothing readable here gives, so that w8 cannot count them.
    public var missing: [String] {
        ["dnd", "idle"].filter { kind in !readable.contains { $0.kind == kind } }
    }
}

/// Looks at what makes w8 work: the notification server, the files and their modes, the config file and the
/// systemd user units.
public struct Doctor: Sendable {
    public let paths: Paths
    public let sessionBus: String?
    /// Asks the session bus for the notification server (the composition root's libnotify sink).
    public let checkServer: @Sendable () -> ServerStatus
    public let loadSettings: @Sendable () throws -> Settings
    /// Checks the database file without writing to it (`AppDatabase.problem(at:)`).
    public var checkDatabase: @Sendable (String) -> String? = { path in
        switch AppDatabase.problem(at: path) {
        case nil: nil
        // English, as `w8 doctor --json` carries it (database_problem).
        case .damaged(_, let detail): "the file is damaged (\(detail))"
        case let problem?: problem.localizedDescription
        }
    }
    /// The user manager, asked for each unit's state; nil asks nothing.
    public var systemctl: (any SystemctlRunning)? = nil
    /// The sync folder's status (`SyncFolder.status()`), when this machine is in one.
    public var syncStatus: (@Sendable () -> SyncStatus?)? = nil
    /// Reads the presence signals once (the composition root's `PresenceWatch`); nil asks nothing.
    public var presenceSignals: (@Sendable (Settings) -> [PresenceSignal])? = nil

    public init(
        paths: Paths, sessionBus: String?, checkServer: @escaping @Sendable () -> ServerStatus,
        loadSettings: @escaping @Sendable () throws -> Settings
    ) {
        self.paths = paths
        self.sessionBus = sessionBus
        self.checkServer = checkServer
        self.loadSettings = loadSettings
    }

    public func diagnose() -> Diagnosis {
        let files = [
            ("data_directory", paths.dataDirectory), ("database", paths.database), ("config_file", paths.configFile),
        ].map { role, path in
            FileReport(
                role: role, path: path,
                mode: (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
                    .intValue)
        }
        var problem: String?
        var settings = Settings()
        do { settings = try loadSettings() } catch { problem = error.localizedDescription }
        var diagnosis = Diagnosis(
            sessionBus: sessionBus, server: checkServer(), files: files, configProblem: problem, units: units())
        diagnosis.databaseProblem = checkDatabase(paths.database)
        diagnosis.dataDirectoryProblem = AppDatabase.directoryProblem(at: paths.dataDirectory)
        if let states = unitStates(diagnosis.units.map(\.name) + [Doctor.graphicalSessionTarget]) {
            for index in diagnosis.units.indices { diagnosis.units[index].state = states[diagnosis.units[index].name] }
            diagnosis.graphicalSession = states[Doctor.graphicalSessionTarget]?.hasPrefix("active") == true
        }
        diagnosis.desktopEntry = desktopEntry()
        diagnosis.sync = syncStatus?()
        diagnosis.presence = presenceSignals.map {
            PresenceReport(wait: settings.reminders.waitForPresence, signals: $0(settings))
        }
        return diagnosis
    }

    static let graphicalSessionTarget = "graphical-session.target"

    /// Each unit's `ActiveState (SubState)` from one `systemctl --user show`; nil without an answer.
    func unitStates(_ names: [String]) -> [String: String]? {
        guard let systemctl,
            let text = systemctl.output(["show", "--property=Id,ActiveState,SubState"] + names)
        else { return nil }
        var states: [String: String] = [:]
        // One block per unit, in the order asked, separated by a blank line.
        for (name, block) in zip(names, text.components(separatedBy: "\n\n")) {
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            guard let active = fields["ActiveState"], !active.isEmpty else { continue }
            states[name] = active + (fields["SubState"].map { " (\($0))" } ?? "")
        }
        return states.isEmpty ? nil : states
    }

    /// The first `applications/w8trackr.desktop` in the XDG data directories, and its `Exec=`.
    func desktopEntry() -> (path: String, exec: String)? {
        for directory in paths.xdg.dataSearchPath {
            let path = directory + "/applications/" + DesktopNotification.desktopEntry + ".desktop"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let exec = text.split(separator: "\n").first { $0.hasPrefix("Exec=") }.map { String($0.dropFirst(5)) }
            return (path, exec ?? "")
        }
        return nil
    }

    /// Each enabled-by-install unit: the first directory of the unit search path (`Paths.systemdUnitPath`, which
    /// `$SYSTEMD_UNIT_PATH` can set) that has it, and whether a `*.wants/` link in any of them enables it, as the
    /// user manager reads them.
    func units() -> [UnitReport] {
        let directories = paths.systemdUnitPath
        let wants = directories
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
}

extension Presenter {
    /// `w8 doctor`: each finding on a line, or the JSON document.
    public func doctor(_ d: Diagnosis, json: Bool) -> [String] {
        if json {
            let server: JSON
            switch d.server {
            case .reachable(let name, let vendor, let version, let spec, let capabilities):
                server = .object([
                    ("status", .string("ok")), ("name", .string(name)), ("vendor", .string(vendor)),
                    ("version", .string(version)), ("spec_version", .string(spec)),
                    ("capabilities", .array(capabilities.map { .string($0) })), ("error", .null),
                ])
            case .unreachable(let status, let name, let message, _):
                server = .object([("status", .string(status)), ("name", .string(name)), ("error", .string(message))])
            }
            return [
                JSON.object([
                    ("session_bus", .string(d.sessionBus)),
                    ("notification_server", server),
                    (
                        "files",
                        .array(
                            d.files.map { f in
                                .object([
                                    ("role", .string(f.role)), ("path", .string(f.path)),
                                    ("exists", .bool(f.mode != nil)),
                                    ("mode", .string(f.mode.map { String($0, radix: 8) })),
                                    ("private", f.isPrivate.map { .bool($0) } ?? .null),
                                ])
                            })
                    ),
                    ("config_valid", .bool(d.configProblem == nil)),
                    ("database_problem", .string(d.databaseProblem)),
                    ("data_directory_problem", .string(d.dataDirectoryProblem)),
                    (
                        "systemd_units",
                        .array(
                            d.units.map { u in
                                .object([
                                    ("name", .string(u.name)), ("path", .string(u.path)),
                                    ("installed", .bool(u.path != nil)), ("enabled", .bool(u.enabled)),
                                    ("state", .string(u.state)),
                                ])
                            })
                    ),
                    ("graphical_session", d.graphicalSession.map { .bool($0) } ?? .null),
                    ("desktop_entry", .string(d.desktopEntry?.path)),
                    ("click", .string(d.desktopEntry?.exec)),
                    ("presence", d.presence.map(Self.presenceJSON) ?? .null),
                    (
                        "sync",
                        d.sync.map { sync in
                            .object([
                                ("folder", .string(sync.folder)),
                                ("devices", .array(sync.devices.map { .string($0.id) })),
                                ("problems", .array(sync.problems.map { .string($0) })),
                            ])
                        } ?? .null
                    ),
                ]).rendered()
            ]
        }
        // One value column for every line: the longest label ("Unit w8trackr-summary.timer:") and two spaces; a
        // longer label, in another language, is followed by two spaces.
        func label(_ text: String) -> String {
            text.terminalColumns + 2 > Self.doctorLabelWidth
                ? text + "  " : text.padded(toColumns: Self.doctorLabelWidth)
        }
        let indent = String(repeating: " ", count: Self.doctorLabelWidth)
        // TRANSLATORS: `w8 doctor` prints a label, then its value in one column; keep labels under 28 characters.
        let sessionBus = label(tr("Session bus:"))
        var lines = [sessionBus + (d.sessionBus ?? tr("unset (GLib will try $XDG_RUNTIME_DIR/bus)"))]
        switch d.server {
        case .reachable(let name, let vendor, let version, let spec, let capabilities):
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "name": name, "version": version, "vendor": vendor, "spec": spec,
            ]
            // TRANSLATORS: `w8 doctor`: the notification server's name, version, vendor and the spec it follows.
            let server = tr("{name} {version} by {vendor} (spec {spec})", values)
            lines.append(label(tr("Notification server:")) + server)
            lines.append(label(tr("Capabilities:")) + capabilities.joined(separator: ", "))
            if !capabilities.contains("persistence") {
                // TRANSLATORS: 'persistence' is a capability's name in the notification spec: keep it.
                lines.append(indent + tr("no 'persistence': a reached goal may vanish from screen after its timeout"))
            }
        case .unreachable(_, _, let message, let services):
            // TRANSLATORS: {reason} is D-Bus's or the server's error.
            lines.append(label(tr("Notification server:")) + tr("none reachable: {reason}", ["reason": message]))
            for service in services {
                // TRANSLATORS: {name} is a D-Bus service, {path} its .service file.
                let text = tr("{name} is started by D-Bus from {path}", ["name": service.name, "path": service.file])
                lines.append(indent + text)
            }
            lines.append(indent + tr("milestones are still recorded; see 'w8 milestones'"))
        }
        for file in d.files {
            let name = label(Self.fileLabel(file.role))
            guard let mode = file.mode else {
                lines.append(name + tr("{path} (not created yet)", ["path": file.path]))
                continue
            }
            // TRANSLATORS: {mode} is the file's permissions in octal, "600".
            var text = name + tr("{path} (mode {mode})", ["path": file.path, "mode": String(mode, radix: 8)])
            if file.expected != nil, mode & 0o077 != 0 { text += " " + tr("WARNING: readable by others") }
            lines.append(text)
        }
        if let problem = d.dataDirectoryProblem {
            lines.append(label(tr("Data directory check:")) + tr("FAILED: {problem}", ["problem": problem]))
        }
        if let problem = d.databaseProblem {
            lines.append(label(tr("Database check:")) + tr("FAILED: {problem}", ["problem": problem]))
            // TRANSLATORS: three lines of advice under a damaged database; the commands stay as they are.
            lines.append(indent + tr("w8 will not write to it. Save what is readable, move the file aside (keep it),"))
            lines.append(indent + tr("then restore: w8 export --format json --output ~/w8-salvage.json &&"))
            lines.append(
                indent
                    + "mv \(d.files.first { $0.role == "database" }?.path ?? "") ~/w8-damaged.sqlite && w8 import --format w8-json ~/w8-salvage.json"
            )
        }
        if let problem = d.configProblem {
            lines.append(label(tr("Config:")) + tr("INVALID: {problem}", ["problem": problem]))
        }
        for unit in d.units {
            var text =
                unit.path.map {
                    unit.enabled ? tr("{path}, enabled", ["path": $0]) : tr("{path}, not enabled", ["path": $0])
                } ?? tr("not installed")
            // A state as systemctl words it: "active (running)".
            if let state = unit.state { text += ", " + state }
            // TRANSLATORS: `w8 doctor`; {unit} is a systemd unit's file name, "w8trackr.service".
            lines.append(label(tr("Unit {unit}:", ["unit": unit.name])) + text)
            if unit.name == SystemdUnit.daemon.fileName, unit.enabled, unit.state != nil, !unit.isActive {
                lines += Self.inactiveDaemon(graphicalSession: d.graphicalSession).map { indent + $0 }
            }
        }
        lines.append(label(tr("Click on a notification:")) + Self.click(server: d.server, entry: d.desktopEntry))
        if let presence = d.presence {
            lines += Self.presenceLines(presence, server: d.server).enumerated().map {
                ($0.offset == 0 ? label(tr("Presence:")) : indent) + $0.element
            }
        }
        if let sync = d.sync, let folder = sync.folder {
            let names = sync.devices.map { ($0.name ?? $0.id).visibleOnTerminal + " (\($0.id))" }
            // TRANSLATORS: `w8 doctor`; {folder} is the sync folder, {devices} its devices.
            lines.append(
                label(tr("Sync folder:"))
                    + tr(
                        "{folder}, devices: {devices}",
                        ["folder": folder.visibleOnTerminal, "devices": names.joined(separator: ", ")]))
            lines += sync.problems.map { indent + $0.visibleOnTerminal }
        }
        return lines
    }

    /// The presence lines of `w8 doctor`, the first after its label: what the person is now, then each readable
    /// signal, then the kinds of signal this desktop does not give.
    static func presenceLines(_ presence: PresenceReport, server: ServerStatus) -> [String] {
        guard presence.wait else {
            // TRANSLATORS: `w8 doctor`, after "Presence:"; keep the setting's name.
            return [tr("off (reminders.wait_for_presence = false): reminders come at their time")]
        }
        guard !presence.readable.isEmpty else {
            return [tr("no signal can be read here: reminders come at their time")]
        }
        func state(_ reason: AwayReason?) -> String {
            // TRANSLATORS: `w8 doctor`: what a presence signal says; {reason} is "screen locked", "idle"…
            reason.map { tr("away: {reason}", ["reason": $0.localizedDescription]) } ?? tr("here")
        }
        var lines = [presence.reasons.isEmpty ? tr("here") : state(presence.reasons[0])]
        lines += presence.readable.map { "\($0.name): \(state($0.away))" }
        if presence.missing.contains("dnd") {
            let name: String
            if case .reachable(let server, _, _, _, _) = server { name = server.visibleOnTerminal } else { name = "-" }
            // TRANSLATORS: `w8 doctor`: the notification server gives no Do Not Disturb that w8 can read.
            lines.append(tr("no Do Not Disturb signal from {server}", ["server": name]))
        }
        if presence.missing.contains("idle") {
            lines.append(tr("no idle signal on this desktop: only the lock and Do Not Disturb count"))
        }
        return lines
    }

    /// `w8 doctor --json`'s "presence".
    static func presenceJSON(_ presence: PresenceReport) -> JSON {
        .object([
            ("wait", .bool(presence.wait)), ("away", .bool(!presence.reasons.isEmpty)),
            ("reasons", .array(presence.reasons.map { .string($0.description) })),
            (
                "signals",
                .array(
                    presence.signals.map { signal in
                        .object([
                            ("name", .string(signal.name)), ("kind", .string(signal.kind)),
                            ("readable", .bool(signal.readable)), ("away", .string(signal.away?.description)),
                        ])
                    })
            ),
            ("missing", .array(presence.missing.map { .string($0) })),
        ])
    }

    /// The label of a file's line: "Data directory:", "Database:", "Config file:".
    static func fileLabel(_ role: String) -> String {
        switch role {
        case "data_directory": tr("Data directory:")
        case "database": tr("Database:")
        case "config_file": tr("Config file:")
        default:
            role.prefix(1).uppercased() + role.dropFirst().replacingOccurrences(of: "_", with: " ") + ":"
        }
    }

    /// What a click on a notification does on this server: w8 offers no default action, so only GNOME Shell, which
    /// launches the app its `desktop-entry` hint names, does anything (the entry's `Exec=`).
    static func click(server: ServerStatus, entry: (path: String, exec: String)?) -> String {
        guard let entry else { return tr("does nothing (no w8trackr.desktop installed)") }
        if case .reachable(let name, _, let version, _, _) = server, name != "gnome-shell" {
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "name": name, "version": version, "command": entry.exec,
            ]
            // TRANSLATORS: {name} and {version} are the notification server's; {command} is the desktop entry's Exec=.
            return tr("does nothing on {name} {version}: w8 offers no default action (GNOME runs '{command}')", values)
        }
        return tr("GNOME runs '{command}' ({path})", ["command": entry.exec, "path": entry.path])
    }

    /// The width of `w8 doctor`'s labels: every value starts in the column after it.
    static let doctorLabelWidth = 30

    /// Why the enabled daemon is not running, and what to run.
    static func inactiveDaemon(graphicalSession: Bool?) -> [String] {
        var lines: [String] = []
        if graphicalSession == false {
            // TRANSLATORS: three lines of `w8 doctor`, under the daemon's unit; break them where your language needs.
            lines.append(tr("it starts with graphical-session.target, which this session has not reached:"))
            lines.append(tr("GNOME and Plasma reach it; startx, a bare window manager, sway without its systemd"))
            lines.append(tr("integration and a text console do not (see the README, \"Sessions\")."))
        }
        lines.append(tr("Start it now: systemctl --user start w8trackr.service"))
        return lines
    }
}
