import Foundation
import Testing
import W8TestHarness

@Suite(.ownThread) struct CLIBadInputTests {
    // Each row: arguments, exit code, a fragment the one-line message must contain.
    static let rows: [([String], Int32, String)] = [
        (["add", "abc"], 65, "'abc'"), (["add", "nan"], 65, "'nan'"), (["add", "inf"], 65, "'inf'"),
        (["add", "0x1F"], 65, "'0x1F'"), (["add", "1e2"], 65, "'1e2'"), (["add", "0"], 65, "'0'"),
        (["add", "-5"], 65, "'-5'"), (["add", "19kg"], 65, "'19kg'"), (["add", "701kg"], 65, "'701kg'"),
        (["add", "43lb"], 65, "'43lb'"), (["add", "1544"], 65, "'1544'"), (["add", "80st"], 65, "'st'"),
        (["add", "80", "--unit", "stone"], 64, "'stone'"), (["add", "180", "--body-fat", "80"], 65, "'80'"),
        (["add", "180", "--body-fat", "1"], 65, "'1'"), (["add", "180", "--date", "2026-13-45"], 65, "'2026-13-45'"),
        (["add", "180", "--date", "tomorrow"], 65, "'tomorrow'"),
        (["add", "180", "--date", "2999-01-01"], 65, "future"),
        (["add", "180", "--date", "1800-01-01"], 65, "'1800-01-01' is before 1900"),
        (["edit", "1", "--date", "1899-12-31T23:59"], 65, "'1899-12-31T23:59' is before 1900"),
        (["add", "180", "--note", String(repeating: "n", count: 501)], 65, "501"), (["add"], 64, "weight"),
        (["goal", "5"], 65, "'5'"), (["goal", "2000"], 65, "'2000'"), (["log", "--limit", "0"], 64, "'0'"),
        (["add", "80kg", "--unit", "lb"], 65, "'80kg'"), (["frobnicate"], 64, "frobnicate"),
        (["add", "180", "--date", "0001-01-01"], 65, "'0001-01-01' is before 1900"),
        (["goal", "150", "--date", "1800-01-01"], 65, "'1800-01-01' is before 1900"),
        // Intake amounts and dates.
        (["drink", "abc"], 65, "'abc'"), (["drink", "-5"], 65, "'-5'"), (["drink", "0"], 65, "'0'"),
        (["drink", "99999"], 65, "'99999'"), (["drink", "abc", "--beverage"], 65, "'abc'"),
        (["drink", "250", "--date", "1899-01-01"], 65, "'1899-01-01' is before 1900"),
        (["drink", "250", "--date", "2999-01-01"], 65, "future"), (["eat", "dinner"], 65, "'dinner'"),
        (["eat", "meal", "--calories", "10001"], 65, "'10001'"), (["eat", "meal", "--calories", "-5"], 65, "'-5'"),
        (["eat", "snack", "--date", "1899-12-31"], 65, "'1899-12-31' is before 1900"),
        // Config keys and values.
        (["config", "unit", "stone"], 65, "'stone'"), (["config", "nosuch.key", "1"], 65, "'nosuch.key'"),
        (["config", "summary.hour", "25"], 65, "'25'"),
        (["config", "summary.hour", "99999999999999999999"], 65, "'99999999999999999999'"),
        (["config", "summary.day", "funday"], 65, "'funday'"),
        (["config", "reminders.weigh_in_time", "25:61"], 65, "'25:61'"),
        (["config", "reminders.streak_days", "61"], 65, "'61'"),
        (["config", "notifications.enabled", "maybe"], 65, "'maybe'"),
        // Ids and the values of an edit.
        (["edit", "999", "--weight", "180"], 65, "999"), (["edit", "abc", "--weight", "180"], 64, "'abc'"),
        (["edit", "99999999999999999999999", "--note", "x"], 64, "'99999999999999999999999'"),
        (["edit", "1", "--weight", "2000"], 65, "'2000'"), (["edit", "1", "--body-fat", "99"], 65, "'99'"),
        (["rm", "999"], 65, "999"), (["rm", "abc"], 64, "'abc'"),
        // Limits and import and export flags.
        (["log", "--limit", "abc"], 64, "'abc'"), (["chart", "--days", "0"], 64, "not 0"),
        (["import", "/nonexistent.csv"], 66, "'/nonexistent.csv'"),
        (["import", "/nonexistent.csv", "--format", "nosuch"], 64, "'nosuch'"),
        (["import", "/nonexistent.csv", "--unit", "stone"], 64, "'stone'"),
        (["import", "/nonexistent.csv", "--format", "generic", "--date-format", "QQ/ZZ"], 64, "'QQ/ZZ'"),
        (["export", "--format", "xml"], 64, "'xml'"),
    ]

