import Foundation

/// A stand-in for systemd-logind on a private system bus (`Tests/Support/logind_standin.py`): the machine's logind
/// cannot run inside the suite, so this speaks exactly the documented `org.freedesktop.login1` calls, properties and
/// signals that w8 reads (`GetUser`, the user's `Display`, the session's `LockedHint` with `PropertiesChanged` on
/// the session's own path, and `PrepareForSleep`), and lets a test lock, unlock, suspend and resume.
public final class LogindStandIn: @unchecked Sendable {
    private let script: HarnessScript
    /// `DBUS_SYSTEM_BUS_ADDRESS` for a client.
    public let address: String

    /// On a system bus of its own, or on `bus` (a desktop harness's private system bus).
    public init(bus: String? = nil) throws {
        script = try HarnessScript(
            "logind_standin.py", name: "logind stand-in", prefix: "w8-li", arguments: bus.map { ["--bus", $0] } ?? [],
            deadline: 60)
        address = script.ready["address"] as? String ?? ""
    }

    public func lock() throws { try script.command(["cmd": "lock"]) }
    public func unlock() throws { try script.command(["cmd": "unlock"]) }
    /// `PrepareForSleep(true)`: the machine is about to suspend.
    public func suspend() throws { try script.command(["cmd": "sleep"]) }
    /// `PrepareForSleep(false)`: it has resumed.
    public func resume() throws { try script.command(["cmd": "wake"]) }

    public func stop() { script.stop() }
}
