import Foundation
import W8Core
import W8System
import W8Text

/// A line of what `w8 systemd install` or `uninstall` did, in order: for standard output, or a warning.
public enum SystemdMessage: Equatable, Sendable {
    case info(String)
    case warning(String)
}

/// Why the units could not be installed or removed.
public enum SystemdError: ReportableError, Equatable {
    case unknownExecutable(reason: String)
    case unusableExecutable(String)
    case notOurs(path: String)
    case cannotWrite(path: String, reason: String)
    case systemctl(command: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .unknownExecutable(let reason):
            // TRANSLATORS: errors of `w8 systemd install`; {reason} is the system's.
            tr("cannot tell where this w8 is from /proc/self/exe: {reason}", ["reason": reason])
        case .unusableExecutable(let problem):
            // TRANSLATORS: {problem} says why systemd cannot run the binary's path.
            tr("{problem}; move w8 and run 'w8 systemd install' again", ["problem": problem])
        case .notOurs(let path):
            tr("{path} exists and w8 did not write it; move it away, then install again", ["path": path])
        case .cannotWrite(let path, let reason): tr("cannot write {path}: {reason}", ["path": path, "reason": reason])
        case .systemctl(let command, let problem):
            // TRANSLATORS: {command} is a systemctl command line, {problem} its error.
            tr("'{command}' failed: {problem}", ["command": command, "problem": problem])
        }
    }

    /// 73 for a file, 69 when the user manager refuses.
    public var exitStatus: ExitStatus {
        switch self {
        case .unknownExecutable, .unusableExecutable, .notOurs, .cannotWrite: .cannotCreate
        case .systemctl: .unavailable
        }
    }
}

extension SystemdUnit {
    /// `w8 systemd print`: one unit's text, or all of them, each after a `==> name <==` line.
    public static func printed(_ unit: SystemdUnit?, executable: String) -> String {
        if let unit { return unit.text(executable: executable) }
        return allCases.map { "==> \($0.fileName) <==\n" + $0.text(executable: executable) }.joined(separator: "\n")
    }
}

/// `systemctl --user`: the real one, or a stand-in in tests.
public protocol SystemctlRunning: Sendable {
    /// Runs `systemctl --user arguments`; nil on success, else one line saying what went wrong.
    func run(_ arguments: [String]) -> String?
    /// Runs `systemctl --user arguments` and returns its standard output; nil when it cannot run or fails.
    func output(_ arguments: [String]) -> String?
}

extension SystemctlRunning {
    /// Stand-ins that answer no question.
    public func output(_ arguments: [String]) -> String? { nil }
}

/// Writes the user units for one `w8` binary into the person's systemd user directory and enables them, or
/// removes the ones it wrote. Safe to repeat; never replaces a file it did not write.
public struct SystemdInstaller: Sendable {
    /// `$XDG_CONFIG_HOME/systemd/user`.
    public let directory: String
    /// The absolute path the units run.
    public let executable: String
    public let systemctl: any SystemctlRunning
    /// The user manager's unit search path (`Paths.systemdUnitPath`): `uninstall` names the units it still finds
    /// there, which another install put in place (`make install`, a package).
    public var searchPath: [String] = []

    public init(directory: String, executable: String, systemctl: any SystemctlRunning) {
        self.directory = directory
        self.executable = executable
        self.systemctl = systemctl
    }

    public static let enabledNames = SystemdUnit.enabledUnits.map(\.fileName)
    public static let reloadCommand = "systemctl --user daemon-reload"
    public static let enableCommand = "systemctl --user enable --now " + enabledNames.joined(separator: " ")
    static let startCommand = "systemctl --user start " + enabledNames.joined(separator: " ")
    static let stopCommand = "systemctl --user stop " + enabledNames.joined(separator: " ")

