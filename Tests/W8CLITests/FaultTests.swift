import Foundation
import Testing
import W8TestHarness
import W8TestSupport

/// The day this file's history is told from: the test clock's Sunday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let sunday = TestClock.daysBack(to: 1)

/// A w8-csv file of `count` weigh-ins `spacing` minutes apart, the first `first` steps after 2001-01-01, noted
/// `tag-N`.
func weighInsCSV(_ count: Int, first: Int = 0, spacing: Int = 1440, tag: String = "row") -> String {
    let formatter = ISO8601DateFormatter()
    var text = "id,date,weight,unit,note,body_fat_percent\n"
    for i in 0..<count {
        let date = Date(timeIntervalSince1970: 978_336_000 + Double((first + i) * spacing) * 60 + 8 * 3600)
        text += "\(i + 1),\(formatter.string(from: date)),\(150 + i % 50),lb,\(tag)-\(i),\n"
    }
    return text
}

extension W8Sandbox {
    /// Imports `weighInsCSV(count)` and folds the WAL into the file, so that its bytes are the whole database.
    func seed(_ count: Int) throws {
        let file = root.appendingPathComponent("seed.csv")
        try weighInsCSV(count).write(to: file, atomically: true, encoding: .utf8)
        let result = try run("import", file.path)
        #expect(result.status == 0, "\(result.stderr)")
        _ = try sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// Overwrites most of the page in the middle of a database seeded with 2,000 weigh-ins, the same bytes every run.
/// The entry table and its date index are most of such a file (every other table has one page near its start), so
/// that page is one of theirs whatever tables a later migration adds; a fixed page number was, until migration v4's
/// empty activity table took it.
func overwriteMiddlePage(_ handle: FileHandle) throws {
    let pages = try handle.seekToEnd() / 4096
    var random = SeededRandom(seed: 17)
    try handle.seek(toOffset: pages / 2 * 4096 + 50)
    handle.write(Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &random) }))
}

/// Checks shared by the fault tests: one line on stderr, `w8: ` first, no Swift trap or backtrace.
func expectOneLine(
    _ result: W8Run, status: Int32, containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("w8: "), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
    }
}

/// A damaged database: w8 refuses to write to it and never rewrites it, the doctor says what to do, and the JSON
/// export saves what SQLite can still read.
@Suite(.ownThread) struct CLICorruptDatabaseTests {
    enum Damage: String, CaseIterable, Sendable {
        case overwrittenPages, truncated, notSQLite
    }

    func damage(_ w8: W8Sandbox, _ damage: Damage) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: w8.databasePath))
        defer { try? handle.close() }
        switch damage {
        case .overwrittenPages:
            try overwriteMiddlePage(handle)
        case .truncated:
            try handle.truncate(atOffset: try handle.seekToEnd() / 2)
        case .notSQLite:
            try handle.truncate(atOffset: 0)
            handle.write(Data(String(repeating: "not a database, a shopping list\n", count: 600).utf8))
        }
    }

    @Test(arguments: Damage.allCases)
    func refusedReportedAndSalvaged(_ kind: Damage) throws {
        let w8 = try W8Sandbox()
        try w8.seed(2000)
        try damage(w8, kind)
        #expect((try? w8.sqlite("PRAGMA quick_check")) != "ok")
        let before = try Data(contentsOf: URL(fileURLWithPath: w8.databasePath))

        // w8 add refuses with one line and leaves every byte as it was.
        let add = try w8.run("add", "182")
        expectOneLine(add, status: 74, containing: [w8.databasePath, "damaged", "w8 doctor"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: w8.databasePath)) == before)

        // The doctor says so and what to do.
        let doctor = try w8.run("doctor")
        #expect(doctor.stdout.contains("Database check:               FAILED: "), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("w8 export --format json --output"))
        let report = try object(try w8.json("doctor"))
        #expect(report["database_problem"] is String)

        // The export saves what can be read; where SQLite can read nothing it fails with one line, writing nothing.
        let output = w8.root.appendingPathComponent("salvage.json").path
        let export = try w8.run("export", "--format", "json", "--output", output)
        if kind == .overwrittenPages {
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stderr.contains("damaged"))
            let backup = try object(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))))
            let notes = (backup["entries"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
            #expect(notes.count > 1000 && notes.count <= 2000, "salvaged \(notes.count)")
            #expect(Set(notes).count == notes.count)
        } else {
            expectOneLine(export, status: 74, containing: ["damaged"])
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: w8.databasePath)) == before)
    }
}

