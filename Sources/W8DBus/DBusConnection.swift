#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a conversation with the bus failed.
public enum DBusConnectionError: Error, Sendable, Equatable {
    /// No socket of the address could be connected to: nothing was sent. The call that failed and its errno.
    case unreachable(call: String, errno: Int32)
    /// The bus did not accept our credentials (`REJECTED`, `ERROR`, or it hung up during the handshake): nothing
    /// sent after the handshake reached anyone.
    case authenticationRejected(String)
    /// No answer within the deadline.
    case timedOut
    /// The bus closed the connection, or a write to it failed, after the calls were sent.
    case closed(String)
    /// What the bus sent was not D-Bus.
    case malformed(String)
}

/// One client connection to a message bus over a Unix socket, used for a few calls and closed.
///
/// The handshake is pipelined as sd-bus does it: the credentials byte, `AUTH EXTERNAL <uid>`, `BEGIN`, `Hello`
/// and the first calls go out in one write, and the bus's `OK` is read with the first reply. A bus that refuses
/// reads none of the calls as messages.
///
/// Underneath: `socket(2)`, `connect(2)`, `send(2)` with `MSG_NOSIGNAL`, `poll(2)` and `recv(2)`.
public final class DBusConnection {
    private let descriptor: Int32
    private var output: [UInt8]
    private var input: [UInt8] = []
    private var inputStart = 0
    private var handshakeDone = false
    private var nextSerial: UInt32 = 1

    /// Connects to the first of `sockets` that accepts, and queues the handshake and `Hello` (sent with the first
    /// call that waits).
    public init(sockets: [UnixSocketAddress]) throws(DBusConnectionError) {
        var lastFailure = DBusConnectionError.unreachable(call: "connect", errno: ENOENT)
        var connected: Int32?
        for socket in sockets {
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw .unreachable(call: "socket", errno: errno) }
            if Self.connect(descriptor, to: socket) {
                connected = descriptor
                break
            }
            lastFailure = .unreachable(call: "connect", errno: errno)
            close(descriptor)
        }
        guard let connected else { throw lastFailure }
        descriptor = connected
        // EXTERNAL: the identity is our user id in decimal, written as hex of its ASCII digits.
        let uid = Array(String(geteuid()).utf8).map { hex($0 >> 4) + hex($0 & 0xF) }.joined()
        output = [0] + Array("AUTH EXTERNAL \(uid)\r\nBEGIN\r\n".utf8)
        queue(.hello)
    }

    deinit { close(descriptor) }

    private static func connect(_ descriptor: Int32, to socket: UnixSocketAddress) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let (name, leadingNUL): (String, Bool) =
            switch socket {
            case .path(let path): (path, false)
            case .abstract(let name): (name, true)
            }
        let bytes = Array(name.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let used = bytes.count + 1  // the abstract name's leading NUL, or a path's trailing one
        guard used <= capacity else {
            errno = ENAMETOOLONG
            return false
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
            if leadingNUL {
                path.copyBytes(from: [0] + bytes)
            }
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + (leadingNUL ? used : bytes.count + 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                retrying { Glibc.connect(descriptor, address, socklen_t(length)) } == 0
            }
        }
    }

    /// Queues `call` and returns its serial; it is sent with the next `reply(to:deadline:)`.
    @discardableResult
    public func queue(_ call: DBusMethodCall) -> UInt32 {
        let serial = nextSerial
        nextSerial += 1
        output += call.encoded(serial: serial)
        return serial
    }

    /// Sends what is queued (at first the handshake and `Hello`) without waiting for any answer: the bus works on
    /// it while the caller does something else, and `reply(to:deadline:)` reads what came back.
    public func send() throws(DBusConnectionError) {
        try flush()
    }

    /// Sends what is queued and reads until the answer to `serial` arrives: its return, or its error as a message
    /// of type `.error`. Signals and other replies are skipped. `deadline` is `DBusConnection.now()`-based.
    public func reply(to serial: UInt32, deadline: Int64) throws(DBusConnectionError) -> DBusMessage {
        try flush()
        while true {
            if !handshakeDone {
                guard let line = try nextLine() else {
                    try receive(deadline: deadline, duringHandshake: true)
                    continue
                }
                guard line.hasPrefix("OK ") else { throw .authenticationRejected(line) }
                handshakeDone = true
            }
            if let message = try nextMessage() {
                if message.replySerial == serial, message.type == .methodReturn || message.type == .error {
                    return message
                }
                continue
            }
            try receive(deadline: deadline, duringHandshake: false)
        }
    }

    /// Monotonic nanoseconds, the clock of deadlines.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    private func flush() throws(DBusConnectionError) {
        var sent = 0
        while sent < output.count {
            let result = output.withUnsafeBytes { bytes in
                retrying { Glibc.send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            guard result > 0 else {
                throw handshakeDone ? .closed(Self.describe(errno)) : .authenticationRejected(Self.describe(errno))
            }
            sent += result
        }
        output.removeAll(keepingCapacity: true)
    }

    private func receive(deadline: Int64, duringHandshake: Bool) throws(DBusConnectionError) {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { throw .timedOut }
            let ready = poll(&descriptor, 1, Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max))))
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { throw .closed(Self.describe(errno)) }
        }
        if inputStart > 0 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        let count = input.count
        input += repeatElement(0, count: 65536)
        let received = input.withUnsafeMutableBytes { bytes in
            retrying { recv(self.descriptor, bytes.baseAddress! + count, 65536, 0) }
        }
        input.removeLast(65536 - max(received, 0))
        guard received > 0 else {
            let reason = received == 0 ? "the bus closed the connection" : Self.describe(errno)
            throw duringHandshake ? .authenticationRejected(reason) : .closed(reason)
        }
    }

    /// The next handshake line without its CRLF, if a whole one is in.
    private func nextLine() throws(DBusConnectionError) -> String? {
        let pending = input[inputStart...]
        guard let end = pending.firstIndex(of: UInt8(ascii: "\n")) else {
            if pending.count > 16384 { throw .malformed("handshake line too long") }
            return nil
        }
        inputStart = end + 1
        var line = pending[..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// The next message, if a whole one is in.
    private func nextMessage() throws(DBusConnectionError) -> DBusMessage? {
        do {
            let pending = input[inputStart...]
            guard let length = try DBusMessage.length(startOf: pending), pending.count >= length else { return nil }
            inputStart += length
            return try DBusMessage(bytes: Array(pending.prefix(length)))
        } catch {
            throw .malformed(error.detail)
        }
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

private func hex(_ nibble: UInt8) -> String {
    String(Character(Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)))
}

/// `body` again for as long as it fails with EINTR.
private func retrying<Result: SignedInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
