import Foundation
import W8TestSupport

/// Who runs a session's processes: the user running the tests, or, when that is root, the unprivileged account
/// `w8test` through `runuser`. sway refuses to run as root, a session bus admits only its own user, and `w8` signals
/// only its own user's waybar, so a sway session and every client of it run as one unprivileged user.
public struct SessionUser: Sendable, Equatable, CustomStringConvertible {
    /// The account's name; nil for the user running the tests.
    public let name: String?
    public let uid: uid_t
    public let gid: gid_t

    /// The account `scripts/install-deps` creates for the tests when it runs as root.
    public static let unprivilegedName = "w8test"

    /// The user running the tests.
    public static var current: SessionUser { SessionUser(name: nil, uid: getuid(), gid: getgid()) }

    /// The user running the tests unless that is root; then `w8test`, or a `missingUser` error naming the fix.
    public static func unprivileged() throws -> SessionUser {
        guard getuid() == 0 else { return .current }
        _ = try requireExecutable("runuser", debianPackage: "util-linux")
        guard let entry = getpwnam(unprivilegedName) else {
            throw NotificationServerFixtureError.missingUser(unprivilegedName)
        }
        return SessionUser(name: unprivilegedName, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    public var description: String { name ?? "uid \(uid)" }

    /// The command that runs `executable` as this user with exactly `environment`: the command itself, or
    /// `runuser -u NAME -- env -i K=V… executable arguments…` (runuser alone would reset HOME and keep the rest).
    func command(_ executable: String, _ arguments: [String], environment: [String: String])
        -> (executable: String, arguments: [String], environment: [String: String])
    {
        guard let name else { return (executable, arguments, environment) }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (
            "/usr/sbin/runuser", ["-u", name, "--", "/usr/bin/env", "-i"] + assignments + [executable] + arguments,
            ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        )
    }

    /// Makes this user the owner of `url` (not recursive); nothing for the current user.
    func own(_ url: URL) throws {
        guard name != nil else { return }
        guard chown(url.path, uid, gid) == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "chown \(description) \(url.path)", status: errno, stderr: String(cString: strerror(errno)))
        }
    }

    /// A path from which this user can run the program at `path`: `path` itself for the user running the tests,
    /// else a copy inside `directory` (which this user owns). A clone under a 0700 directory, as `mktemp -d`
    /// makes, cannot be reached by another user.
    func runnable(_ path: String, in directory: URL) throws -> String {
        guard name != nil else { return path }
        let copy = directory.appendingPathComponent((path as NSString).lastPathComponent)
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            try own(copy)
        }
        return copy.path
    }

    /// Makes this user the owner of `url` and everything under it.
    public func ownRecursively(_ url: URL) throws {
        guard name != nil else { return }
        try own(url)
        guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return }
        for case let relative as String in enumerator { try own(url.appendingPathComponent(relative)) }
    }
}

extension TemporaryDirectory {
    /// A temporary directory that `user` owns, as do the subdirectories made through it.
    convenience init(prefix: String, owner user: SessionUser) throws {
        try self.init(prefix: prefix, owner: user.name == nil ? nil : (user.uid, user.gid))
    }
}
