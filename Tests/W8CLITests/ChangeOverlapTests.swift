import Foundation
import Testing
import W8TestHarness

/// What `w8 add`, `edit` and `rm` do at the same time as something else. They read their settings and input before
/// they open the database: a command refused for them leaves the files as they were. A change that claims a
/// notification connects to the bus before its commit is fsynced, so that the post after waits only for its own
/// answer.
@Suite(.ownThread) struct ChangeOverlapTests {
    /// The database and its WAL, byte for byte. The last add left its entry in the WAL: a checkpoint would move it.
    func files(_ w8: W8Sandbox) -> [Data?] {
        [w8.databasePath, w8.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    @Test func aRefusedChangeLeavesTheFilesAsTheyWere() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("add", "179")
        let before = files(w8)
        #expect((before[1]?.count ?? 0) > 0, "the entry is in the WAL")

        // Refused for its input, which is read before the database is needed, then for a config.toml that cannot
        // be read.
        let refused: [([String], Int32)] = [
            (["add", "1x"], 65), (["edit", "1", "--weight", "abc"], 65), (["add", "170", "--date", "someday"], 65),
        ]
        for (arguments, status) in refused {
            let result = try w8.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(files(w8) == before, "\(arguments)")
        }
        try FileManager.default.createDirectory(
            atPath: (w8.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "unit = \"stone\"\n".write(toFile: w8.configPath, atomically: true, encoding: .utf8)
        let result = try w8.run("add", "178")
        #expect(result.status == 78, "\(result.stderr)")
        #expect(files(w8) == before)

        try FileManager.default.removeItem(atPath: w8.configPath)
        try w8.run("add", "178")
        let log = try #require(try w8.json("log") as? [[String: Any]])
        #expect(log.compactMap { $0["weight"] as? Double } == [178, 179, 180])
    }

    /// Under `strace -f`, the database file is opened once, by the main thread: no thread starts before a change
    /// needs one (issue 40 retired the second thread that opened it, which saved nothing measurable).
    @Test func theDatabaseOpensOnceOnTheMainThread() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180")
        let trace = w8.root.appendingPathComponent("strace.txt").path
        let result = try W8Sandbox.running(
            w8, through: ["strace", "-f", "-e", "trace=openat,clone,clone3", "-o", trace, w8.executable, "add", "179"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let main = try #require(lines.first.flatMap { Int32($0.prefix { $0 != " " }) })
        let openers = lines.filter { $0.contains("w8trackr.sqlite\", O_RDWR") }.compactMap {
            Int32($0.prefix { $0 != " " })
        }
        #expect(openers == [main], "\(lines.filter { $0.contains("w8trackr.sqlite") })")
        // An add that claims nothing, with no bus to post to, starts no thread at all.
        #expect(!lines.contains { $0.contains("clone") }, "\(lines.filter { $0.contains("clone") })")
    }

    /// A change that claims a notification connects to the bus once, through libnotify, after its commit was
    /// synced; one that claims nothing never connects.
    @Test func onlyAClaimedNotificationConnectsToTheBus() throws {
        let (dunst, w8) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        try w8.run("add", "180", "--date", "2026-11-01")
        try w8.run("goal", "160")
        func trace(_ weight: String) throws -> [Substring] {
            let path = w8.root.appendingPathComponent("strace-\(weight).txt").path
            let result = try W8Sandbox.running(
                w8,
                through: [
                    "strace", "-f", "-e", "trace=connect,fdatasync,fsync", "-o", path, w8.executable, "add", weight,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        }
        // 175 lb crosses 25%: one connection to the bus, and the commit was synced.
        let crossing = try trace("175")
        let connects = crossing.indices.filter {
            crossing[$0].contains("connect(") && crossing[$0].contains("sun_path")
        }
        let syncs = crossing.indices.filter { crossing[$0].contains("sync(") }
        #expect(connects.count == 1, "\(crossing)")
        #expect(!syncs.isEmpty, "\(crossing)")
        // The claim is on disk before anything reaches the bus: a crash in between announces nothing twice.
        #expect(syncs.allSatisfy { $0 < connects[0] }, "\(crossing)")
        #expect(try dunst.history().map(\.summary) == ["25% of the way to your goal!"])
        // 174 lb claims nothing: no connection at all.
        let quiet = try trace("174")
        #expect(!quiet.contains { $0.contains("connect(") && $0.contains("sun_path") }, "\(quiet)")
        #expect(try dunst.history().count == 1)
    }
}
