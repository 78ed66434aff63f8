import Foundation
import W8System

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
        do throws(SystemCallError) {
            do throws(SystemCallError) {
                _ = try systemCall("mkdir", path: path) { mkdir(path, 0o700) }
            } catch {
                guard error.errno == .exists else { throw error }
            }
            // An existing directory may be wider: take the group's and others' bits away. Never add the owner's:
            // a directory the person made read-only stays so, and the write fails with a message.
            try narrow(path, to: 0o700)
        } catch {
            throw StoreError.cannotCreate(path: path, reason: error.reason + owner(of: path, after: error.errno))
        }
    }

    /// Creates `path` 0600 if it does not exist, and narrows it to 0600 if it does. Call before SQLite opens it.
    static func ensureFile(_ path: String) throws {
        let fd = try created("open", path) { open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600) }
        close(fd)
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try? narrow(file, to: 0o600)
        }
    }

    /// Whether `path` exists with no permission bit outside `mask`: what `narrow(_:to:)` would leave as it is.
    static func isPrivate(_ path: String, mask: mode_t) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & 0o7777 & ~mask == 0
    }

    /// Clears the permission bits of `path` that `mask` does not have; sets none.
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
        let fd = try created("open", path) { open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600) }
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
            return candidate.isEmpty ? "" : " (\(candidate) has mode \(String(info.st_mode & 0o777, radix: 8)))"
        }
        let name = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        return "; \(candidate) belongs to \(name), not to the user running w8"
    }
}
