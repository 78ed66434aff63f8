import ArgumentParser
import Foundation
import W8App

extension SystemdUnit: ExpressibleByArgument {}

extension W8 {
    struct Systemd: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install or remove the systemd user units that run the daemon and the weekly summary.",
            discussion: "Example: w8 systemd install",
            subcommands: [Install.self, Uninstall.self, Print.self])
    }
}

extension W8.Systemd {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the units for this w8 to $XDG_CONFIG_HOME/systemd/user, then enable and start them.",
            discussion: """
                Then runs 'systemctl --user daemon-reload' and '\(enableCommand)'. Without a reachable user manager \
                (containers, ssh) the files stay, enabled for the next graphical session if systemctl is there, and \
                a warning says what to run later. \
                Run it again after moving w8; it is safe to repeat. Example: w8 systemd install
                """)

        @Flag(help: "Write the units and reload the user manager, but do not enable or start them.")
        var noEnable = false

        func run() throws {
            try reportingFailures {
                let environment = Runtime().environment
                let directory = SystemdUnit.userDirectory(environment: environment)
                let executable = try runningExecutable()
                try createDirectory(directory)
                for unit in SystemdUnit.allCases {
                    let path = directory + "/" + unit.fileName
                    let changed = try write(unit.text(executable: executable), to: path)
                    print(changed ? "Wrote \(path)" : "Kept \(path) (up to date)")
                }
                let systemctl = Systemctl(environment: environment)
                if let problem = systemctl.run("daemon-reload") {
                    // systemctl enables without a manager too: it only makes the *.wants/ links.
                    guard !noEnable, systemctl.run(["enable"] + enabledNames) == nil else {
                        return warn(
                            "could not reach the systemd user manager (\(problem)); the units are written, enable "
                                + "them later with: \(reloadCommand) && \(enableCommand)")
                    }
                    print("Enabled \(enabledNames.joined(separator: " and ")).")
                    return warn(
                        "could not reach the systemd user manager (\(problem)); the units will start with your next "
                            + "graphical session, or now with: \(reloadCommand) && \(startCommand)")
                }
                if noEnable { return print("Enable them with: \(enableCommand)") }
                if let problem = systemctl.run(["enable", "--now"] + enabledNames) {
                    throw SystemdCommandError.systemctl(command: enableCommand, problem: problem)
                }
                print("Enabled and started \(enabledNames.joined(separator: " and ")).")
            }
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop and disable the units, and remove the unit files that 'w8 systemd install' wrote.",
            discussion: "Your data and config.toml stay. Example: w8 systemd uninstall")

        func run() throws {
            try reportingFailures {
                let environment = Runtime().environment
                let directory = SystemdUnit.userDirectory(environment: environment)
                let installed = SystemdUnit.allCases.map { directory + "/" + $0.fileName }.compactMap { path in
                    (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, SystemdUnit.isGenerated($0)) }
                }
                for (path, ours) in installed where !ours { warn("left \(path) alone: w8 did not write it") }
                let ours = installed.filter(\.1).map(\.0)
                guard !ours.isEmpty else { return print("No units of w8 in \(directory); nothing to remove.") }
                let systemctl = Systemctl(environment: environment)
                let problem = systemctl.run(["disable", "--now"] + enabledNames)
                for path in ours {
                    try removeEnablingLinks(to: path, in: directory)
                    try remove(path)
                    print("Removed \(path)")
                }
                if let problem {
                    return warn(
                        "could not stop the units through the systemd user manager (\(problem)); if they still "
                            + "run, stop them with: \(stopCommand)")
                }
                _ = systemctl.run("daemon-reload")
                print("Stopped and disabled \(enabledNames.joined(separator: " and ")).")
            }
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the units, with ExecStart= running this w8 or --executable.",
            discussion: """
                For packaging and checks. Example: w8 systemd print --executable /usr/bin/w8 w8trackr.service
                """)

        @Option(help: ArgumentHelp("The absolute path of w8 for ExecStart=; by default, this w8.", valueName: "path"))
        var executable: String?

        @Argument(help: "The unit to print; all of them, each after a '==> name <==' line, if omitted.")
        var unit: SystemdUnit?

        func validate() throws {
            if let problem = executable.flatMap(SystemdUnit.problem(executable:)) {
                throw ValidationError("--executable: \(problem)")
            }
        }

        func run() throws {
            try reportingFailures {
                let executable = try executable ?? runningExecutable()
                if let unit { return print(unit.text(executable: executable), terminator: "") }
                let texts = SystemdUnit.allCases.map { "==> \($0.fileName) <==\n" + $0.text(executable: executable) }
                print(texts.joined(separator: "\n"), terminator: "")
            }
        }
    }
}

