import Foundation
import Testing

/// CI runs what the README tells a person to run, in that order: `make install`, then `make test`. So the tests
/// run on a machine where w8 is installed in /usr/local, and a test that reads the host's files fails in CI.
@Suite(.ownThread) struct CIContractTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `make …` commands of a text, in order: the first word of each line, comments dropped.
    static func makeCommands(_ text: Substring) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0] }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("make ") }
    }

    @Test func ciRunsTheReadmesSetUpCommandsInOrder() throws {
        let readme = try String(contentsOf: Self.checkout.appendingPathComponent("README.md"), encoding: .utf8)
        let setUp = try #require(readme.range(of: "## Set-up: two commands"))
        let block = try #require(readme[setUp.upperBound...].split(separator: "```", maxSplits: 2).dropFirst().first)
        let readmeCommands = Self.makeCommands(block)
        #expect(readmeCommands == ["make install", "make test"])

        let ci = try String(contentsOf: Self.checkout.appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciCommands = Self.makeCommands(ci[...])
        // The README's commands follow each other in CI, with nothing in between.
        let start = try #require(ciCommands.firstIndex(of: readmeCommands[0]), "CI never runs \(readmeCommands[0])")
        #expect(Array(ciCommands[start...].prefix(readmeCommands.count)) == readmeCommands, "CI runs \(ciCommands)")
    }
}

/// The packages every build uses are the ones the tests passed with: Package.resolved cannot be committed here (the
/// local mirror's commit ids are not GitHub's), so Package.swift pins each with `exact:`.
@Suite(.ownThread) struct PinnedPackagesTests {
    @Test func everyPackageIsPinnedToOneVersion() throws {
        for manifest in ["Package.swift", "Fuzz/Package.swift"] {
            let text = try String(
                contentsOf: CIContractTests.checkout.appendingPathComponent(manifest), encoding: .utf8)
            let packages = text.split(separator: "\n").filter { $0.contains(".package(") }
            #expect(manifest == "Fuzz/Package.swift" || packages.count == 3, "\(manifest): \(packages)")
            for line in packages where !line.contains("path:") {
                #expect(
                    line.range(of: #"exact: "\d+\.\d+\.\d+""#, options: .regularExpression) != nil,
                    "\(manifest) does not pin: \(line)")
            }
        }
    }
}

/// `make install` installs w8, not the test lab: `scripts/install-deps` without `--tests` asks for the build's
/// packages only, and generates no locale and creates no account; with `--tests` it does both (as root). Run with
/// stand-ins for apt-get, sudo, localedef, useradd, id and locale that record their calls: the machine is not touched.
@Suite(.ownThread) struct InstallDepsTests {
    /// Runs `scripts/install-deps arguments` with the stand-ins first on PATH; returns its exit status and the calls.
    func installDeps(_ arguments: [String]) throws -> (status: Int32, calls: [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("w8-deps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("calls").path
        // A machine where no package is installed (dpkg-query finds none), with no w8test account and no locales
        // but C, as root.
        let stands = [
            "apt-get": "", "sudo": "", "localedef": "", "useradd": "",
            "dpkg-query": "exit 1", "locale": "echo C.utf8",
            "id": #"[ "$1 $2" = "-u w8test" ] && exit 1; echo 0"#,
        ]
        for (name, body) in stands {
            let path = directory.appendingPathComponent(name).path
            try "#!/bin/sh\necho \"\(name) $*\" >> \(log)\n\(body)\n".write(
                toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [CIContractTests.checkout.appendingPathComponent("scripts/install-deps").path] + arguments
        process.environment = ["PATH": directory.path + ":/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let calls = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (process.terminationStatus, calls.filter { !$0.hasPrefix("dpkg-query") && !$0.hasPrefix("id ") })
    }

    @Test func theBuildsDependenciesAreTheBuildsAlone() throws {
        let build = try installDeps([])
        #expect(build.status == 0)
        let install = try #require(build.calls.first { $0.hasPrefix("apt-get install") }, "\(build.calls)")
        let packages = Set(install.split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") }.dropFirst(2))
        #expect(
            packages == [
                "libsqlite3-dev", "libnotify-dev", "libglib2.0-dev", "libcairo2-dev", "pkg-config", "zlib1g-dev",
                "gettext",
            ], "\(install)")
        #expect(!build.calls.contains { $0.hasPrefix("localedef") || $0.hasPrefix("useradd") }, "\(build.calls)")

        // The test lab: the servers, the locales and the account (the stand-ins do record them).
        let tests = try installDeps(["--tests"])
        #expect(tests.status == 0)
        #expect(tests.calls.contains { $0.hasPrefix("apt-get install") && $0.contains(" gnome-shell ") })
        #expect(tests.calls.filter { $0.hasPrefix("localedef") }.count == 2, "\(tests.calls)")
        #expect(tests.calls.contains { $0.hasPrefix("useradd") && $0.hasSuffix(" w8test") }, "\(tests.calls)")
    }

    /// The Makefile's set-up: install, build and run take the build's packages; test the lab's.
    @Test func makeInstallAsksForTheBuildsPackagesAndMakeTestForTheLab() throws {
        func dryRun(_ target: String) throws -> [String] {
            let process = Process()
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
            process.arguments = ["-n", "-C", CIContractTests.checkout.path, target]
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output.split(separator: "\n").map(String.init).filter { $0.contains("install-deps") }
        }
        for target in ["install", "build", "run"] {
            #expect(try dryRun(target) == ["./scripts/install-deps"], "make \(target)")
        }
        #expect(try dryRun("test") == ["./scripts/install-deps --tests"])
    }
}
