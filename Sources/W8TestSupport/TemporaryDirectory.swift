import Foundation

/// A private temporary directory (0700) under /tmp with a short name, as D-Bus socket paths must stay under 108
/// bytes: the one temporary-directory helper of the tests. `remove()` deletes it; one that is left is deleted when
/// the test process exits.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    /// Who owns it and the subdirectories made through it; nil for the user running the tests.
    public let owner: (uid: uid_t, gid: gid_t)?
    public var path: String { url.path }

    /// - Parameter owner: another user to give it to (the harness's unprivileged session user); root only.
    public init(prefix: String = "w8-test", owner: (uid: uid_t, gid: gid_t)? = nil) throws {
        url = try Self.create(prefix: prefix)
        self.owner = owner
        RemovedAtExit.shared.add(url)
        try own(url)
    }

    /// Gives `url` to `owner` (not recursive); nothing when there is none.
    private func own(_ url: URL) throws {
        guard let owner else { return }
        guard chown(url.path, owner.uid, owner.gid) == 0 else {
            let underlying = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
            throw CocoaError(
                .fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: underlying])
        }
    }

    /// Makes `/tmp/prefix-` and 8 random hex digits, drawing again while the name is taken: test runs that were
    /// killed leave theirs behind (4,000 `w8-bg-` ones on this machine), and a soak run met one of them.
    static func create(prefix: String) throws -> URL {
        while true {
            let url = URL(fileURLWithPath: "/tmp").appendingPathComponent(
                "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                return url
            } catch CocoaError.fileWriteFileExists {
                continue
            }
        }
    }

    /// The path of `component` inside it.
    public func appending(_ component: String) -> String { url.appendingPathComponent(component).path }

    /// The names inside it, sorted.
    public var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    public func subdirectory(_ name: String) throws -> URL {
        let sub = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try own(sub)
        return sub
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The temporary directories of this process, deleted when it exits: a test that forgets `remove()`, or whose
/// database outlives its scope, leaves nothing in /tmp.
final class RemovedAtExit: @unchecked Sendable {
    static let shared: RemovedAtExit = {
        atexit { RemovedAtExit.shared.removeAll() }
        return RemovedAtExit()
    }()

    private let lock = NSLock()
    private var urls: [URL] = []

    func add(_ url: URL) { lock.withLock { urls.append(url) } }

    func removeAll() {
        for url in lock.withLock({ urls }) { try? FileManager.default.removeItem(at: url) }
    }
}
