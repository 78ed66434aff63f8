import Foundation
import Testing
import W8App
import W8TestSupport

/// A `systemctl --user` that records its calls and answers from a table: nil is success.
final class RecordingSystemctl: SystemctlRunning, @unchecked Sendable {
    private let lock = NSLock()
    private var _calls: [[String]] = []
    let answers: [String: String]

    /// `answers` maps a verb (`daemon-reload`, `enable`) to the problem it reports.
    init(failing answers: [String: String] = [:]) {
        self.answers = answers
    }

    var calls: [[String]] { lock.withLock { _calls } }

    func run(_ arguments: [String]) -> String? {
        lock.withLock { _calls.append(arguments) }
        return answers[arguments.first ?? ""]
    }
}

/// The unit installer against a real directory and a recorded systemctl.
@Suite struct SystemdInstallerTests {
    let directory: TemporaryDirectory
    var units: String { directory.appending("systemd/user") }
    let executable = "/opt/w8/bin/w8"

    init() throws {
        directory = try TemporaryDirectory()
    }

    func install(_ systemctl: RecordingSystemctl, enable: Bool = true) throws -> [SystemdMessage] {
        var messages: [SystemdMessage] = []
        try SystemdInstaller(directory: units, executable: executable, systemctl: systemctl).install(enable: enable) {
            messages.append($0)
        }
        return messages
    }

    func uninstall(_ systemctl: RecordingSystemctl) throws -> [SystemdMessage] {
        var messages: [SystemdMessage] = []
        try SystemdInstaller(directory: units, executable: "", systemctl: systemctl).uninstall { messages.append($0) }
        return messages
    }

    @Test("Install writes every unit running this executable, reloads, then enables and starts")
    func installs() throws {
        defer { directory.remove() }
        let systemctl = RecordingSystemctl()

        let messages = try install(systemctl)

        for unit in SystemdUnit.allCases {
            let text = try String(contentsOfFile: units + "/" + unit.fileName, encoding: .utf8)
            #expect(text == unit.text(executable: executable))
        }
        #expect(systemctl.calls == [["daemon-reload"], ["enable", "--now"] + SystemdInstaller.enabledNames])
        #expect(messages.last == .info("Enabled and started w8trackr.service and w8trackr-summary.timer."))
    }

    @Test("A second install keeps the files up to date and says so")
    func idempotent() throws {
        defer { directory.remove() }
        _ = try install(RecordingSystemctl())
        let again = try install(RecordingSystemctl())
        #expect(again.prefix(3).allSatisfy { if case .info(let line) = $0 { line.hasPrefix("Kept ") } else { false } })
    }

    @Test("A unit file w8 did not write is refused with exit 73 and left as it was")
    func refusesForeignFiles() throws {
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        let foreign = units + "/w8trackr.service"
        try "[Service]\nExecStart=/usr/bin/true\n".write(toFile: foreign, atomically: true, encoding: .utf8)

        #expect(throws: SystemdError.notOurs(path: foreign)) { try install(RecordingSystemctl()) }
        #expect(SystemdError.notOurs(path: foreign).exitStatus.rawValue == 73)
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "[Service]\nExecStart=/usr/bin/true\n")
    }

    @Test("Without a user manager the units are written and linked, and a warning says how to start them")
    func noManager() throws {
        defer { directory.remove() }
        let systemctl = RecordingSystemctl(failing: ["daemon-reload": "Failed to connect to bus"])

        let messages = try install(systemctl)

        #expect(systemctl.calls.last == ["enable"] + SystemdInstaller.enabledNames)
        guard case .warning(let warning) = messages.last else {
            Issue.record("no warning: \(messages)")
            return
        }
        #expect(warning.hasPrefix("could not reach the systemd user manager (Failed to connect to bus)"))
    }

    @Test("A refused enable is an error with exit 69 that names the command")
    func refusedEnable() throws {
        defer { directory.remove() }
        let systemctl = RecordingSystemctl(failing: ["enable": "Access denied"])
        #expect(throws: SystemdError.systemctl(command: SystemdInstaller.enableCommand, problem: "Access denied")) {
            try install(systemctl)
        }
        #expect(SystemdError.systemctl(command: "", problem: "").exitStatus.rawValue == 69)
    }

    @Test("Uninstall disables, removes only its own files and their enabling links, and keeps a foreign one")
    func uninstalls() throws {
        defer { directory.remove() }
        _ = try install(RecordingSystemctl())
        let wants = units + "/default.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: wants + "/w8trackr.service", withDestinationPath: units + "/w8trackr.service")
        let foreign = units + "/w8trackr-summary.service"
        try "[Service]\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        let systemctl = RecordingSystemctl()

        let messages = try uninstall(systemctl)

        #expect(systemctl.calls.first == ["disable", "--now"] + SystemdInstaller.enabledNames)
        #expect(messages.first == .warning("left \(foreign) alone: w8 did not write it"))
        #expect(FileManager.default.fileExists(atPath: foreign))
        #expect(!FileManager.default.fileExists(atPath: units + "/w8trackr.service"))
        #expect(!FileManager.default.fileExists(atPath: units + "/w8trackr-summary.timer"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants + "/w8trackr.service")) == nil)
    }

    @Test("Uninstall with nothing installed says so and calls nothing")
    func nothingToRemove() throws {
        defer { directory.remove() }
        let systemctl = RecordingSystemctl()
        #expect(try uninstall(systemctl) == [.info("No units of w8 in \(units); nothing to remove.")])
        #expect(systemctl.calls.isEmpty)
    }
}
