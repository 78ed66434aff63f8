import Foundation

/// Why a desktop notification could not be shown or closed.
public enum LibnotifyError: Error, LocalizedError, Equatable, Sendable {
    /// There is no D-Bus session bus to reach a notification server through.
    case noSessionBus(String)
    /// The session bus has no notification server on it, and none could be started.
    case noNotificationServer(String)
    /// The notification server answered with an error.
    case serverError(String)
    /// The notification server did not answer in time, now or on an earlier call that is still waiting.
    case timedOut(seconds: Double)

    public var errorDescription: String? {
        switch self {
        case .noSessionBus(let detail):
            "no D-Bus session bus (\(detail)); run w8 inside a desktop session or set DBUS_SESSION_BUS_ADDRESS"
        case .noNotificationServer(let detail):
            "no notification server on the D-Bus session bus (\(detail)); start one, such as dunst or your desktop's"
        case .serverError(let detail):
            "the notification server refused the notification: \(detail)"
        case .timedOut(let seconds):
            "the notification server did not answer within \(seconds.formatted(.number.precision(.fractionLength(0...1)))) s; "
                + "it may be hung, try restarting it"
        }
    }
}
