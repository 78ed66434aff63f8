import Foundation
import Testing
import W8TestHarness
import W8TestSupport

/// When a command's close moves the WAL into the database file (`Runtime.closeOpenDatabases`): only once the WAL
/// holds more than 256 KiB. A smaller one stays, committed and durable, for the next command to read; a larger one
/// would cost every process that opens the database first a read of all of it.
@Suite(.ownThread) struct CheckpointTests {
    func walBytes(_ w8: W8Sandbox) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: w8.databasePath + "-wal"))?[.size] as? NSNumber)?
            .intValue ?? 0
    }

    @Test func aCommandLeavesASmallWALAndMovesALargeOne() throws {
        let w8 = try W8Sandbox()
        // The database made (its migrations alone are about 250 KB of WAL), and folded into the file.
        #expect(try w8.run("add", "182").status == 0)
        _ = try w8.sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try w8.run("add", "182.5").status == 0)
        let small = walBytes(w8)
        #expect(small > 0 && small <= 64 * 1024, "\(small) bytes after one add")
        #expect(try w8.run("status").status == 0)
        #expect(walBytes(w8) == small, "a WAL of \(small) bytes stays as it was")

        // 4,000 weigh-ins in one import: more than 256 KiB of WAL, fewer than SQLite's own 1,000 pages.
        let file = w8.root.appendingPathComponent("many.csv")
        try weighInsCSV(4000).write(to: file, atomically: true, encoding: .utf8)
        let imported = try w8.run("import", file.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(walBytes(w8) == 0, "the import's own close moved it")
        #expect(try w8.run("add", "181").status == 0)
        #expect(walBytes(w8) > 0)
        // What the adds and the import committed is in the file once the WAL is gone: sqlite3 reads it alone.
        _ = try w8.sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try w8.sqlite("SELECT count(*) FROM entry").trimmingCharacters(in: .whitespacesAndNewlines) == "4003")
    }
}
