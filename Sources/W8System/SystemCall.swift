import Foundation
import SystemPackage
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The one layer of W8Trackr that calls POSIX file functions directly, as swift-system's `Syscalls.swift` is:
// every failure becomes a `SystemCallError` that names the call, the path and the errno. What swift-system wraps
// (`FileDescriptor`, `FilePath`) is called through it; what it does not (`mkstemp`, `fsync`, `fchmod`, `rename`)
// is called directly.

/// An `errno` value, read as a person reads it (`strerror(3)`).
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno` right now.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The same errno as swift-system's.
    public init(_ errno: SystemPackage.Errno) {
        self.init(rawValue: errno.rawValue)
    }

    /// `strerror(3)`: "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let exists = Errno(rawValue: EEXIST)
}

/// A C call that failed: which call, on which file, and why.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The C function, such as `open` or `inotify_add_watch`.
    public let call: String
    public let path: String?
    public let errno: Errno

    public init(_ call: String, path: String? = nil, errno: Errno = .current) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// What went wrong, for a message that already names the file: "Permission denied".
    public var reason: String { errno.description }

    /// "open('/data/w8.sqlite') failed: Permission denied (errno 13)".
    public var description: String {
        guard let path else {
            // TRANSLATORS: {call} is a C function ("open"); {reason} is the system's (strerror: "Permission denied").
            return tr(
                "{call} failed: {reason} (errno {errno})", ["call": call, "reason": reason, "errno": errno.rawValue])
        }
        return tr(
            // TRANSLATORS: {call} is a C function ("open"), {path} a file; {reason} is the system's ("Permission denied").
            "{call}('{path}') failed: {reason} (errno {errno})",
            ["call": call, "path": path, "reason": reason, "errno": errno.rawValue])
    }

    public var errorDescription: String? { description }
}

/// Runs `body`, a C call that returns -1 and sets `errno` on failure, again for as long as it fails with EINTR.
/// Returns the result, which is -1 for any other failure, with `errno` still set.
@inlinable
public func retryingOnInterrupt<Result: SignedInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// Runs `body` like `retryingOnInterrupt`, and throws a `SystemCallError` naming `call` and `path` for a failure.
@inlinable
public func systemCall<Result: SignedInteger>(
    _ call: String, path: String? = nil, _ body: () -> Result
) throws(SystemCallError) -> Result {
    let result = retryingOnInterrupt(body)
    guard result != -1 else { throw SystemCallError(call, path: path) }
    return result
}

/// Runs `body`, a swift-system call (which retries after EINTR itself), and throws its `Errno` as a
/// `SystemCallError` naming `call` and `path`.
@discardableResult
public func swiftSystemCall<Result>(
    _ call: String, path: String? = nil, _ body: () throws -> Result
) throws(SystemCallError) -> Result {
    do {
        return try body()
    } catch let error as SystemPackage.Errno {
        throw SystemCallError(call, path: path, errno: Errno(error))
    } catch {
        preconditionFailure("swift-system threw \(error), not an Errno")
    }
}

/// Writes every byte to `descriptor` (`write(2)`, again after EINTR and short writes).
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String? = nil) throws(SystemCallError)
{
    guard var next = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
        let written = try systemCall("write", path: path) { write(descriptor, next, remaining) }
        next += written
        remaining -= written
    }
}
