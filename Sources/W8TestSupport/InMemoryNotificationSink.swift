import Foundation
import W8Core

/// A `NotificationSink` that keeps what it is given, for domain tests only (real notifications go to dunst).
public final class InMemoryNotificationSink: NotificationSink, @unchecked Sendable {
    private let lock = NSLock()
    private var _posted: [DesktopNotification] = []
    private var _closed: [UInt32] = []
    private var nextID: UInt32 = 1
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
            defer { nextID += 1 }
            return nextID
        }
    }

    public func close(id: UInt32) throws {
        lock.withLock { _closed.append(id) }
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
