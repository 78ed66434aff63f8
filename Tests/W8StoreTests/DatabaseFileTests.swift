import Foundation
import Testing
import W8Core
import W8Store
import W8TestHarness
import W8TestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized) struct DatabaseFileTests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    // Health data stays private whatever the umask.
    @Test func directoryAndFileArePrivateUnderAWideUmask() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let old = umask(0o022)
        defer { umask(old) }
        let path = dir.appending("share/w8trackr/w8trackr.sqlite")
        let db = try AppDatabase.open(at: path)
        _ = try db.addEntry(WeightEntry(weight: Weight(180, .lb), date: Date()))
        #expect(try mode(dir.appending("share/w8trackr")) == 0o700)
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + "-wal") == 0o600)
    }

    @Test func anExistingWideDirectoryIsNarrowed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(
            atPath: dir.appending("w8trackr"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755]
        )
        _ = try AppDatabase.open(at: dir.appending("w8trackr/w8trackr.sqlite"))
        #expect(try mode(dir.appending("w8trackr")) == 0o700)
    }

    // A database written by a newer schema is refused and left byte for byte as it was.
    @Test func newerSchemaIsRefusedAndUntouched() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("w8trackr/w8trackr.sqlite")
        _ = try AppDatabase.open(at: path)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [
            path, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future'); PRAGMA wal_checkpoint(TRUNCATE);",
        ]
        try launch(sqlite)
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.newerSchema(path: path)) { try AppDatabase.open(at: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    // Closing leaves the WAL and its index for the next process (so that reading works on a full disk), the WAL
    // empty: the database file alone holds every entry, so a copy of it is a whole backup.
    @Test func afterCloseTheDatabaseFileAloneHoldsTheData() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("w8trackr/w8trackr.sqlite")
        for weight in [180.0, 179.5, 179.0] {
            _ = try AppDatabase.open(at: path).addEntry(
                WeightEntry(weight: Weight(weight, .lb), date: Date()))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        #expect((attributes[.size] as? NSNumber)?.intValue == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        let copy = dir.appending("copy/w8trackr.sqlite")
        try FileManager.default.createDirectory(
            atPath: dir.appending("copy"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try AppDatabase.open(at: copy).entries().map(\.weight.value) == [179.0, 179.5, 180.0])
    }

    // A changing command closes without the checkpoint (`Runtime.closeDatabases`): its commit stays in the WAL,
    // where the next connection reads it, and the next close that checkpoints empties the WAL into the file.
    @Test func closingWithoutCheckpointLeavesTheCommitInTheWAL() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("w8trackr/w8trackr.sqlite")
        let walSize = {
            (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue
        }
        _ = try AppDatabase.open(at: path).addEntry(WeightEntry(weight: Weight(180, .lb), date: Date()))
        #expect(try walSize() == 0)

        let adding = try AppDatabase.open(at: path)
        _ = try adding.addEntry(WeightEntry(weight: Weight(179, .lb), date: Date()))
        try adding.close(checkpoint: false)

        #expect(try walSize() ?? 0 > 0)
        let reading = try AppDatabase.open(at: path)
        #expect(try reading.entries().map(\.weight.value) == [179, 180])
        try reading.close()
        #expect(try walSize() == 0)
    }

    @Test func reopeningKeepsTheData() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("w8trackr/w8trackr.sqlite")
        _ = try AppDatabase.open(at: path).addEntry(
            WeightEntry(weight: Weight(82.5, .kg), date: Date(), note: "a"))
        let entries = try AppDatabase.open(at: path).entries()
        #expect(entries.count == 1)
        #expect(entries.first?.weight == Weight(82.5, .kg))
        #expect(entries.first?.note == "a")
    }

    @Test func notificationIDsAreKeptForOtherProcesses() throws {
        let db = try TemporaryDatabase()
        defer { db.directory.remove() }
        try db.database.setNotificationID(42, forKey: "reminder.weigh-in", at: Date())
        #expect(try db.database.notificationID(forKey: "reminder.weigh-in") == 42)
        try db.database.setNotificationID(nil, forKey: "reminder.weigh-in", at: Date())
        #expect(try db.database.notificationID(forKey: "reminder.weigh-in") == nil)
    }
}
