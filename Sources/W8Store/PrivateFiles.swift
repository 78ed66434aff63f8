import Foundation
import W8System
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that hold personal health data: directories 0700 and files 0600, whatever the umask.
enum PrivateFiles {
    static func ensureDirectory(_ path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw StoreError.cannotCreate(path: parent, reason: error.localizedDescription)
            }
        }
        var info = stat()
        do throws(SystemCallError) {
            do throws(SystemCallError) {
                _ = try systemCall("mkdir", path: path) { mkdir(path, 0o700) }
            } catch {
                guard error.errno == .exists else { throw error }
            }
            _ = try systemCall("lstat", path: path) { lstat(path, &info) }
            // A linked data directory (on another disk, say) is followed, but it is not ours to chmod.
            if info.st_mode & S_IFMT == S_IFLNK {
                _ = try systemCall("stat", path: path) { stat(path, &info) }
            } else if info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() {
                // An existing directory may be wider: take the group's and others' bits away. Never add the
                // owner's: a directory the person made read-only stays so, and the write fails with a message.
                // A directory of another user is theirs to keep as it is.
                try narrow(path, to: 0o700)
            }
        } catch {
            throw StoreError.cannotCreate(path: path, reason: error.reason + owner(of: path, after: error.errno))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw StoreError.notRegular(path: path, kind: .notDirectory) }
    }

    /// Creates `path` 0600 if it does not exist, and narrows it and its -wal and -shm files to 0600 if they do.
    /// Call before SQLite opens it. Each is opened with O_NOFOLLOW and changed through that descriptor (`fchmod`):
    /// a symlink, a device or a directory there is refused, never followed and never changed.
    static func ensureFile(_ path: String) throws {
        try refuseUnlessRegular(path)
        let fd = try created("open", path) {
            open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        }
        defer { close(fd) }
        try narrow(fd, path)
        for file in [path + "-wal", path + "-shm"] {
            try refuseUnlessRegular(file)
            let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd != -1 else { continue }
            defer { close(fd) }
            try narrow(fd, file)
        }
    }

    /// Throws `StoreError.notRegular` when `path` exists and is a symlink or anything but a regular file (`lstat`).
    static func refuseUnlessRegular(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: throw StoreError.notRegular(path: path, kind: .symlink)
        default: throw StoreError.notRegular(path: path, kind: .notRegular)
        }
    }

    /// Narrows the file open as `fd` to 0600 (`fchmod`), when it is a regular file of the user running w8.
    private static func narrow(_ fd: Int32, _ path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFREG else { throw StoreError.notRegular(path: path, kind: .notRegular) }
        let mode = info.st_mode & 0o7777
        guard info.st_uid == geteuid(), mode & ~0o600 != 0 else { return }
        _ = try created("fchmod", path) { fchmod(fd, mode & 0o600) }
    }

    /// Whether `path` exists with no permission bit outside `mask`: what `narrow(_:to:)` would leave as it is.
    /// A symlink (`lstat`) is never private: `open(at:)` refuses it.
    static func isPrivate(_ path: String, mask: mode_t, following: Bool = false) -> Bool {
        var info = stat()
        let found = following ? stat(path, &info) : lstat(path, &info)
        return found == 0 && info.st_mode & S_IFMT != S_IFLNK && info.st_mode & 0o7777 & ~mask == 0
    }

    /// Clears the permission bits of the directory `path` that `mask` does not have; sets none.
    static func narrow(_ path: String, to mask: mode_t) throws(SystemCallError) {
        var info = stat()
        _ = try systemCall("stat", path: path) { stat(path, &info) }
        let mode = info.st_mode & 0o7777
        guard mode & ~mask != 0 else { return }
        _ = try systemCall("chmod", path: path) { chmod(path, mode & mask) }
    }

    /// Holds an exclusive `flock` on `path` while `body` runs, so that two processes never create or migrate
    /// the database at the same time.
    static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try refuseUnlessRegular(path)
        let fd = try created("open", path) { open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        defer { close(fd) }
        _ = try created("flock", path) { flock(fd, LOCK_EX) }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// The result of `call` on `path`; its failure is a `cannotCreate` error naming the path.
    private static func created(_ name: String, _ path: String, _ call: () -> Int32) throws -> Int32 {
        do throws(SystemCallError) {
            return try systemCall(name, path: path, call)
        } catch {
            throw StoreError.cannotCreate(path: path, reason: error.reason + owner(of: path, after: error.errno))
        }
    }

    /// ", and it belongs to root" when a permission error comes from a file or directory of another user.
    static func owner(of path: String, after errno: Errno) -> String {
        guard errno.rawValue == EACCES || errno.rawValue == EPERM else { return "" }
        var candidate = path
        var info = stat()
        while !candidate.isEmpty, stat(candidate, &info) != 0 {
            candidate = (candidate as NSString).deletingLastPathComponent
        }
        guard !candidate.isEmpty, info.st_uid != geteuid() else {
            guard !candidate.isEmpty else { return "" }
            let mode = String(info.st_mode & 0o777, radix: 8)
            // TRANSLATORS: after why a file cannot be written: {path} is a directory, {mode} its octal mode ("555").
            return " " + tr("({path} has mode {mode})", ["path": candidate, "mode": mode])
        }
        let name = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        // TRANSLATORS: after why a file cannot be written: {path} is a file or directory, {user} a user name ("root").
        return "; " + tr("{path} belongs to {user}, not to the user running w8", ["path": candidate, "user": name])
    }
}