    // Bad input: one line on stderr naming the value, a non-zero exit, nothing written.
    @Test(arguments: rows)
    func rejected(arguments: [String], status: Int32, fragment: String) throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        let before = try w8.sqlite(".dump")
        let result = try w8.run(arguments)
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("w8: "))
        #expect(result.stderr.contains(fragment), "\(result.stderr)")
        let log = try #require(try w8.json("log") as? [[String: Any]])
        #expect(log.count == 1)
        #expect(log.first?["date"] as? String == "2026-11-01T00:00:00+01:00")  // `edit` changed nothing either
        #expect(try object(try w8.json("goal"))["goal_weight"] is NSNull)
        #expect(try w8.sqlite(".dump") == before)
        #expect(!FileManager.default.fileExists(atPath: w8.configPath))
    }

    @Test func malformedConfigNamesTheFileAndLine() throws {
        let w8 = try W8Sandbox()
        try FileManager.default.createDirectory(
            atPath: (w8.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "unit = \"kg\"\n[summary]\nhour = \"nine\n".write(toFile: w8.configPath, atomically: true, encoding: .utf8)
        for args in [["add", "80"], ["status"], ["config"], ["config", "unit", "lb"]] {
            let result = try w8.run(args)
            #expect(result.status == 78)
            #expect(result.stderr == "w8: \(w8.configPath): line 3: string \"nine is not closed\n")
        }
        #expect(!FileManager.default.fileExists(atPath: w8.databasePath))
    }

    @Test func newerDatabaseIsRefusedAndLeftAlone() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180")
        _ = try w8.sqlite("INSERT INTO grdb_migrations VALUES ('v99'); PRAGMA wal_checkpoint(TRUNCATE);")
        let before = try Data(contentsOf: URL(fileURLWithPath: w8.databasePath))
        let result = try w8.run("add", "179")
        #expect(result.status == 65)
        #expect(result.stderr.contains("newer version of w8"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: w8.databasePath)) == before)
    }
}

@Suite(.ownThread) struct CLISafetyTests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func databaseIsPrivate() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180")
        #expect(try mode(w8.databasePath) == 0o600)
        #expect(try mode((w8.databasePath as NSString).deletingLastPathComponent) == 0o700)
    }

    // Two writers in parallel lose nothing and never report "database is locked".
    @Test func concurrentWritersLoseNothing() throws {
        let w8 = try W8Sandbox()
        try w8.run("goal", "150")
        let perWriter = 30
        let errors = LockedList()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for i in 0..<perWriter {
                do {
                    let result = try w8.run("add", String(170 + writer * 10 + i % 10), "--note", "w\(writer)-\(i)")
                    if result.status != 0 { errors.append(result.stderr) }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.items.isEmpty, "\(errors.items)")
        let log = try #require(try w8.json("log") as? [[String: Any]])
        #expect(log.count == 2 * perWriter)
        #expect(Set(log.compactMap { $0["note"] as? String }).count == 2 * perWriter)
    }

    // Many processes creating and migrating the same new database at once all succeed.
    @Test func simultaneousFirstRuns() throws {
        let w8 = try W8Sandbox()
        let processes = try (0..<8).map { i in try w8.start(["add", String(170 + i)]) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: 8))
        #expect(try #require(try w8.json("log") as? [[String: Any]]).count == 8)
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var _items: [String] = []
    func append(_ item: String) { lock.withLock { _items.append(item) } }
    var items: [String] { lock.withLock { _items } }
}
