import Foundation
import GRDB
import W8System
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database in a directory w8 cannot write (a read-only mount, a 0555 directory): opened read only, with no lock
/// file, nothing created, narrowed or migrated, so that `status`, `log` and `export` still work; a write fails
/// with SQLITE_READONLY, which `StoreError` words as "read-only".
///
/// SQLite 3.40 (measured on a read-only bind mount) opens a WAL database read only when its -wal and -shm files are
/// there, as w8 keeps them; without them `mode=ro` fails ("unable to open database file"). A database with no -wal
/// file, or an empty one, holds every commit in the file itself, so it is opened `immutable=1`: SQLite then reads
/// the file without the -shm and without locks.
enum ReadOnlyDatabase {
    /// Whether the directory of `path` cannot be written (`access(2)` W_OK fails with EROFS or EACCES) while the
    /// database file is there: `AppDatabase.open(at:)` then opens it read only.
    static func applies(to path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) != 0, errno == EROFS || errno == EACCES else {
            return false
        }
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Why `directory` cannot be written, for `w8 doctor`; nil when it can, or does not exist yet.
    static func problem(directory: String) -> String? {
        guard access(directory, F_OK) == 0, access(directory, W_OK) != 0 else { return nil }
        let reason = Errno.current
        // TRANSLATORS: in `w8 doctor`, after the data directory's path; {reason} is the system's ("Permission denied").
        return tr(
            "cannot be written ({reason}): w8 can show and export the data but not record anything", ["reason": reason])
    }

    /// A read-only connection to `path`, after the same refusals as `open(at:)` (a symlink or a device there).
    static func connect(_ path: String) throws -> DatabaseQueue {
        for file in [path, path + "-wal", path + "-shm"] { try PrivateFiles.refuseUnlessRegular(file) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        var wal = stat()
        let hasWAL = lstat(path + "-wal", &wal) == 0
        let hasIndex = access(path + "-shm", F_OK) == 0
        // With both, SQLite reads the WAL through its index; a WAL with commits but no index cannot be read
        // consistently, and SQLite's own error says so.
        if hasWAL && hasIndex || hasWAL && wal.st_size > 0 {
            return try DatabaseQueue(path: path, configuration: configuration)
        }
        return try DatabaseQueue(path: immutableURI(path), configuration: configuration)
    }

    /// `file:PATH?immutable=1`, with the characters a URI gives a meaning to escaped (SQLite is built with
    /// SQLITE_USE_URI on Debian, so a `file:` name is read as a URI).
    static func immutableURI(_ path: String) -> String {
        let escapes: [Unicode.Scalar: String] = ["%": "%25", "?": "%3F", "#": "%23"]
        return "file:" + path.unicodeScalars.map { escapes[$0] ?? String($0) }.joined() + "?immutable=1"
    }
}

extension AppDatabase {
    /// Why the data directory cannot be written (a read-only mount), for `w8 doctor`; nil when it can.
    public static func directoryProblem(at directory: String) -> String? {
        ReadOnlyDatabase.problem(directory: directory)
    }
}
