import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The whole-file check (`PRAGMA quick_check`) kept off the hot path (issue 26; bench row "w8 add: 100,000 entries
/// / 10 entries"). The check reads every page: 55 ms at 100,000 entries, where the add itself takes 7.
///
/// A w8 that found the file sound and then wrote to it leaves it sound: SQLite wrote those pages. So after such a
/// command closes its database, it records what the database and its WAL look like then (device, inode, size and
/// modification time, by `lstat`) in a stamp beside them, `w8trackr.sqlite.checked` (0600), with the time of the
/// check. The next changing command skips the check when the stamp still describes both files and the check is
/// less than a day old. Anything else runs it first, as before:
/// - the file was changed by something other than a w8 that checked it (`sqlite3`, a copy, a restore, a disk
///   error that wrote bytes), or by a w8 that was killed before it closed: the files no longer match;
/// - a day has passed since the check: damage that leaves the files' metadata alone (a failing disk) is found
///   within a day;
/// - no stamp, or one that cannot be read.
///
/// Damage that SQLite meets on the pages a command touches is reported as it happens (`SQLITE_CORRUPT`), and the
/// stamp is then removed. `w8 doctor` always runs the whole check.
struct IntegrityStamp: Equatable {
    /// When the pages were last found sound, in seconds since 1970.
    var checkedAt: Int64
    /// The database and its WAL, as `files(of:)` describes them.
    var files: String

    /// How long a check holds.
    static let maximumAge: Int64 = 86_400

    static func path(for database: String) -> String { database + ".checked" }

    /// The database and its WAL as they are now: "device:inode:size:mtime" of each, "-" for a missing WAL. Nil
    /// when the database is missing or not a regular file.
    static func files(of database: String) -> String? {
        func describe(_ path: String) -> String? {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            let nanoseconds = String(status.st_mtim.tv_nsec)
            return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec)."
                + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
        }
        guard let main = describe(database) else { return nil }
        return main + " " + (describe(database + "-wal") ?? "-")
    }

    /// The stamp beside `database`, if there is one that reads as a stamp.
    static func read(for database: String) -> IntegrityStamp? {
        guard let text = try? String(contentsOfFile: path(for: database), encoding: .utf8) else { return nil }
        var checkedAt: Int64?
        var files: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("checked ") { checkedAt = Int64(line.dropFirst(8)) }
            if line.hasPrefix("files ") { files = String(line.dropFirst(6)) }
        }
        guard let checkedAt, let files else { return nil }
        return IntegrityStamp(checkedAt: checkedAt, files: files)
    }

    /// Whether the check this stamp records still holds for `database` at `now`.
    func holds(for database: String, now: Date) -> Bool {
        let seconds = Int64(now.timeIntervalSince1970)
        return files == Self.files(of: database) && checkedAt <= seconds + 60 && seconds - checkedAt < Self.maximumAge
    }

    /// Records that `database`, as it is now, was found sound at `checkedAt`: written beside it and renamed into
    /// place, never through a link or over anything but a regular file. Not synced: a stamp lost in a crash only
    /// means one more check. Failures are ignored for the same reason.
    static func record(for database: String, checkedAt: Int64) {
        guard let files = files(of: database) else { return }
        let target = path(for: database)
        var status = stat()
        if lstat(target, &status) == 0, status.st_mode & S_IFMT != S_IFREG { return }
        let temporary = target + ".\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let text = Array("w8trackr integrity stamp\nchecked \(checkedAt)\nfiles \(files)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != text.count || rename(temporary, target) != 0 { unlink(temporary) }
    }

    /// Removes the stamp: the file was found damaged.
    static func remove(for database: String) {
        var status = stat()
        if lstat(path(for: database), &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            unlink(path(for: database))
        }
    }
}

/// The whole-file check of one `AppDatabase` value, made (or found still holding) once, before its first write.
final class IntegrityCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var passed = false
    /// When the pages were found sound; set once the check passed, cleared when SQLite then found damage.
    private var checkedAt: Int64?

    /// Runs `check` unless it passed already on this value, or `stamp` (for a file database) shows it still holds.
    func run(database: String?, _ check: () throws -> Void) throws {
        try lock.withLock {
            guard !passed else { return }
            let now = Date()
            if let database, let stamp = IntegrityStamp.read(for: database), stamp.holds(for: database, now: now) {
                checkedAt = stamp.checkedAt
            } else {
                do { try check() } catch {
                    if let database { IntegrityStamp.remove(for: database) }
                    throw error
                }
                checkedAt = Int64(now.timeIntervalSince1970)
            }
            passed = true
        }
    }

    /// Whether this value found the file sound (checked, or the stamp held) and SQLite found no damage since.
    var foundSound: Bool { lock.withLock { checkedAt != nil } }

    /// SQLite found damage after the check: no stamp is recorded, and the one there goes.
    func damageFound(database: String?) {
        lock.withLock { checkedAt = nil }
        if let database { IntegrityStamp.remove(for: database) }
    }

    /// Records the stamp once the database is closed, if this value found the file sound.
    func recordAfterClose(database: String?) {
        guard let database, let checkedAt = lock.withLock({ checkedAt }) else { return }
        IntegrityStamp.record(for: database, checkedAt: checkedAt)
    }
}
