import Foundation

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
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        // mkdir's mode is filtered by the umask, and an existing directory may be wider: set it exactly.
        if chmod(path, 0o700) != 0 {
            throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Creates `path` 0600 if it does not exist, and narrows it to 0600 if it does. Call before SQLite opens it.
    static func ensureFile(_ path: String) throws {
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            _ = chmod(file, 0o600)
        }
    }

    /// Holds an exclusive `flock` on `path` while `body` runs, so that two processes never create or migrate
    /// the database at the same time.
    static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
