import Foundation
import Glibc
import Testing
import W8TestHarness
import W8TestSupport

/// The whole-file check off the hot path (issue 26): a changing command skips `PRAGMA quick_check` while the
/// integrity stamp that the last checked w8 left beside the database still describes its files and is less than a
/// day old; anything else checks first, and a damaged file is refused.
@Suite(.ownThread) struct IntegrityStampTests {
    /// Overwrites a page in the middle of the entry table, as `CLICorruptDatabaseTests` does; with `keepTimes`,
    /// puts the file's modification time back, so that its size, inode and times are what w8 left.
    func damage(_ w8: W8Sandbox, keepTimes: Bool) throws {
        var before = stat()
        #expect(lstat(w8.databasePath, &before) == 0)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: w8.databasePath))
        try overwriteMiddlePage(handle)
        try handle.close()
        if keepTimes {
            let times = [before.st_atim, before.st_mtim]
            #expect(utimensat(AT_FDCWD, w8.databasePath, times, 0) == 0)
        }
        // Not `sqlite3 … quick_check` here: as the last connection to close, sqlite3 would checkpoint the WAL and
        // change the files. The doctor (read only) says the file is damaged.
        #expect(try w8.run("doctor").stdout.contains("Database check:               FAILED: "))
    }

    var stamp: (W8Sandbox) -> String { { $0.databasePath + ".checked" } }

    @Test func aStampSkipsTheCheckUntilTheFilesChangeOrADayPasses() throws {
        let w8 = try W8Sandbox()
        try w8.seed(2000)
        // The seed's sqlite3 changed the files: the first add checks, then records the stamp (0600).
        #expect(try w8.run("add", "182").status == 0)
        let recorded = try String(contentsOfFile: stamp(w8), encoding: .utf8)
        #expect(recorded.contains("\nchecked ") && recorded.contains("\nfiles "), "\(recorded)")
        #expect((try FileManager.default.attributesOfItem(atPath: stamp(w8))[.posixPermissions] as? Int) == 0o600)

        // Damage that leaves the files as w8 left them is not looked for: the add, which touches other pages,
        // goes ahead (this is the check the stamp saves). The doctor still reads every page and finds it (above).
        try damage(w8, keepTimes: true)
        let skipped = try w8.run("add", "181")
        #expect(skipped.status == 0, "\(skipped.stderr)")

        // A day later the stamp no longer holds: the check runs and the add is refused.
        let aged = try String(contentsOfFile: stamp(w8), encoding: .utf8).split(separator: "\n").map { line in
            line.hasPrefix("checked ") ? "checked \(Int(TestClock.now.timeIntervalSince1970) - 86_401)" : String(line)
        }
        try (aged.joined(separator: "\n") + "\n").write(toFile: stamp(w8), atomically: true, encoding: .utf8)
        expectOneLine(try w8.run("add", "180"), status: 74, containing: [w8.databasePath, "damaged"])
        // Refused for damage: the stamp is gone, and the next add checks again.
        #expect(!FileManager.default.fileExists(atPath: stamp(w8)))
        expectOneLine(try w8.run("add", "180"), status: 74, containing: ["damaged"])
    }

    /// Every command that changes the database leaves a stamp that describes it, not only `add`, `edit` and `rm`:
    /// an add after `w8 drink` or `w8 goal` skips the check. Shown the way the first test shows it: damage that
    /// keeps the files' times is not looked for while the stamp holds.
    @Test(arguments: [["drink", "250"], ["goal", "170"], ["steps", "4000"]])
    func everyChangingCommandLeavesAStamp(_ command: [String]) throws {
        let w8 = try W8Sandbox()
        try w8.seed(2000)
        #expect(try w8.run("add", "182").status == 0)
        let changed = try w8.run(command)
        #expect(changed.status == 0, "\(changed.stderr)")
        try damage(w8, keepTimes: true)
        let skipped = try w8.run("add", "181")
        #expect(skipped.status == 0, "the add after \(command[0]) checked the file: \(skipped.stderr)")
    }

    @Test func filesChangedSinceTheStampAreChecked() throws {
        let w8 = try W8Sandbox()
        try w8.seed(2000)
        #expect(try w8.run("add", "182").status == 0)
        #expect(FileManager.default.fileExists(atPath: stamp(w8)))
        // The same damage, with the time of the write: the stamp no longer describes the file.
        try damage(w8, keepTimes: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: w8.databasePath))
        expectOneLine(try w8.run("add", "181"), status: 74, containing: [w8.databasePath, "damaged"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: w8.databasePath)) == before)
    }

    @Test func aStampThatIsALinkIsNeitherFollowedNorReplaced() throws {
        let w8 = try W8Sandbox()
        #expect(try w8.run("add", "182").status == 0)
        let elsewhere = w8.root.appendingPathComponent("elsewhere").path
        try "not ours\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: stamp(w8))
        try FileManager.default.createSymbolicLink(atPath: stamp(w8), withDestinationPath: elsewhere)
        #expect(try w8.run("add", "181").status == 0)
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "not ours\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: stamp(w8)) == elsewhere)
    }
}
