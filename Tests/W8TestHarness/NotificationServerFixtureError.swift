import Foundation

/// Why a notification-server fixture could not be set up. Tests that hit this fail; they never skip.
public enum NotificationServerFixtureError: Error, CustomStringConvertible {
    case missingExecutable(String, debianPackage: String)
    case missingUser(String)
    case didNotStart(String, log: String)
    case commandFailed(String, status: Int32, stderr: String)
    case timedOut(String)
    case unreadableOutput(String, output: String)

    public var description: String {
        switch self {
        case .missingExecutable(let name, let package):
            "\(name) is not installed; install it with: apt-get install \(package)"
        case .missingUser(let name):
            "the tests run as root, and sway, mako and waybar need an unprivileged user '\(name)', which does not "
                + "exist; run scripts/install-deps as root (it creates it) or: useradd -m \(name)"
        case .didNotStart(let what, let log):
            "\(what) did not start. Its log:\n\(log)"
        case .commandFailed(let command, let status, let stderr):
            "\(command) exited with status \(status): \(stderr)"
        case .timedOut(let what):
            "timed out waiting for \(what)"
        case .unreadableOutput(let command, let output):
            "could not read the output of \(command): \(output.prefix(500))"
        }
    }
}

/// The absolute path of `name` on `PATH` (or /usr/bin, /bin), or a `missingExecutable` error naming its package.
func requireExecutable(_ name: String, debianPackage: String) throws -> String {
    if name.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: name) { return name }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"] {
        let candidate = directory + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw NotificationServerFixtureError.missingExecutable(name, debianPackage: debianPackage)
}
