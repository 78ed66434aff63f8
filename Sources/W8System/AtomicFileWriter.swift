import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that is replaced whole or not at all, and stays replaced after a crash: bytes go into a `mkstemp(3)` file
/// beside the target (mode 0600, created with O_EXCL, so health data is never readable by others), which `commit()`
/// gives its final mode with `fchmod(2)`, flushes with `fsync(2)`, renames over the target with `rename(2)`, and then
/// makes the rename durable with an `fsync(2)` of the directory. Until then the target is as it was; a writer
/// dropped before `commit()` removes its temporary file. `path` must not be a symlink: `OutputFile` resolves one.
public final class AtomicFileWriter {
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private let descriptor: FileDescriptor
    private let mode: FilePermissions
    private var finished = false

    /// Creates the temporary file beside `path`; the file will have `mode` (0600 unless it replaces a file whose mode
    /// the caller keeps) and, when `owner` is given and w8 may, that owner and group (`fchown(2)`).
    public init(replacing path: String, mode: mode_t = 0o600, owner: (uid_t, gid_t)? = nil) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        descriptor = FileDescriptor(
            rawValue: try systemCall("mkstemp", path: path) {
                template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            })
        self.path = path
        self.mode = FilePermissions(rawValue: mode)
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Only root may give a file away; for anyone else this fails and the file is theirs, as a new one would be.
        if let (uid, gid) = owner, uid != geteuid() || gid != getegid() { _ = fchown(descriptor.rawValue, uid, gid) }
    }

    deinit {
        if !finished {
            try? descriptor.close()
            unlink(temporaryPath)
        }
    }

    /// Appends `bytes` to the temporary file (`write(2)`, again after EINTR and short writes).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        let descriptor = descriptor
        try swiftSystemCall("write", path: path) { try descriptor.writeAll(bytes) }
    }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: [UInt8]) throws(SystemCallError) {
        let descriptor = descriptor
        try swiftSystemCall("write", path: path) { try descriptor.writeAll(bytes) }
    }

    /// Syncs the temporary file, renames it over the target and syncs the directory. After a failure before the
    /// rename the target is untouched and the temporary file is gone; after one in the directory's sync the new
    /// file is in place, but a crash may still bring the old one back.
    public func commit() throws(SystemCallError) {
        precondition(!finished, "AtomicFileWriter committed twice")
        finished = true
        var open = true
        let descriptor = descriptor
        do throws(SystemCallError) {
            // mkstemp gives 0600 already; fchmod keeps it so whatever the file system's defaults.
            _ = try systemCall("fchmod", path: temporaryPath) { fchmod(descriptor.rawValue, mode.rawValue) }
            _ = try systemCall("fsync", path: temporaryPath) { fsync(descriptor.rawValue) }
            // close is not retried (swift-system's close does not): after EINTR the descriptor is gone on Linux.
            open = false
            try swiftSystemCall("close", path: temporaryPath) { try descriptor.close() }
            _ = try systemCall("rename", path: path) { rename(temporaryPath, path) }
        } catch {
            if open { try? descriptor.close() }
            unlink(temporaryPath)
            throw error
        }
        try syncDirectory()
    }

    /// `fsync(2)` of the directory that holds the target: the rename is an entry in it, and until the directory is
    /// on disk a crash can bring the old file back. Directories that cannot be opened for reading (mode 0300) or
    /// whose file system cannot sync one (EINVAL) are left as they are, as SQLite leaves them.
    private func syncDirectory() throws(SystemCallError) {
        let directory = FilePath(temporaryPath).removingLastComponent()
        let name = directory.isEmpty ? "." : directory.string
        let opened: FileDescriptor
        do throws(SystemCallError) {
            opened = try swiftSystemCall("open", path: name) {
                try FileDescriptor.open(FilePath(name), .readOnly, options: [.directory, .closeOnExec])
            }
        } catch  where error.errno == Errno(rawValue: EACCES) {
            return
        }
        defer { try? opened.close() }
        do throws(SystemCallError) {
            _ = try systemCall("fsync", path: name) { fsync(opened.rawValue) }
        } catch  where error.errno == Errno(rawValue: EINVAL) {
            return
        }
    }
}
