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

/// Text written in chunks to standard output, or to a file the person named (an `OutputFile`: a regular file appears
/// whole or not at all, a device or FIFO is written in place, a symlink is written through).
public final class TextOutput {
    private enum Destination {
        case standardOutput
        case file(OutputFile)
    }

    private let destination: Destination
    /// The error for a failure, from its reason (`strerror`).
    private let failure: (SystemCallError) -> AppError
    private var buffer: [UInt8] = []
    static let chunk = 64 * 1024

    public static func standardOutput() -> TextOutput {
        TextOutput(.standardOutput) {
            // TRANSLATORS: an error; {reason} is the system's ("No space left on device").
            .writeFailed(tr("cannot write to standard output: {reason}", ["reason": $0.reason]))
        }
    }

    /// Starts writing `path`; a regular file is replaced only when `commit()` succeeds. Failures name the path:
    /// `cannotWrite` (73) when it cannot be opened or created, `writeFailed` (74) when a write fails, unless
    /// `failure` makes them something else.
    public static func replacing(_ path: String, failure: ((String) -> AppError)? = nil) throws -> TextOutput {
        let failure: (SystemCallError) -> AppError =
            if let failure {
                { failure($0.reason) }
            } else {
                { error in
                    // TRANSLATORS: an error; {path} is a file, {reason} the system's ("Permission denied").
                    let message = tr("cannot write '{path}': {reason}", ["path": path, "reason": error.reason])
                    return ["write", "fsync", "close"].contains(error.call)
                        ? .writeFailed(message) : .cannotWrite(message)
                }
            }
        do throws(SystemCallError) {
            return TextOutput(.file(try OutputFile(path)), failure: failure)
        } catch {
            throw failure(error)
        }
    }

    private init(_ destination: Destination, failure: @escaping (SystemCallError) -> AppError) {
        self.destination = destination
        self.failure = failure
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= TextOutput.chunk { try flush() }
    }

    private func flush() throws {
        do throws(SystemCallError) {
            switch destination {
            case .standardOutput:
                var failure: SystemCallError?
                buffer.withUnsafeBytes { bytes in
                    do throws(SystemCallError) { try writeAll(STDOUT_FILENO, bytes) } catch { failure = error }
                }
                if let failure { throw failure }
            case .file(let writer): try writer.write(buffer)
            }
        } catch {
            throw failure(error)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered; a replaced file is synced and renamed into place.
    public func commit() throws {
        try flush()
        guard case .file(let writer) = destination else { return }
        do throws(SystemCallError) {
            try writer.commit()
        } catch {
            throw failure(error)
        }
    }
}

/// The bytes of a file or of standard input (`-`), a chunk at a time.
public final class InputFile {
    public let name: String
    private let fd: Int32
    /// The file's size when it is a regular file, for progress and for reading a ZIP's directory.
    public private(set) var size: Int64?
    /// Bytes read so far by `read`.
    public private(set) var consumed: Int64 = 0

    /// Opens `path`, or standard input for `-`.
    public init(_ path: String) throws {
        if path == "-" {
            // TRANSLATORS: what `w8 import -` reads, named in an error: "cannot read 'standard input': ...".
            (name, fd) = (tr("standard input"), STDIN_FILENO)
            return
        }
        name = path
        var info = stat()
        let fd: Int32
        do throws(SystemCallError) {
            fd = try systemCall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            // TRANSLATORS: an error; {path} is a file, {reason} the system's ("No such file or directory").
            throw AppError.cannotRead(tr("cannot read '{path}': {reason}", ["path": path, "reason": error.reason]))
        }
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw AppError.cannotRead(tr("cannot read '{path}': it is a directory", ["path": path]))
        }
        if (info.st_mode & S_IFMT) == S_IFREG { size = Int64(info.st_size) }
        self.fd = fd
    }

    /// Whether `read(at:count:)` works: a regular file, not standard input or a pipe.
    public var isSeekable: Bool { size != nil && fd != STDIN_FILENO }

    /// Up to `count` bytes at `offset` (`pread`), leaving `read`'s position alone; fewer only at the end.
    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        do throws(SystemCallError) {
            while done < count {
                let n = try systemCall("pread", path: name) {
                    bytes.withUnsafeMutableBytes {
                        pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    }
                }
                if n == 0 { break }
                done += n
            }
        } catch {
            throw AppError.cannotRead(tr("cannot read '{path}': {reason}", ["path": name, "reason": error.reason]))
        }
        bytes.removeLast(count - done)
        return bytes
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    /// Whether this is standard input (`-`), which has no path to open a database at.
    public var isStandardInput: Bool { fd == STDIN_FILENO }

    /// The next chunk; empty at the end.
    public func read(upTo count: Int = 64 * 1024) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        do throws(SystemCallError) {
            let n = try systemCall("read", path: name) {
                bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
            }
            bytes.removeLast(count - n)
            consumed += Int64(n)
            return bytes
        } catch {
            throw AppError.cannotRead(tr("cannot read '{path}': {reason}", ["path": name, "reason": error.reason]))
        }
    }
}
