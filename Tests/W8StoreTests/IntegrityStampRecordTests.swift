import Foundation
import Testing
import W8Core
import W8Store
import W8TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `AppDatabase.recordIntegrityStamp`: a command that waits after its last write (to post a milestone) records the
/// integrity stamp then, and its close records it again only if the files changed since.
@Suite struct IntegrityStampRecordTests {
    /// The stamp's inode and its "files" line: every recording writes a new file and renames it into place.
    func stamp(_ path: String) throws -> (inode: UInt, files: String) {
        var status = stat()
        #expect(lstat(path + ".checked", &status) == 0)
        let text = try String(contentsOfFile: path + ".checked", encoding: .utf8)
        let files = text.split(separator: "\n").first { $0.hasPrefix("files ") }.map(String.init) ?? ""
        return (status.st_ino, files)
    }

    /// The database and its WAL as the stamp describes them: "device:inode:size:mtime" of each.
    func describe(_ path: String) -> String {
        func one(_ path: String) -> String {
            var status = stat()
            guard lstat(path, &status) == 0 else { return "-" }
            let nanoseconds = String(status.st_mtim.tv_nsec)
            return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec)."
                + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
        }
        return "files " + one(path) + " " + one(path + "-wal")
    }

    /// A new database with one entry written, then the stamp recorded, as a posting add leaves it before it waits.
    func writtenAndStamped(in directory: TemporaryDirectory) throws -> (String, AppDatabase) {
        let path = directory.appending("w8trackr/w8trackr.sqlite")
        let database = try AppDatabase.open(at: path)
        _ = try database.addEntry(WeightEntry(weight: Weight(180, .lb), date: Date()))
        database.recordIntegrityStamp()
        return (path, database)
    }

    @Test func aStampRecordedAfterTheLastWriteIsKeptByTheClose() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, database) = try writtenAndStamped(in: directory)
        let recorded = try stamp(path)
        #expect(recorded.files == describe(path))

        try database.close(checkpoint: false)
        let closed = try stamp(path)
        #expect(closed.inode == recorded.inode, "the close wrote the stamp again though nothing changed")
        #expect(closed.files == describe(path))
    }

    @Test func aWriteAfterTheStampMakesTheCloseRecordItAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, database) = try writtenAndStamped(in: directory)
        let recorded = try stamp(path)
        // As after a post that failed: the milestone's flag is written back.
        _ = try database.addEntry(WeightEntry(weight: Weight(179, .lb), date: Date().addingTimeInterval(60)))
        #expect(recorded.files != describe(path))

        try database.close(checkpoint: false)
        let closed = try stamp(path)
        #expect(closed.inode != recorded.inode)
        #expect(closed.files == describe(path))
    }
}
