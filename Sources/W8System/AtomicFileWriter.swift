import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that is replaced whole or not at all: bytes go into a `mkstemp(3)` file beside the target (mode 0600,
/// created with O_EXCL, so health data is never readable by others), which `commit()` gives its final mode with
/// `fchmod(2)`, flushes with `fsync(2)` and renames over the target. Until then the target is as it was; a writer
/// dropped before `commit()` removes its temporary file. `path` must not be a symlink: `OutputFile` resolves one.
public final class AtomicFileWriter {
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private let descriptor: Int32
    private let mode: mode_t
    private var finished = false

    /// Creates the temporary file beside `path`; the file will have `mode` (0600 unless it replaces a file whose mode
    /// the caller keeps) and, when `owner` is given and w8 may, that owner and group (`fchown(2)`).
    public init(replacing path: String, mode: mode_t = 0o600, owner: (uid_t, gid_t)? = nil) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        descriptor = try systemCall("mkstemp", path: path) {
            template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        self.path = path
        self.mode = mode
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Only root may give a file away; for anyone else this fails and the file is theirs, as a new one would be.
        if let (uid, gid) = owner, uid != geteuid() || gid != getegid() { _ = fchown(descriptor, uid, gid) }
    }

    deinit {
        if !finished {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try writeAll(descriptor, bytes, path: path)
    }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: [UInt8]) throws(SystemCallError) {
        let descriptor = descriptor
        let path = path
        var failure: SystemCallError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) {
                try writeAll(descriptor, buffer, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Syncs the temporary file and renames it over the target. After a failure the target is untouched and the
    /// temporary file is gone.
    public func commit() throws(SystemCallError) {
        precondition(!finished, "AtomicFileWriter committed twice")
        finished = true
        var open = true
        do throws(SystemCallError) {
            // mkstemp gives 0600 already; fchmod keeps it so whatever the file system's defaults.
            _ = try systemCall("fchmod", path: temporaryPath) { fchmod(descriptor, mode) }
            _ = try systemCall("fsync", path: temporaryPath) { fsync(descriptor) }
            // close is not retried: after EINTR the descriptor is already gone on Linux.
            open = false
            if close(descriptor) != 0 { throw SystemCallError("close", path: temporaryPath) }
            _ = try systemCall("rename", path: path) { rename(temporaryPath, path) }
        } catch {
            if open { close(descriptor) }
            unlink(temporaryPath)
            throw error
        }
    }
}
