import Foundation
import Testing
import W8TestHarness

/// The systemd user units and `w8 systemd`: checked by systemd's own tools and through the built binary.
@Suite(.ownThread) struct SystemdTests {
    static let units = ["w8trackr.service", "w8trackr-summary.service", "w8trackr-summary.timer"]

    /// The repository's `systemd/` directory, where the packaged units live.
    static let committedUnits = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd")

    /// `w8 systemd print` for every unit, written to a fresh directory.
    func printedUnits(_ w8: W8Sandbox, executable: String) throws -> URL {
        let directory = w8.root.appendingPathComponent("printed")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in Self.units {
            let printed = try w8.run("systemd", "print", "--executable", executable, name)
            #expect(printed.status == 0, "\(printed.stderr)")
            try printed.stdout.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// `systemd-analyze --user verify` prints warnings for unknown keys yet exits 0, so any output fails.
    ///
    /// It loads every user unit on its search path, and two that this machine's packages install (mako's and
    /// swaync's) claim the same bus name, which it reports: so its path is the units under test and copies of the
    /// system's targets, which they name.
    func expectVerified(_ directory: URL, _ w8: W8Sandbox) throws {
        let runtime = w8.root.appendingPathComponent("analyze-run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let system = "/usr/lib/systemd/user"
        for target in try FileManager.default.contentsOfDirectory(atPath: system) where target.hasSuffix(".target") {
            let copy = directory.appendingPathComponent(target)
            if !FileManager.default.fileExists(atPath: copy.path) {
                try Data(contentsOf: URL(fileURLWithPath: system + "/" + target)).write(to: copy)
            }
        }
        let verify = try tool(
            "systemd-analyze",
            ["--user", "verify", "--man=no"] + Self.units.map { directory.appendingPathComponent($0).path },
            environment: [
                "XDG_RUNTIME_DIR": runtime.path, "HOME": w8.root.path, "SYSTEMD_UNIT_PATH": directory.path,
            ])
        #expect(verify.status == 0)
        #expect(verify.output == "")
    }

    @Test func systemdAcceptsTheUnitsForTheBuiltW8() throws {
        let w8 = try W8Sandbox()
        try expectVerified(try printedUnits(w8, executable: w8.executable), w8)
    }

    @Test func systemdAcceptsAnExecutablePathWithABlankAndAPercentSign() throws {
        // Given a w8 in a directory whose name systemd would split at the blank and expand at the '%'
        let w8 = try W8Sandbox()
        let odd = w8.root.appendingPathComponent("my tools 100%d $HOME")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let copy = odd.appendingPathComponent("w8").path
        try FileManager.default.copyItem(atPath: w8.executable, toPath: copy)
        // Then systemd finds it: verify checks that ExecStart's executable exists
        try expectVerified(try printedUnits(w8, executable: copy), w8)
    }

    @Test func printRefusesAPathSystemdCannotRun() throws {
        let w8 = try W8Sandbox()
        for path in ["bin/w8", "/usr//bin/w8", "/opt/it's/w8"] {
            let result = try w8.run("systemd", "print", "--executable", path)
            #expect(result.status == 64)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.hasPrefix("w8: --executable: "))
        }
    }

    @Test func committedUnitsAreThePrintedOnesForUsrBin() throws {
        let w8 = try W8Sandbox()
        for name in Self.units {
            let printed = try w8.run("systemd", "print", "--executable", "/usr/bin/w8", name)
            #expect(printed.status == 0)
            let committed = try String(contentsOf: Self.committedUnits.appendingPathComponent(name), encoding: .utf8)
            #expect(
                committed == printed.stdout,
                "systemd/\(name) is stale; regenerate it with: w8 systemd print --executable /usr/bin/w8 \(name)")
        }
    }

    @Test func printWithoutANameShowsEveryUnit() throws {
        let all = try W8Sandbox().run("systemd", "print", "--executable", "/usr/bin/w8")
        #expect(all.status == 0)
        #expect(all.stdout.split(separator: "\n").filter { $0.hasPrefix("==> ") } == Self.units.map { "==> \($0) <==" })
    }

    @Test func unitsRunTheRightCommands() throws {
        let w8 = try W8Sandbox()
        func lines(_ name: String) throws -> [Substring] {
            try w8.run("systemd", "print", "--executable", "/usr/bin/w8", name).stdout.split(separator: "\n")
        }
        let daemon = try lines("w8trackr.service")
        #expect(daemon.contains("ExecStart=/usr/bin/w8 daemon"))
        #expect(daemon.contains("Type=exec"))
        #expect(daemon.contains("PartOf=graphical-session.target"))
        #expect(daemon.contains("WantedBy=graphical-session.target"))
        let summary = try lines("w8trackr-summary.service")
        #expect(summary.contains("ExecStart=/usr/bin/w8 summary --send --if-due"))
        #expect(summary.contains("Type=oneshot"))
        for unit in [daemon, summary] {
            #expect(unit.contains("RestrictAddressFamilies=AF_UNIX"))
            // Mount namespaces need PrivateUsers= in user units on systemd 252.
            #expect(!unit.contains { $0.hasPrefix("ProtectSystem=") || $0.hasPrefix("ProtectHome=") })
        }
        let timer = try lines("w8trackr-summary.timer")
        #expect(timer.contains("OnCalendar=*-*-* *:00:00"))
        #expect(timer.contains("AccuracySec=1s"))
        #expect(timer.contains("Persistent=true"))
    }

    @Test func systemdAcceptsTheTimersSchedule() throws {
        let timer = try W8Sandbox().run("systemd", "print", "w8trackr-summary.timer").stdout
        let schedules = timer.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }
        #expect(schedules.count == 1)
        for schedule in schedules {
            let expression = String(schedule.dropFirst("OnCalendar=".count))
            let calendar = try tool("systemd-analyze", ["calendar", expression], environment: [:])
            #expect(calendar.status == 0, "\(calendar.output)")
            #expect(calendar.output.contains("Normalized form: \(expression)"))
        }
    }

    @Test func installWithoutAUserManagerWritesTheUnitsAndWarnsOnce() throws {
        // Given a sandbox: a private XDG_RUNTIME_DIR and no session bus, so no user manager to reach
        let w8 = try W8Sandbox()
        #expect(w8.environment["DBUS_SESSION_BUS_ADDRESS"] == nil)
        let directory = w8.root.appendingPathComponent("config/systemd/user")

        // When
        let install = try w8.run("systemd", "install")

        // Then the units are there, running this w8, enabled offline, and one line says how to start them now
        #expect(install.status == 0)
        #expect(install.stderrLines.count == 1)
        #expect(install.stderr.hasPrefix("w8: warning: could not reach the systemd user manager"))
        #expect(install.stderr.contains("systemctl --user start w8trackr.service w8trackr-summary.timer\n"))
        #expect(install.stdout.hasSuffix("Enabled w8trackr.service and w8trackr-summary.timer.\n"))
        let executable = URL(fileURLWithPath: w8.executable).resolvingSymlinksInPath().path
        for name in Self.units {
            let path = directory.appendingPathComponent(name).path
            #expect(install.stdout.contains("Wrote \(path)\n"))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text == (try w8.run("systemd", "print", "--executable", executable, name)).stdout)
        }
        #expect(
            try String(contentsOf: directory.appendingPathComponent("w8trackr.service"), encoding: .utf8)
                .contains("\nExecStart=\(executable) daemon\n"))

        // And doctor sees them installed and enabled
        let doctor = try object(try w8.json("doctor"))
        let reports = try #require(doctor["systemd_units"] as? [Object])
        #expect(reports.map { $0["name"] as? String } == ["w8trackr.service", "w8trackr-summary.timer"])
        #expect(reports.allSatisfy { $0["installed"] as? Bool == true && $0["enabled"] as? Bool == true })

        // And installing again changes nothing
        let again = try w8.run("systemd", "install")
        #expect(again.status == 0)
        #expect(again.stdout.components(separatedBy: "(up to date)").count == Self.units.count + 1)
        #expect(again.stderrLines.count == 1)
    }

