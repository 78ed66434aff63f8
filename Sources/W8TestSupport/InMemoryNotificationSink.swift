import Foundation
import W8Core

/// A `NotificationSink` that keeps what it is given, for domain tests only (real notifications go to dunst).
public final class InMemoryNotificationSink: NotificationSink, @unchecked Sendable {
    private let lock = NSLock()
    private var _posted: [DesktopNotification] = []
    private var _closed: [UInt32] = []
    private var nextID: UInt32 = 1
    /// The id of the latest `replacesOpen` notification of each key, until the server closes it.
    private var open: [String: UInt32] = [:]
    private var handler: (@Sendable (NotificationActionPress) -> Void)?
    /// When set, every post fails with this error, like a desktop with no notification server.
    public var failure: (any Error)?

    public init(failure: (any Error)? = nil) { self.failure = failure }

    public var posted: [DesktopNotification] { lock.withLock { _posted } }
    public var closed: [UInt32] { lock.withLock { _closed } }

    public func post(_ notification: DesktopNotification) throws -> UInt32 {
        try lock.withLock {
            if let failure { throw failure }
            _posted.append(notification)
            if let id = notification.replacesID { return id }
            if notification.replacesOpen, let id = open[notification.key] { return id }
            defer { nextID += 1 }
            if notification.replacesOpen { open[notification.key] = nextID }
            return nextID
        }
    }

    public func close(id: UInt32) throws {
        lock.withLock {
            _closed.append(id)
            open = open.filter { $0.value != id }
        }
    }

    /// The server closes the notification `id` by itself (it expired, or the person dismissed it).
    public func serverClosed(id: UInt32) {
        lock.withLock { open = open.filter { $0.value != id } }
    }

    public func onAction(_ handler: @escaping @Sendable (NotificationActionPress) -> Void) {
        lock.withLock { self.handler = handler }
    }

    /// Presses the button `actionID` on the notification with server id `id`, as a person would on a desktop.
    public func press(_ actionID: String, onKey key: String, id: UInt32) {
        let handler = lock.withLock { self.handler }
        handler?(NotificationActionPress(notificationID: id, key: key, actionID: actionID))
    }
}
