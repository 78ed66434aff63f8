import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the person named for w8 to write (`export -o`, `chart --output`, config.toml), written as a Unix tool
/// would, without ever replacing what is not a plain file:
/// - a regular file, or a name that does not exist yet, is replaced whole or not at all (`AtomicFileWriter`). A
///   symlink is followed to its target, and the temporary file goes beside the target, so the link stays a link.
///   A replaced file keeps its mode (and, for root, its owner); a new one is 0600.
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout` on a pipe, `/dev/full`) is written in place, opened
///   without O_CREAT or O_TRUNC; a regular file reached through `/proc` (`/dev/stdout` redirected to a file) is
///   appended to, as the shell's `>` or `>>` left it.
/// - a directory is refused with EISDIR.
public final class OutputFile {
    /// The path as the person gave it.
    public let path: String
    private enum Destination {
        case replacing(AtomicFileWriter)
        case inPlace(Int32)
    }
    private let destination: Destination
    private var finished = false

    /// Opens `path` for writing (`open(2)` O_WRONLY|O_NOCTTY, then `fstat(2)`): see the type for what each kind of
    /// file gets.
    public init(_ path: String) throws(SystemCallError) {
        self.path = path
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        guard descriptor != -1 else {
            let error = SystemCallError("open", path: path)
            guard error.errno.rawValue == ENOENT else { throw error }
            // Nothing there yet, or a link to nothing yet: create the file the link names.
            destination = .replacing(try AtomicFileWriter(replacing: try OutputFile.resolve(path).target))
            return
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            destination = .inPlace(descriptor)
            return
        }
        let resolved: (target: String, throughProc: Bool)
        do throws(SystemCallError) { resolved = try OutputFile.resolve(path) } catch {
            close(descriptor)
            throw error
        }
        if resolved.throughProc {
            lseek(descriptor, 0, SEEK_END)
            destination = .inPlace(descriptor)
            return
        }
        close(descriptor)
        destination = .replacing(
            try AtomicFileWriter(
                replacing: resolved.target, mode: info.st_mode & 0o777, owner: (info.st_uid, info.st_gid)))
    }

    deinit {
        if !finished, case .inPlace(let descriptor) = destination { close(descriptor) }
    }

    /// Whether the bytes go straight to the file (a device, a FIFO) rather than to a temporary file.
    public var writesInPlace: Bool {
        if case .inPlace = destination { true } else { false }
    }

    /// Writes `bytes` (`write(2)`).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        switch destination {
        case .replacing(let writer): try writer.write(bytes)
        case .inPlace(let descriptor): try writeAll(descriptor, bytes, path: path)
        }
    }

    /// Writes `bytes` (`write(2)`).
    public func write(_ bytes: [UInt8]) throws(SystemCallError) {
        var failure: SystemCallError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Puts a replaced file in place (`AtomicFileWriter.commit()`), or closes a file written in place.
    public func commit() throws(SystemCallError) {
        precondition(!finished, "OutputFile committed twice")
        finished = true
        switch destination {
        case .replacing(let writer): try writer.commit()
        case .inPlace(let descriptor):
            if close(descriptor) != 0 { throw SystemCallError("close", path: path) }
        }
    }

    /// The file that `path` names once every symlink in its last component is followed (`lstat(2)`,
    /// `readlink(2)`), whether or not it exists; and whether a link led into `/proc` (`/dev/stdout`, whose target
    /// is a descriptor, not a file to replace). Relative link text is read from the link's directory.
    public static func resolve(_ path: String) throws(SystemCallError) -> (target: String, throughProc: Bool) {
        var current = path
        var throughProc = false
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return (current, throughProc) }
                throw SystemCallError("lstat", path: current)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return (current, throughProc) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, Int(PATH_MAX))
            guard count >= 0 else { throw SystemCallError("readlink", path: current) }
            let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("/") {
                current = text
            } else {
                let slash = current.lastIndex(of: "/")
                current = (slash.map { String(current[...$0]) } ?? "") + text
            }
            if current.hasPrefix("/proc/") { throughProc = true }
        }
        throw SystemCallError("readlink", path: path, errno: Errno(rawValue: ELOOP))
    }
}
