import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small file read whole, but never more than `limit` bytes: a settings file that is a symlink to
/// `/dev/zero`, or megabytes of garbage, must give an error at once rather than fill memory or hang.
public enum BoundedFileContents: Equatable, Sendable {
    /// The file does not exist.
    case missing
    case bytes([UInt8])
    /// The file has more than the limit; `prefix` is its first `limit` bytes.
    case tooLarge(prefix: [UInt8])
}

/// Reads `path` (`open(2)` with O_NONBLOCK, so a FIFO does not block, then `read(2)`) up to `limit` bytes.
public func readFile(_ path: String, limit: Int) throws(SystemCallError) -> BoundedFileContents {
    let descriptor: Int32
    do throws(SystemCallError) {
        descriptor = try systemCall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    } catch {
        if error.errno == Errno(rawValue: ENOENT) { return .missing }
        throw error
    }
    defer { close(descriptor) }
    // The buffer grows as the file fills it, up to one byte past the limit: a few lines need one page, not the
    // limit's megabyte of zeroed memory (256 page faults, 6 % of a `w8 add` that reads config.toml).
    var bytes = [UInt8](repeating: 0, count: min(4096, limit + 1))
    var count = 0
    while count <= limit {
        if count == bytes.count { bytes += repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)) }
        let (offset, room) = (count, bytes.count - count)
        let n = retryingOnInterrupt {
            bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + offset, room) }
        }
        if n == -1 { throw SystemCallError("read", path: path) }
        if n == 0 { break }
        count += n
    }
    if count > limit { return .tooLarge(prefix: Array(bytes[..<limit])) }
    return .bytes(Array(bytes[..<count]))
}
