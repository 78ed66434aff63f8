import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text written in chunks to standard output, or to a file that appears whole or not at all: a temporary file
/// (mode 0600, from `mkstemp`) beside it is flushed with `fsync` and renamed over it by `commit()`.
public final class TextOutput {
    private let fd: Int32
    /// The file asked for and the temporary file being written, or nil for standard output.
    private let target: (path: String, temporary: String)?
    /// The error for a failure, from its reason (`strerror`).
    private let failure: (String) -> AppError
    private var buffer: [UInt8] = []
    private var committed = false
    static let chunk = 64 * 1024

    public static func standardOutput() -> TextOutput {
        TextOutput(fd: STDOUT_FILENO, target: nil) { .cannotWrite("cannot write to standard output: \($0)") }
    }

    /// Starts writing `path`; it is replaced only when `commit()` succeeds. Failures are `cannotWrite` errors
    /// naming the path, unless `failure` makes them something else.
    public static func replacing(_ path: String, failure: ((String) -> AppError)? = nil) throws -> TextOutput {
        let failure = failure ?? { .cannotWrite("cannot write '\(path)': \($0)") }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return TextOutput(fd: fd, target: (path, temporary), failure: failure)
    }

    private init(fd: Int32, target: (path: String, temporary: String)?, failure: @escaping (String) -> AppError) {
        self.fd = fd
        self.target = target
        self.failure = failure
    }

    deinit {
        if let target, !committed {
            close(fd)
            unlink(target.temporary)
        }
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= TextOutput.chunk { try flush() }
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw lastError() }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered; a file is synced and renamed into place.
    public func commit() throws {
        try flush()
        guard let target else { return }
        guard fsync(fd) == 0 else { throw lastError() }
        close(fd)
        committed = true
        guard rename(target.temporary, target.path) == 0 else {
            let error = lastError()
            unlink(target.temporary)
            throw error
        }
    }

    private func lastError() -> AppError { failure(String(cString: strerror(errno))) }
}

/// The bytes of a file or of standard input (`-`), a chunk at a time.
public final class InputFile {
    public let name: String
    private let fd: Int32

    /// Opens `path`, or standard input for `-`.
    public init(_ path: String) throws {
        if path == "-" {
            (name, fd) = ("standard input", STDIN_FILENO)
            return
        }
        name = path
        var info = stat()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AppError.cannotRead("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw AppError.cannotRead("cannot read '\(path)': it is a directory")
        }
        self.fd = fd
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    /// The next chunk; empty at the end.
    public func read(upTo count: Int = 64 * 1024) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw AppError.cannotRead("cannot read '\(name)': \(String(cString: strerror(errno)))") }
            bytes.removeLast(count - n)
            return bytes
        }
    }
}
