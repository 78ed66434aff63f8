import Foundation
import W8Text

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
            // TRANSLATORS: errors of posting a notification, printed after "w8: " and in `w8 doctor`; {detail} is
            // D-Bus's or GLib's, in English. Keep DBUS_SESSION_BUS_ADDRESS as written.
            tr(
                "no D-Bus session bus ({detail}); run w8 inside a desktop session or set DBUS_SESSION_BUS_ADDRESS",
                ["detail": detail])
        case .noNotificationServer(let detail):
            // TRANSLATORS: {detail} is D-Bus's, in English; dunst and mako are programs.
            tr(
                "no notification server installed ({detail}); install one, such as dunst or mako, or start your desktop's",
                ["detail": detail])
        case .serverFailedToStart(let failure):
            failure.description
        case .serverError(let detail):
            // TRANSLATORS: {detail} is the server's or libnotify's, in English.
            tr("the notification server refused the notification: {detail}", ["detail": detail])
        case .timedOut(let seconds):
            // The seconds to one decimal at most, "2.5", in the locale's way ("2,5" in German).
            tr(
                // TRANSLATORS: {seconds} is a number of seconds, "25" or "2.5".
                "the notification server did not answer within {seconds} s; it may be hung, try restarting it",
                [
                    "seconds": Localization.localDecimal(
                        seconds.formatted(
                            .number.precision(.fractionLength(0...1)).locale(Locale(identifier: "en_US_POSIX"))))
                ])
        case .libraryUnavailable(let detail):
            // TRANSLATORS: {detail} is the dynamic loader's, in English.
            tr("libnotify cannot be loaded: {detail}", ["detail": detail])
        }
    }

    /// This error as seen from the bus at `address` (`$DBUS_SESSION_BUS_ADDRESS`, passed in): with no address,
    /// a missing bus is explained by it.
    func onBus(_ address: String?) -> LibnotifyError {
        guard case .noSessionBus = self, address == nil else { return self }
        // TRANSLATORS: inside "no D-Bus session bus (...)"; keep DBUS_SESSION_BUS_ADDRESS as written.
        return .noSessionBus(tr("DBUS_SESSION_BUS_ADDRESS is unset"))
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
        guard names.count > 1 else { return last }
        // TRANSLATORS: between the names of notification servers but the last two: "mako, dunst or xfce4-notifyd".
        let separator = tr(", ")
        // TRANSLATORS: notification servers, one of which failed to start: {list} is "mako" or "mako, dunst", {last}
        // "xfce4-notifyd".
        return tr("{list} or {last}", ["list": names.dropLast().joined(separator: separator), "last": last])
    }

    public var description: String {
        let hint: String
        if services.count > 1 {
            // TRANSLATORS: after why a notification server failed to start: what to do next.
            hint = tr("run the one your desktop uses in a terminal to see why")
        } else if throughSystemd, let unit = services.first?.systemdUnit {
            // TRANSLATORS: {unit} is a systemd unit; keep the command as written.
            hint = tr("see 'systemctl --user status {unit}'", ["unit": unit])
        } else if throughSystemd {
            hint = tr("see 'journalctl --user -e'")
        } else if let program = services.first?.executable {
            // TRANSLATORS: {program} is the notification server's program; keep the quotes.
            hint = tr("run '{program}' in a terminal to see why", ["program": program])
        } else {
            hint = tr("see the session bus's log")
        }
        guard let name = serverName else {
            // TRANSLATORS: {detail} is D-Bus's, in English; {hint} says what to do ("see 'journalctl --user -e'").
            return tr("the notification server failed to start ({detail}); {hint}", ["detail": detail, "hint": hint])
        }
        // TRANSLATORS: {name} names the server or servers ("dunst", "mako or dunst"); {detail} is D-Bus's, in
        // English; {hint} says what to do.
        return tr(
            "the notification server ({name}) failed to start ({detail}); {hint}",
            ["name": name, "detail": detail, "hint": hint])
    }
}