    @Test func installNoEnableOnlyWritesTheUnits() throws {
        let w8 = try W8Sandbox()
        let install = try w8.run("systemd", "install", "--no-enable")
        #expect(install.status == 0)
        #expect(install.stderrLines.count == 1)
        #expect(
            install.stderr.hasSuffix(
                "enable them later with: systemctl --user daemon-reload && "
                    + "systemctl --user enable --now w8trackr.service w8trackr-summary.timer\n"))
        let reports = try #require(try object(try w8.json("doctor"))["systemd_units"] as? [Object])
        #expect(reports.allSatisfy { $0["installed"] as? Bool == true && $0["enabled"] as? Bool == false })
    }

    @Test func uninstallRemovesTheUnitsAndTheirEnablingLinks() throws {
        let w8 = try W8Sandbox()
        try w8.run("systemd", "install")
        let directory = w8.root.appendingPathComponent("config/systemd/user")
        let link = directory.appendingPathComponent("graphical-session.target.wants/w8trackr.service").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == directory.path + "/w8trackr.service")

        // When
        let uninstall = try w8.run("systemd", "uninstall")

        // Then
        #expect(uninstall.status == 0)
        #expect(uninstall.stderrLines.count == 1)
        #expect(uninstall.stderr.hasPrefix("w8: warning: could not stop the units through the systemd user manager"))
        #expect(uninstall.stdout.components(separatedBy: "Removed ").count == Self.units.count + 1)
        let left = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        #expect(left.allSatisfy { $0.hasSuffix(".wants") }, "\(left)")
        let reports = try #require(try object(try w8.json("doctor"))["systemd_units"] as? [Object])
        #expect(reports.allSatisfy { $0["installed"] as? Bool == false && $0["enabled"] as? Bool == false })
        let again = try w8.run("systemd", "uninstall")
        #expect(again.status == 0)
        #expect(again.stderr == "")
    }

    /// The sandbox's `SYSTEMD_UNIT_PATH` stands in for systemd's whole search path: its `units-system` is where
    /// `make install` or a package puts the units (`/usr/local/lib/systemd/user`, `/usr/lib/systemd/user`).
    @Test func doctorAndUninstallFollowTheUnitPathAndNameUnitsInstalledElsewhere() throws {
        // Given the units installed system-wide, as `make install` does
        let w8 = try W8Sandbox()
        let system = w8.root.appendingPathComponent("units-system")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        for name in Self.units {
            let text = try w8.run("systemd", "print", "--executable", "/usr/local/bin/w8", name).stdout
            try text.write(to: system.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // Then doctor finds them there, not enabled
        var reports = try #require(try object(try w8.json("doctor"))["systemd_units"] as? [Object])
        #expect(
            reports.map { $0["path"] as? String }
                == ["w8trackr.service", "w8trackr-summary.timer"].map {
                    system.appendingPathComponent($0).path
                })
        #expect(reports.allSatisfy { $0["enabled"] as? Bool == false })

        // When the user's own are installed and removed again
        try #require(try w8.run("systemd", "install").status == 0)
        reports = try #require(try object(try w8.json("doctor"))["systemd_units"] as? [Object])
        #expect(reports.allSatisfy { ($0["path"] as? String)?.hasPrefix(w8.root.path + "/config/") == true })
        let uninstall = try w8.run("systemd", "uninstall")

        // Then uninstall says which ones systemd still finds
        #expect(uninstall.status == 0)
        #expect(
            uninstall.stderr.hasSuffix(
                "w8: warning: systemd still finds w8trackr.service and w8trackr-summary.timer in \(system.path), "
                    + "which 'w8 systemd install' did not write; 'make uninstall' or the package manager removes them\n"
            ), "\(uninstall.stderr)")
        #expect(FileManager.default.fileExists(atPath: system.appendingPathComponent("w8trackr.service").path))
        // And a SYSTEMD_UNIT_PATH ending in ':' is followed by systemd's own path, whose first directory is
        // $XDG_CONFIG_HOME/systemd/user (the sandbox's)
        try #require(try w8.run("systemd", "install").status == 0)
        w8.environment["SYSTEMD_UNIT_PATH"] = w8.root.appendingPathComponent("empty").path + ":"
        reports = try #require(try object(try w8.json("doctor"))["systemd_units"] as? [Object])
        #expect(reports.first?["path"] as? String == w8.root.path + "/config/systemd/user/w8trackr.service")
    }

    @Test func uninstallWithoutSystemctlRemovesTheEnablingLinksItself() throws {
        let w8 = try W8Sandbox()
        try w8.run("systemd", "install")
        w8.environment["PATH"] = w8.root.appendingPathComponent("empty").path
        let uninstall = try w8.run("systemd", "uninstall")
        #expect(uninstall.status == 0)
        #expect(uninstall.stderrLines.count == 1)
        let directory = w8.root.appendingPathComponent("config/systemd/user").path
        let left = try FileManager.default.subpathsOfDirectory(atPath: directory)
        #expect(left.allSatisfy { $0.hasSuffix(".wants") }, "\(left)")
    }

    @Test func unitFilesThatW8DidNotWriteAreLeftAlone() throws {
        let w8 = try W8Sandbox()
        let directory = w8.root.appendingPathComponent("config/systemd/user")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mine = directory.appendingPathComponent("w8trackr.service")
        try "[Service]\nExecStart=/bin/true\n".write(to: mine, atomically: true, encoding: .utf8)

        let install = try w8.run("systemd", "install")
        #expect(install.status == 73)
        #expect(install.stderr == "w8: \(mine.path) exists and w8 did not write it; move it away, then install again\n")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "[Service]\nExecStart=/bin/true\n")

        let uninstall = try w8.run("systemd", "uninstall")
        #expect(uninstall.status == 0)
        #expect(uninstall.stderr.contains("w8: warning: left \(mine.path) alone: w8 did not write it\n"))
        #expect(FileManager.default.fileExists(atPath: mine.path))
    }

    @Test func installWithoutSystemctlWarnsOnce() throws {
        let w8 = try W8Sandbox()
        w8.environment["PATH"] = w8.root.appendingPathComponent("empty").path
        let install = try w8.run("systemd", "install")
        #expect(install.status == 0)
        #expect(install.stderrLines.count == 1)
        #expect(install.stderr.contains("systemctl is not installed"))
        #expect(
            FileManager.default.fileExists(
                atPath: w8.root.appendingPathComponent("config/systemd/user/w8trackr.service").path))
    }

    @Test(arguments: [["systemd"], ["systemd", "install"], ["systemd", "uninstall"], ["systemd", "print"]])
    func subcommandsHaveHelp(command: [String]) throws {
        let help = try W8Sandbox().run(command + ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: w8 \(command.joined(separator: " "))"))
    }
}

/// What a tool printed on stdout and stderr together, and its exit status.
private struct ToolRun {
    var status: Int32
    var output: String
}

/// Runs a system tool from /usr/bin or /bin with exactly `environment` plus PATH and LANG.
private func tool(_ name: String, _ arguments: [String], environment: [String: String]) throws -> ToolRun {
    let path = try #require(
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) },
        "\(name) is missing; on Debian: apt-get install systemd")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment.merging(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }
    let output = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = output
    try launch(process)
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus, output: text)
}
