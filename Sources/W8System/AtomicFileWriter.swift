import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that is replaced whole or not at all: bytes go into a `mkstemp(3)` file beside the target (mode 0600,
/// created with O_EXCL, so health data is never readable by others), which `commit()` flushes with `fsync(2)` and
/// renames over the target. Until then the target is as it was; a writer dropped before `commit()` removes its
/// temporary file.
public final class AtomicFileWriter {
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private let descriptor: Int32
    private var finished = false

    /// Creates the temporary file beside `path`.
    public init(replacing path: String) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        descriptor = try systemCall("mkstemp", path: path) {
            template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        self.path = path
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
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
            _ = try systemCall("fchmod", path: temporaryPath) { fchmod(descriptor, 0o600) }
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
