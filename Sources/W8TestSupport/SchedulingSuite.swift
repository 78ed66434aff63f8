import Foundation
import W8Core
import W8Store

/// What the scheduled-event suites run on: a temporary database, removed with the suite's instance, the in-memory
/// sink and a Berlin calendar. Swift Testing makes one instance per test.
open class SchedulingSuite: @unchecked Sendable {
    public let calendar = PinnedCalendar.berlin
    public let store: TemporaryDatabase
    public let sink = InMemoryNotificationSink()

    public init() throws {
        store = try TemporaryDatabase()
    }

    deinit {
        store.directory.remove()
    }
}
