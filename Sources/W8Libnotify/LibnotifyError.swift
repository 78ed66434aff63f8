import Foundation

/// Why a desktop notification could not be shown or closed.
public enum LibnotifyError: Error, LocalizedError, Equatable, Sendable {
    /// There is no D-Bus session bus to reach a notification server through.
    case noSessionBus(String)
    /// Nothing on the session bus provides notifications: no server runs, and none is installed for D-Bus to start.
    case noNotificationServer(String)
    /// A notification server is installed, but it exited or crashed when D-Bus started it.
    case serverFailedToStart(ServerStartFailure)
    /// The notification server answered with an error.
    case serverError(String)
    /// The notification server did not answer in time, now or on an earlier call that is still waiting.
    case timedOut(seconds: Double)
    /// libnotify (libnotify.so.4, or GLib under it) cannot be loaded: the dynamic loader's reason, on one line.
    case libraryUnavailable(String)

    public var errorDescription: String? {
        switch self {
        case .noSessionBus(let detail):
            "no D-Bus session bus (\(detail)); run w8 inside a desktop session or set DBUS_SESSION_BUS_ADDRESS"
        case .noNotificationServer(let detail):
            "no notification server installed (\(detail)); install one, such as dunst or mako, or start your desktop's"
        case .serverFailedToStart(let failure):
            failure.description
        case .serverError(let detail):
            "the notification server refused the notification: \(detail)"
        case .timedOut(let seconds):
            // In English whatever LANG says, as every message of w8: "2.5 s", never "2,5 s".
            "the notification server did not answer within "
                + "\(seconds.formatted(.number.precision(.fractionLength(0...1)).locale(Locale(identifier: "en_US_POSIX")))) s; "
                + "it may be hung, try restarting it"
        case .libraryUnavailable(let detail):
            "libnotify cannot be loaded: \(detail)"
        }
    }

    /// This error as seen from the bus at `address` (`$DBUS_SESSION_BUS_ADDRESS`, passed in): with no address,
    /// a missing bus is explained by it.
    func onBus(_ address: String?) -> LibnotifyError {
        guard case .noSessionBus = self, address == nil else { return self }
        return .noSessionBus("DBUS_SESSION_BUS_ADDRESS is unset")
    }

    /// How `w8 doctor` names this failure in its report and its JSON.
    public var doctorStatus: String {
        switch self {
        case .noSessionBus: "no_session_bus"
        case .noNotificationServer: "not_installed"
        case .serverFailedToStart: "failed_to_start"
        case .serverError: "server_error"
        case .timedOut: "timed_out"
        case .libraryUnavailable: "libnotify_unavailable"
        }
    }

    /// The server that died as D-Bus started it, when this is `serverFailedToStart`.
    public var startFailure: ServerStartFailure? {
        if case .serverFailedToStart(let failure) = self { failure } else { nil }
    }

    /// This error with the installed servers that D-Bus may have tried to start, when it is `serverFailedToStart`.
    func namingServers(from serviceDirectories: [String]) -> LibnotifyError {
        guard case .serverFailedToStart(var failure) = self, failure.services.isEmpty else { return self }
        failure.services = NotificationService.providers(in: serviceDirectories)
        return .serverFailedToStart(failure)
    }
}

/// A notification server that D-Bus started and that died before it took the bus name.
public struct ServerStartFailure: Sendable, Equatable, CustomStringConvertible {
    /// The servers installed for D-Bus to start (`NotificationService.providers`); empty when none was found.
    public var services: [NotificationService]
    /// What the bus said, such as "Process org.freedesktop.Notifications received signal 5".
    public var detail: String
    /// Whether the bus asked systemd to start it (dbus-broker, or dbus-daemon with systemd activation).
    public var throughSystemd: Bool

    public init(services: [NotificationService] = [], detail: String, throughSystemd: Bool) {
        self.services = services
        self.detail = detail
        self.throughSystemd = throughSystemd
    }

    /// "dunst", "mako or dunst", "mako, dunst or xfce4-notifyd", or nil when no service file was found.
    public var serverName: String? {
        let names = services.map(\.name)
        guard let last = names.last else { return nil }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    public var description: String {
        let named = serverName.map { " (\($0))" } ?? ""
        let hint: String
        if services.count > 1 {
            hint = "run the one your desktop uses in a terminal to see why"
        } else if throughSystemd {
            hint =
                services.first?.systemdUnit.map { "see 'systemctl --user status \($0)'" }
                ?? "see 'journalctl --user -e'"
        } else {
            hint =
                services.first.map { "run '\($0.executable)' in a terminal to see why" } ?? "see the session bus's log"
        }
        return "the notification server\(named) failed to start (\(detail)); \(hint)"
    }
}