    /// Writes the units, reloads the user manager, then enables and starts them unless `enable` is false.
    /// Without a reachable user manager the files stay (enabled for the next session if systemctl can link them),
    /// and a warning says what to run later. Each step is told to `report` as it happens.
    public func install(enable: Bool, report: (SystemdMessage) -> Void) throws {
        try createDirectory(directory)
        for unit in SystemdUnit.allCases {
            let path = directory + "/" + unit.fileName
            let changed = try write(unit.text(executable: executable), to: path)
            // TRANSLATORS: `w8 systemd install`; {path} is a unit file.
            report(.info(changed ? tr("Wrote {path}", ["path": path]) : tr("Kept {path} (up to date)", ["path": path])))
        }
        let names = Self.enabledNames
        if let problem = systemctl.run(["daemon-reload"]) {
            // systemctl enables without a manager too: it only makes the *.wants/ links.
            guard enable, systemctl.run(["enable"] + names) == nil else {
                let values: KeyValuePairs<String, any CustomStringConvertible> = [
                    "problem": problem, "command": Self.reloadCommand + " && " + Self.enableCommand,
                ]
                // swift-format-ignore

                // TRANSLATORS: a warning; {problem} is systemctl's, {command} the commands to run, kept as they are.
                let warning = tr("could not reach the systemd user manager ({problem}); the units are written, enable them later with: {command}", values)
                return report(.warning(warning))
            }
            // TRANSLATORS: {units} names the unit files: "w8trackr.service and w8trackr-summary.timer".
            report(.info(tr("Enabled {units}.", ["units": Self.listed(names)])))
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "problem": problem, "command": Self.reloadCommand + " && " + Self.startCommand,
            ]
            // swift-format-ignore

            // TRANSLATORS: a warning; {problem} is systemctl's, {command} the commands to run, kept as they are.
            let warning = tr("could not reach the systemd user manager ({problem}); the units will start with your next graphical session, or now with: {command}", values)
            return report(.warning(warning))
        }
        guard enable else { return report(.info(tr("Enable them with: {command}", ["command": Self.enableCommand]))) }
        if let problem = systemctl.run(["enable", "--now"] + names) {
            throw SystemdError.systemctl(command: Self.enableCommand, problem: problem)
        }
        report(.info(tr("Enabled and started {units}.", ["units": Self.listed(names)])))
    }

    /// Stops and disables the units and removes the unit files this installer wrote; others are left, with a
    /// warning. Each step is told to `report` as it happens.
    public func uninstall(report: (SystemdMessage) -> Void) throws {
        try removeUnits(report: report)
        let fm = FileManager.default
        for base in searchPath where base != directory {
            let found = SystemdUnit.enabledUnits.map(\.fileName).filter { fm.fileExists(atPath: base + "/" + $0) }
            guard !found.isEmpty else { continue }
            report(
                .warning(
                    tr(
                        "systemd still finds {units} in {directory}, which 'w8 systemd install' did not write; 'make uninstall' or the package manager removes them",
                        ["units": Self.listed(found), "directory": base])))
        }
    }

    private func removeUnits(report: (SystemdMessage) -> Void) throws {
        let installed = SystemdUnit.allCases.map { directory + "/" + $0.fileName }.compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, SystemdUnit.isGenerated($0)) }
        }
        for (path, ours) in installed where !ours {
            report(.warning(tr("left {path} alone: w8 did not write it", ["path": path])))
        }
        let ours = installed.filter(\.1).map(\.0)
        guard !ours.isEmpty else {
            return report(.info(tr("No units of w8 in {directory}; nothing to remove.", ["directory": directory])))
        }
        let names = Self.enabledNames
        let problem = systemctl.run(["disable", "--now"] + names)
        for path in ours {
            try removeEnablingLinks(to: path)
            try remove(path)
            report(.info(tr("Removed {path}", ["path": path])))
        }
        if let problem {
            // swift-format-ignore

            // TRANSLATORS: a warning; {problem} is systemctl's, {command} the command to run, kept as it is.
            let warning = tr("could not stop the units through the systemd user manager ({problem}); if they still run, stop them with: {command}", ["problem": problem, "command": Self.stopCommand])
            return report(.warning(warning))
        }
        _ = systemctl.run(["daemon-reload"])
        report(.info(tr("Stopped and disabled {units}.", ["units": Self.listed(names)])))
    }

    /// Unit file names as a sentence lists them: "a and b".
    static func listed(_ names: [String]) -> String {
        guard let first = names.first else { return "" }
        // TRANSLATORS: two or more unit file names in a sentence: "w8trackr.service and w8trackr-summary.timer".
        return names.dropFirst().reduce(first) { tr("{list} and {last}", ["list": $0, "last": $1]) }
    }

    /// The absolute path of the running binary (`/proc/self/exe`), which the installed units run.
    public static func runningExecutable() throws -> String {
        let path: String
        do {
            path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        } catch {
            throw SystemdError.unknownExecutable(reason: error.localizedDescription)
        }
        if path.hasSuffix(" (deleted)") { throw SystemdError.unknownExecutable(reason: "\(path)") }
        if let problem = SystemdUnit.problem(executable: path) { throw SystemdError.unusableExecutable(problem) }
        return path
    }

    private func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SystemdError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    /// Writes `text` unless the file already holds it; refuses to replace a file that w8 did not generate.
    /// Returns whether the file changed.
    private func write(_ text: String, to path: String) throws -> Bool {
        if let old = try? String(contentsOfFile: path, encoding: .utf8) {
            if old == text { return false }
            guard SystemdUnit.isGenerated(old) else { throw SystemdError.notOurs(path: path) }
        }
        // Through an `OutputFile`: a unit that a dotfile manager links in is written at its target, not replaced.
        do throws(SystemCallError) {
            let file = try OutputFile(path)
            try file.write(Array(text.utf8))
            try file.commit()
        } catch {
            throw SystemdError.cannotWrite(path: path, reason: error.reason)
        }
        return true
    }

    private func remove(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw SystemdError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    /// Removes the `*.wants/` links that `systemctl enable` made to `path`, in case `disable` could not (no
    /// systemctl); a dangling link would keep the unit listed as enabled.
    private func removeEnablingLinks(to path: String) throws {
        let fm = FileManager.default
        let wants = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".wants") }
        for link in wants.map({ directory + "/" + $0 + "/" + (path as NSString).lastPathComponent }) {
            if (try? fm.destinationOfSymbolicLink(atPath: link)) == path { try remove(link) }
        }
    }
}

