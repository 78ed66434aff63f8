import Foundation
import Testing
import W8TestHarness
import W8TestSupport

/// The recipe `w8 doctor` prints for a damaged database works as printed (issue 26): run word for word, it saves
/// every readable entry, moves the file aside and restores them.
@Suite(.ownThread) struct CLISalvageRecipeTests {
    /// Writes the same 3000 bytes every run over the page `page` (1-based) of the database file.
    func damage(_ w8: W8Sandbox, page: Int) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: w8.databasePath))
        defer { try? handle.close() }
        var random = SeededRandom(seed: 17)
        try handle.seek(toOffset: UInt64(4096 * (page - 1) + 100))
        handle.write(Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &random) }))
    }

    /// A leaf page of `table`, from SQLite's dbstat.
    func leafPage(_ w8: W8Sandbox, _ table: String, index: Int) throws -> Int {
        let pages = try w8.sqlite(
            "SELECT pageno FROM dbstat WHERE name = '\(table)' AND pagetype = 'leaf' ORDER BY pageno")
        return try #require(Int(pages.split(separator: "\n")[index]))
    }

    @Test func theDoctorsRecipeSavesEveryReadableEntryOfTwoDamagedPages() throws {
        // Given 2000 weigh-ins and 300 drinks, a page of each table damaged
        let w8 = try W8Sandbox()
        try w8.seed(2000)
        _ = try w8.sqlite(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO intake_event (kind, date, volume_ml, calories, note, created_at)
            SELECT 'water', '2025-01-01 10:00:00.000', 250, 0, 'drink ' || i || ' and some words', '2025-01-01 10:00:00.000'
            FROM n;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        let entryPage = try leafPage(w8, "entry", index: 10)
        try damage(w8, page: entryPage)
        try damage(w8, page: try leafPage(w8, "intake_event", index: 1))
        let csv = try w8.run("export")
        #expect(csv.status == 0, "\(csv.stderr)")
        let readable = csv.stdout.split(separator: "\n").count - 1
        #expect(readable > 1800 && readable < 2000, "\(readable) readable")

        // When the doctor's recipe is run as it prints it
        let doctor = try w8.run("doctor")
        let lines = doctor.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let first = try #require(lines.firstIndex { $0.hasPrefix("then restore: ") })
        let recipe = String(lines[first].dropFirst("then restore: ".count)) + " " + lines[first + 1]
        #expect(recipe.hasPrefix("w8 export --format json --output ~/w8-salvage.json && mv "), "\(recipe)")
        let bin = URL(fileURLWithPath: w8.executable).deletingLastPathComponent().path
        let path = bin + ":" + (w8.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try W8Sandbox.running(w8, through: ["sh", "-c", recipe], environment: ["PATH": path])

        // Then it succeeds, and the new database holds every entry the export could read
        #expect(run.status == 0, "\(run.stderr)")
        let backup = try object(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: w8.root.appendingPathComponent("w8-salvage.json"))))
        #expect((backup["entries"] as? [Any])?.count == readable)
        #expect(try w8.run("export").stdout.split(separator: "\n").count - 1 == readable)
        #expect(!(try w8.run("doctor").stdout.contains("FAILED")))
        #expect(FileManager.default.fileExists(atPath: w8.root.appendingPathComponent("w8-damaged.sqlite").path))
    }
}
