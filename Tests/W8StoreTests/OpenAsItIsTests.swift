import Foundation
import Testing
import W8Core
import W8Store
import W8TestHarness
import W8TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `AppDatabase.openAsItIs`, which a changing command runs on a second thread before it has read its settings and
/// its input: it opens a database that needs nothing done to it, and otherwise leaves every file as it found it.
@Suite(.serialized) struct OpenAsItIsTests {
    /// A database as w8 leaves it: its schema checkpointed into the file, then one entry added by a command that
    /// closed without a checkpoint, so that the entry is in the WAL.
    func existing(in dir: TemporaryDirectory) throws -> String {
        let path = dir.appending("w8trackr/w8trackr.sqlite")
        try AppDatabase.open(at: path).close()
        let database = try AppDatabase.open(at: path)
        _ = try database.addEntry(WeightEntry(weight: Weight(180, .lb), date: Date()))
        try database.close(checkpoint: false)
        return path
    }

    func sqlite3(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try launch(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Everything `openAsItIs` must leave alone: the bytes and modes of the database, its WAL and its lock file,
    /// and the directory's mode. The WAL index is not in it: every connection rebuilds it. A missing WAL reads as
    /// an empty one: SQLite creates it empty to read a WAL database, as every reader does.
    func files(_ path: String) -> [String] {
        func mode(_ file: String) -> String {
            var info = stat()
            return stat(file, &info) == 0 ? String(info.st_mode & 0o7777, radix: 8) : "absent"
        }
        let directory = (path as NSString).deletingLastPathComponent
        return [directory, path, path + "-wal", path + ".lock"].map { file in
            let bytes = FileManager.default.contents(atPath: file)
            if file.hasSuffix("-wal") { return "wal \((bytes ?? Data()).hashValue)" }
            return "\(file) \(mode(file)) \(bytes.map { "\($0.count) \($0.hashValue)" } ?? "")"
        }
    }

    @Test func opensADatabaseThatNeedsNothingDone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try existing(in: dir)
        let database = try #require(AppDatabase.openAsItIs(at: path))
        #expect(try database.entries().count == 1)
        _ = try database.addEntry(WeightEntry(weight: Weight(179, .lb), date: Date()))
        try database.close(checkpoint: false)
        #expect(try AppDatabase.open(at: path).entries().map(\.weight.value) == [179, 180])
    }

    /// What `open(at:)` would have to do first, under its lock: create, narrow, migrate, or refuse.
    enum Obstacle: String, CaseIterable, Sendable {
        case noDatabase, noLockFile, wideDirectory, wideDatabase, wideWAL, olderSchema, newerSchema, damagedPages
    }

    @Test(arguments: Obstacle.allCases)
    func leavesEveryFileAsItFindsIt(_ obstacle: Obstacle) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try existing(in: dir)
        let directory = (path as NSString).deletingLastPathComponent
        switch obstacle {
        case .noDatabase:
            for file in [path, path + "-wal", path + "-shm", path + ".lock"] {
                try FileManager.default.removeItem(atPath: file)
            }
        case .noLockFile: try FileManager.default.removeItem(atPath: path + ".lock")
        case .wideDirectory: chmod(directory, 0o755)
        case .wideDatabase: chmod(path, 0o644)
        case .wideWAL: chmod(path + "-wal", 0o644)
        case .olderSchema:
            _ = try sqlite3(path, "DELETE FROM grdb_migrations WHERE rowid = (SELECT max(rowid) FROM grdb_migrations)")
        case .newerSchema: _ = try sqlite3(path, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')")
        case .damagedPages:
            // A page of the file that the entry in the WAL did not touch: the intake log's table.
            let page = try #require(
                Int(
                    try sqlite3(
                        "file:\(path)?immutable=1", "SELECT rootpage FROM sqlite_master WHERE name = 'intake_event'")))
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.seek(toOffset: UInt64((page - 1) * 4096))
            handle.write(Data(repeating: 0xA5, count: 64))
            try handle.close()
        }
        let before = files(path)
        #expect(AppDatabase.openAsItIs(at: path) == nil)
        #expect(files(path) == before)
        if obstacle == .damagedPages {
            // The entry is still in the WAL, not checkpointed into the damaged file.
            #expect(
                (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0 > 0
            )
        }
    }
}