/// `systemctl --user`, run as a child process with w8's environment, so that it reaches the user manager that
/// `$XDG_RUNTIME_DIR` and `$DBUS_SESSION_BUS_ADDRESS` name, and no other.
public struct Systemctl: SystemctlRunning {
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func run(_ arguments: [String]) -> String? {
        switch call(arguments, errorsToo: true) {
        case .failure(let problem): problem.description
        case .success: nil
        }
    }

    public func output(_ arguments: [String]) -> String? {
        try? call(arguments, errorsToo: false).get()
    }

    /// Runs systemctl: its output, or one line that says why it failed.
    private func call(_ arguments: [String], errorsToo: Bool) -> Result<String, SystemctlFailure> {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { $0 + "/systemctl" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return .failure(SystemctlFailure(tr("systemctl is not installed or not in $PATH"))) }
        let run: ProgramRun
        do {
            run = try runProgram(path, ["--user"] + arguments, environment: environment, errorsToo: errorsToo)
        } catch {
            return .failure(
                SystemctlFailure(
                    tr("cannot run {path}: {reason}", ["path": path, "reason": error.localizedDescription])))
        }
        if run.succeeded { return .success(run.output) }
        let firstLine =
            run.output.split(separator: "\n").first.map(String.init)
            ?? tr("exit status {status}", ["status": run.exitStatus ?? 128 + (run.signal ?? 0)])
        return .failure(SystemctlFailure("systemctl --user \(arguments.first ?? ""): \(firstLine)"))
    }
}

/// Why systemctl failed, in one line.
struct SystemctlFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