private let enabledNames = SystemdUnit.enabledUnits.map(\.fileName)
private let reloadCommand = "systemctl --user daemon-reload"
private let enableCommand = "systemctl --user enable --now " + enabledNames.joined(separator: " ")
private let startCommand = "systemctl --user start " + enabledNames.joined(separator: " ")
private let stopCommand = "systemctl --user stop " + enabledNames.joined(separator: " ")

/// Why `w8 systemd` could not do its job.
enum SystemdCommandError: LocalizedError {
    case unknownExecutable(reason: String)
    case unusableExecutable(String)
    case notOurs(path: String)
    case cannotWrite(path: String, reason: String)
    case systemctl(command: String, problem: String)

    var errorDescription: String? {
        switch self {
        case .unknownExecutable(let reason): "cannot tell where this w8 is from /proc/self/exe: \(reason)"
        case .unusableExecutable(let problem): "\(problem); move w8 and run 'w8 systemd install' again"
        case .notOurs(let path): "\(path) exists and w8 did not write it; move it away, then install again"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .systemctl(let command, let problem): "'\(command)' failed: \(problem)"
        }
    }

    /// sysexits(3): 73 for a file, 69 when the user manager refuses.
    var exitCode: Int32 {
        switch self {
        case .unknownExecutable, .unusableExecutable, .notOurs, .cannotWrite: 73
        case .systemctl: 69
        }
    }
}

/// Runs `body`, turning a `SystemdCommandError` into one `w8: ...` line and its exit code.
private func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as SystemdCommandError {
        FileHandle.standardError.write(Data("w8: \(error.localizedDescription)\n".utf8))
        throw ExitCode(error.exitCode)
    }
}

/// The absolute path of the running binary, which the installed units run.
private func runningExecutable() throws -> String {
    let path: String
    do {
        path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    } catch {
        throw SystemdCommandError.unknownExecutable(reason: error.localizedDescription)
    }
    if path.hasSuffix(" (deleted)") { throw SystemdCommandError.unknownExecutable(reason: "\(path)") }
    if let problem = SystemdUnit.problem(executable: path) { throw SystemdCommandError.unusableExecutable(problem) }
    return path
}

private func createDirectory(_ path: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        throw SystemdCommandError.cannotWrite(path: path, reason: error.localizedDescription)
    }
}

/// Writes `text` unless the file already holds it; refuses to replace a file that w8 did not generate.
/// Returns whether the file changed.
private func write(_ text: String, to path: String) throws -> Bool {
    if let old = try? String(contentsOfFile: path, encoding: .utf8) {
        if old == text { return false }
        guard SystemdUnit.isGenerated(old) else { throw SystemdCommandError.notOurs(path: path) }
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw SystemdCommandError.cannotWrite(path: path, reason: error.localizedDescription)
    }
    return true
}

private func remove(_ path: String) throws {
    do {
        try FileManager.default.removeItem(atPath: path)
    } catch {
        throw SystemdCommandError.cannotWrite(path: path, reason: error.localizedDescription)
    }
}

/// Removes the `*.wants/` links that `systemctl enable` made to `path`, in case `disable` could not (no systemctl);
/// a dangling link would keep the unit listed as enabled.
private func removeEnablingLinks(to path: String, in directory: String) throws {
    let fm = FileManager.default
    let wants = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".wants") }
    for link in wants.map({ directory + "/" + $0 + "/" + (path as NSString).lastPathComponent }) {
        if (try? fm.destinationOfSymbolicLink(atPath: link)) == path { try remove(link) }
    }
}

/// `systemctl --user`, run as a child process with w8's environment, so that it reaches the user manager that
/// `$XDG_RUNTIME_DIR` and `$DBUS_SESSION_BUS_ADDRESS` name, and no other.
struct Systemctl {
    let environment: [String: String]

    func run(_ arguments: String...) -> String? { run(arguments) }

    /// Runs `systemctl --user arguments`; returns nil on success, else one line saying what went wrong.
    func run(_ arguments: [String]) -> String? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { $0 + "/systemctl" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return "systemctl is not installed or not in $PATH" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--user"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return "cannot run \(path): \(error.localizedDescription)"
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationReason == .exit && process.terminationStatus == 0 { return nil }
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
        return "systemctl --user \(arguments.first ?? ""): \(firstLine)"
    }
}