/// A full disk, a read-only data directory and files of another user: one clear line, nothing lost.
@Suite(.ownThread) struct CLIDiskAndPermissionTests {
    // The data and the settings on one small tmpfs, filled up.
    @Test(.enabled(if: runningAsRoot, "mounting a tmpfs needs root; CI runs as root"))
    func fullDisk() throws {
        let w8 = try W8Sandbox()
        let disk = try TmpfsMount(at: w8.root.appendingPathComponent("disk"), size: 1 << 20)
        defer { disk.unmount() }
        w8.environment["XDG_DATA_HOME"] = disk.directory.appendingPathComponent("data").path
        w8.environment["XDG_CONFIG_HOME"] = disk.directory.appendingPathComponent("config").path
        let database = disk.directory.appendingPathComponent("data/w8trackr/w8trackr.sqlite").path
        let config = disk.directory.appendingPathComponent("config/w8trackr/config.toml").path
        let export = disk.directory.appendingPathComponent("weights.csv").path
        try w8.run("add", "180", "--note", "first")
        try w8.run("config", "unit", "lb")
        try w8.run("export", "--output", export)
        let exported = try String(contentsOfFile: export, encoding: .utf8)
        let settings = try String(contentsOfFile: config, encoding: .utf8)

        let filler = try disk.fill()
        let add = try w8.run("add", "181", "--note", String(repeating: "n", count: 400))
        expectOneLine(add, status: 74, containing: ["the disk is full", database])
        // Whole or not at all: the settings and the export stay as they were, and no temporary file is left.
        expectOneLine(try w8.run("config", "unit", "kg"), status: 78, containing: [config, "No space left"])
        try w8.run("add", "0.5", "--unit", "kg")  // nothing else changes the export below
        // The export was opened, and its write failed: output lost is 74, as for standard output.
        expectOneLine(try w8.run("export", "--output", export), status: 74, containing: [export, "No space left"])
        #expect(try String(contentsOfFile: config, encoding: .utf8) == settings)
        #expect(try String(contentsOfFile: export, encoding: .utf8) == exported)
        for directory in [disk.directory.path, (config as NSString).deletingLastPathComponent] {
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") } == [])
        }
        // The existing data is intact.
        w8.environment["XDG_DATA_HOME"] = disk.directory.appendingPathComponent("data").path
        #expect(try w8.entryCount() == 1)

        // Once space is freed, the next add works.
        try FileManager.default.removeItem(at: filler)
        #expect(try w8.run("add", "181").status == 0)
        #expect(try w8.entryCount() == 2)
        let integrity = try runSQLite(database, "PRAGMA integrity_check")
        #expect(integrity == "ok")
    }

    /// A sandbox of the unprivileged user with one entry; root changes its files' modes and owners.
    func sandbox() throws -> W8Sandbox {
        let w8 = try W8Sandbox(user: try SessionUser.unprivileged())
        #expect(try w8.run("add", "180").status == 0)
        return w8
    }

    enum Obstacle: String, CaseIterable, Sendable {
        case readOnlyDirectory, readOnlyDatabase, directoryOfRoot, databaseOfRoot
    }

    @Test(
        .enabled(if: runningAsRoot && unprivilegedUserExists, "needs root and the user w8test (scripts/install-deps)"),
        arguments: Obstacle.allCases)
    func oneLineAndNothingLost(_ obstacle: Obstacle) throws {
        let w8 = try sandbox()
        let directory = (w8.databasePath as NSString).deletingLastPathComponent
        let file: String
        var fragments = ["Permission denied"]
        switch obstacle {
        case .readOnlyDirectory:
            (file, fragments) = (directory, ["read-only"])
            // w8 keeps the WAL and its index beside the database, and writes only files that exist: a read-only
            // directory stops it only where one must be created, as when sqlite3 closed the database last.
            chmod(directory, 0o500)
            #expect(try w8.run("add", "180.5").status == 0)
            #expect(try w8.entryCount() == 2)
            try w8.run("rm", "2")
            chmod(directory, 0o700)
            // sqlite3, closing last, checkpoints the changes w8 left in the WAL and removes the WAL and its index.
            _ = try runSQLite(w8.databasePath, "PRAGMA wal_checkpoint(TRUNCATE);")
            #expect(!FileManager.default.fileExists(atPath: w8.databasePath + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: w8.databasePath + "-shm"))
            chmod(directory, 0o500)
        case .readOnlyDatabase:
            (file, fragments[0]) = (w8.databasePath, "mode 400")
            chmod(w8.databasePath, 0o400)
        case .directoryOfRoot:
            file = directory
            chown(directory, 0, 0)
            fragments.append("belongs to root")
        case .databaseOfRoot:
            file = w8.databasePath
            chown(w8.databasePath, 0, 0)
            fragments.append("belongs to root")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        let before = w8.databaseBytes()
        let add = try w8.run("add", "181")
        expectOneLine(add, status: 73, containing: [w8.databasePath] + fragments)
        // w8 neither widened the mode nor wrote.
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == mode)
        #expect(w8.databaseBytes() == before)
        chmod(file, obstacle == .readOnlyDirectory || obstacle == .directoryOfRoot ? 0o700 : 0o600)
        chown(file, w8.user.uid, w8.user.gid)
        #expect(try w8.entryCount() == 1)
    }
}

