import Foundation
import W8Core
import W8Store
import W8TestSupport

/// What the scheduled-event suites run on: a temporary database, removed with the suite's instance, the in-memory
/// sink and a Berlin calendar. Swift Testing makes one instance per test.
class SchedulingSuite: @unchecked Sendable {
    let calendar = PinnedCalendar.berlin
    let store: TemporaryDatabase
    let sink = InMemoryNotificationSink()

    init() throws {
        store = try TemporaryDatabase()
    }

    deinit {
        store.directory.remove()
    }
}
