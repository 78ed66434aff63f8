import Foundation
import Testing
import W8TestHarness

/// The data directory on a read-only file system (issue 26): commands that read work, a change fails with one
/// line and exit 73, and `w8 doctor` says what is wrong. As root (CI), the directory is a read-only bind mount in a
/// private mount namespace (`unshare -m`), since root writes through mode 0555; as anyone else it is mode 0555.
@Suite(.ownThread) struct ReadOnlyDataTests {
    /// Runs `w8 arguments` with the data directory read only.
    static func readOnly(_ w8: W8Sandbox, _ arguments: [String]) throws -> W8Run {
        let directory = (w8.databasePath as NSString).deletingLastPathComponent
        if runningAsRoot {
            return try W8Sandbox.running(
                w8,
                through: [
                    "unshare", "-m", "--propagation", "private", "sh", "-c",
                    "mount --bind \"$0\" \"$0\" && mount -o remount,ro,bind \"$0\" \"$0\" && exec \"$@\"",
                    directory, w8.executable,
                ] + arguments)
        }
        chmod(directory, 0o555)
        defer { chmod(directory, 0o700) }
        return try w8.run(arguments)
    }

    /// A sandbox with two weights; `keepWAL` false closes the database with the sqlite3 shell, which removes the
    /// -wal and -shm files that w8 itself keeps.
    static func sandbox(keepWAL: Bool) throws -> W8Sandbox {
        let w8 = try W8Sandbox()
        for weight in ["181", "180.5"] { #expect(try w8.run("add", weight, "--note", "n\(weight)").status == 0) }
        if !keepWAL {
            let close = try W8Sandbox.running(w8, through: ["sqlite3", w8.databasePath, "PRAGMA user_version;"])
            #expect(close.status == 0, "\(close.stderr)")
            #expect(!FileManager.default.fileExists(atPath: w8.databasePath + "-shm"))
        }
        return w8
    }

    @Test("status, log, export and widget read a read-only data directory", arguments: [true, false])
    func readsWork(keepWAL: Bool) throws {
        let w8 = try Self.sandbox(keepWAL: keepWAL)

        for arguments in [["status"], ["log"], ["export"], ["widget"], ["log", "--json"]] {
            let run = try Self.readOnly(w8, arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
        let log = try Self.readOnly(w8, ["log"])
        #expect(log.stdout.contains("n181") && log.stdout.contains("n180.5"), "\(log.stdout)")
    }

    @Test("a change to a read-only data directory fails with one line and exit 73; nothing is written")
    func changeFails() throws {
        let w8 = try Self.sandbox(keepWAL: true)

        let run = try Self.readOnly(w8, ["add", "179"])

        #expect(run.status == 73)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(w8.databasePath) && run.stderr.contains("read-only"), "\(run.stderr)")
        #expect(try w8.run("log").stdout.split(separator: "\n").count == 2)
    }

    @Test("w8 doctor reports a read-only data directory")
    func doctorReports() throws {
        let w8 = try Self.sandbox(keepWAL: true)

        let run = try Self.readOnly(w8, ["doctor"])

        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("Data directory check:") }
        #expect(line?.contains("FAILED: cannot be written") == true, "\(run.stdout)")
        let json = try #require(try Self.readOnly(w8, ["doctor", "--json"]).json() as? [String: Any])
        #expect((json["data_directory_problem"] as? String)?.hasPrefix("cannot be written") == true)
    }
}