/// sqlite3 on a database that is not a sandbox's own path.
func runSQLite(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    try launch(process)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A hostile config.toml: one line naming the file and the line, at once, for every command.
@Suite(.ownThread) struct CLIHostileConfigTests {
    enum Hostile: String, CaseIterable, Sendable {
        case hugeNumber, wrongType, tenMegabytesOfGarbage, symlinkToDevZero, notUTF8, hugeString
    }

    func write(_ hostile: Hostile, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        switch hostile {
        case .hugeNumber:
            try "unit = \"kg\"\n[summary]\nhour = \(String(repeating: "9", count: 400))\n".write(
                toFile: path, atomically: true, encoding: .utf8)
        case .wrongType:
            try "unit = \"kg\"\n[summary]\nenabled = \"yes\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        case .tenMegabytesOfGarbage:
            var random = SeededRandom(seed: 10)
            let block = (0..<4096).map { _ in UInt8.random(in: 32...126, using: &random) }
            try Data(repeatElement(block, count: 10 << 8).joined()).write(to: URL(fileURLWithPath: path))
        case .symlinkToDevZero:
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        case .notUTF8:
            try Data("unit = \"kg\"\n# caf".utf8 + [0xE9, 0xFF] + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        case .hugeString:
            try "unit = \"\(String(repeating: "k", count: 100_000))\"\n".write(
                toFile: path, atomically: true, encoding: .utf8)
        }
    }

    static let lines: [Hostile: String] = [
        .hugeNumber: "line 3", .wrongType: "line 3", .tenMegabytesOfGarbage: "line 1", .symlinkToDevZero: "line 1",
        .notUTF8: "line 2", .hugeString: "line 1",
    ]

    @Test(arguments: Hostile.allCases)
    func oneLineNamingFileAndLine(_ hostile: Hostile) throws {
        let w8 = try W8Sandbox()
        try write(hostile, to: w8.configPath)
        for args in [["add", "80"], ["status"], ["config", "unit", "lb"], ["daemon"]] {
            if args == ["daemon"] { #expect(!FileManager.default.fileExists(atPath: w8.databasePath)) }
            let result = try w8.run(args, timeout: 10)
            expectOneLine(result, status: 78, containing: [w8.configPath + ": " + Self.lines[hostile]!])
        }
    }
}

/// The notification server dies during a call, or is restarted: entries are kept, and the daemon reaches the
/// new server.
@Suite(.serialized, .ownThread) struct CLINotificationServerFaultTests {
    @Test func serverDiesMidCall() throws {
        let hung = try HungNotificationServer()
        defer { hung.stop() }
        let w8 = try W8Sandbox(bus: hung.bus)
        try w8.run("add", "180", "--date", "\(TestClock.day(sunday - 21))")
        try w8.run("goal", "160")
        let add = try w8.background(["add", "175"])
        let method = try hung.waitForCall()
        hung.killServer()
        let result = add.wait()
        #expect(result.status == 0, "killed during \(method): \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("w8: warning: "), "\(result.stderr)")
        #expect(try w8.entryCount() == 2)
        let milestones = try #require(try w8.json("milestones") as? [[String: Any]])
        #expect(milestones.map { $0["notification_sent"] as? Bool } == [false])
    }

    // The daemon posts a reminder to dunst, dunst crashes and is restarted, and the next reminder reaches the new
    // dunst. Reminders are a minute apart; the fake clock runs 4 times faster, so the test waits 15 s of it.
    @Test func daemonReachesARestartedServer() throws {
        let dunst = try DunstSession()
        defer { dunst.stop() }
        let w8 = try W8Sandbox(bus: dunst.bus)
        try w8.configure([
            "summary.enabled": "false", "reminders.breakfast": "true", "reminders.breakfast_time": "07:30",
            "reminders.lunch": "true", "reminders.lunch_time": "07:31",
        ])
        let daemon = try DaemonProcess(w8, fakeStart: "\(TestClock.day(sunday)) 07:29:58 x4")
        defer { daemon.stop() }
        try daemon.waitForLog("breakfast@\(TestClock.day(sunday))T07:30: sent", timeout: 8)
        #expect(try dunst.displayedCount() == 1)
        try dunst.restartServer()
        #expect(try dunst.displayedCount() == 0)
        try daemon.waitForLog("lunch@\(TestClock.day(sunday))T07:31: sent", timeout: 25)
        #expect(try dunst.displayedCount() == 1, "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }
}
