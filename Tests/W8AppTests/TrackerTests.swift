import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// A status bar that counts how often it was told about a change.
final class CountingStatusBar: StatusBar, @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    var count: Int { lock.withLock { _count } }
    func refresh() { lock.withLock { _count += 1 } }
}

struct NoServer: Error, LocalizedError {
    var errorDescription: String? { "no notification server on the D-Bus session bus" }
}

/// Hears the tracker's `claimed` and notes how many achievements another connection reads then: the count before
/// the claiming transaction commits, if it is told inside it.
final class ClaimWitness: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var _achievementsSeen: [Int] = []
    var achievementsSeen: [Int] { lock.withLock { _achievementsSeen } }

    init(path: String) { self.path = path }

    func heard() {
        let seen = (try? AppDatabase.open(at: path).achievements().count) ?? -1
        lock.withLock { _achievementsSeen.append(seen) }
    }
}

/// The tracker ties the store, the rules and the sink together: a temporary database, the in-memory sink, Berlin.
@Suite struct TrackerTests {
    let calendar = PinnedCalendar.berlin
    let store: TemporaryDatabase
    let sink = InMemoryNotificationSink()
    let statusBar = CountingStatusBar()

    init() throws {
        store = try TemporaryDatabase()
    }

    func tracker(at now: Date, sink: InMemoryNotificationSink? = nil) -> Tracker {
        Tracker(
            database: store.database, sink: sink ?? self.sink,
            context: EvaluationContext(now: now, calendar: calendar, settings: Settings()), statusBar: statusBar)
    }

    @Test("Crossing 25% posts the milestone once and tells the status bar after every change")
    func milestoneAndStatusBar() throws {
        defer { store.directory.remove() }
        let day = calendar.date(2026, 11, 2, 7)
        _ = try tracker(at: day).add(WeightEntry(weight: Weight(200, .lb), date: day))
        _ = try tracker(at: day).setGoal(Weight(160, .lb), at: day)
        let next = calendar.date(2026, 11, 9, 7)

        let outcome = try tracker(at: next).add(WeightEntry(weight: Weight(189, .lb), date: next))

        #expect(outcome.notified == .quarter)
        #expect(outcome.warning == nil)
        #expect(sink.posted.map(\.title) == ["25% of the way to your goal!"])
        #expect(statusBar.count == 3)
        #expect(try store.database.achievements().map(\.notificationSent) == [true])
    }

    @Test("When the server is missing, the entry and milestone are kept, marked unsent, with one warning")
    func failedPostKeepsTheMilestone() throws {
        defer { store.directory.remove() }
        let failing = InMemoryNotificationSink(failure: NoServer())
        let day = calendar.date(2026, 11, 2, 7)
        _ = try tracker(at: day, sink: failing).add(WeightEntry(weight: Weight(200, .lb), date: day))
        _ = try tracker(at: day, sink: failing).setGoal(Weight(160, .lb), at: day)

        let outcome = try tracker(at: day, sink: failing).add(
            WeightEntry(weight: Weight(189, .lb), date: day.addingTimeInterval(60)))

        #expect(outcome.notified == nil)
        #expect(outcome.warning?.hasPrefix("notification not shown (no notification server") == true)
        #expect(try store.database.entryCount() == 2)
        #expect(try store.database.achievements().map(\.notificationSent) == [false])
    }

    @Test("The composition root hears of a claim inside the transaction that claims it, and only then")
    func claimedBeforeTheClaimCommits() throws {
        defer { store.directory.remove() }
        let witness = ClaimWitness(path: store.database.path)
        func tracker(at now: Date) -> Tracker {
            Tracker(
                database: store.database, sink: sink,
                context: EvaluationContext(now: now, calendar: calendar, settings: Settings()), statusBar: statusBar,
                claimed: witness.heard)
        }
        let day = calendar.date(2026, 11, 2, 7)
        _ = try tracker(at: day).add(WeightEntry(weight: Weight(200, .lb), date: day))
        _ = try tracker(at: day).setGoal(Weight(160, .lb), at: day)
        #expect(witness.achievementsSeen.isEmpty)

        // Given a goal of 160 from 200, when 189 crosses 25%, then it is heard before the commit, and posted after.
        let next = calendar.date(2026, 11, 9, 7)
        _ = try tracker(at: next).add(WeightEntry(weight: Weight(189, .lb), date: next))
        #expect(witness.achievementsSeen == [0])
        #expect(try store.database.achievements().count == 1)
        #expect(sink.posted.map(\.title) == ["25% of the way to your goal!"])

        // A change that claims nothing is not heard.
        _ = try tracker(at: next).add(WeightEntry(weight: Weight(188, .lb), date: next.addingTimeInterval(60)))
        #expect(witness.achievementsSeen == [0])

        // An import of a weight that crosses 50% claims the notification: heard once for real, never for a dry run,
        // which posts nothing.
        let later = calendar.date(2026, 11, 16, 7)
        for dryRun in [true, false] {
            _ = try tracker(at: later).importEntries(dryRun: dryRun) { importer in
                _ = try importer.add(WeightEntry(weight: Weight(179, .lb), date: later))
            }
        }
        #expect(witness.achievementsSeen == [0, 1])
    }

    @Test("Logging a weight closes the weigh-in reminder on screen, once")
    func closesTheWeighInReminder() throws {
        defer { store.directory.remove() }
        let day = calendar.date(2026, 11, 2, 7)
        try store.database.setNotificationID(42, forKey: Tracker.weighInReminderKey, at: day)

        _ = try tracker(at: day).add(WeightEntry(weight: Weight(200, .lb), date: day))
        _ = try tracker(at: day).add(WeightEntry(weight: Weight(199, .lb), date: day.addingTimeInterval(60)))

        #expect(sink.closed == [42])
        #expect(try store.database.notificationID(forKey: Tracker.weighInReminderKey) == nil)
    }

    @Test("A dry-run import tells nobody: no post, no status-bar refresh, nothing stored")
    func dryRunIsSilent() throws {
        defer { store.directory.remove() }
        let day = calendar.date(2026, 11, 2, 7)
        _ = try tracker(at: day).importEntries(dryRun: true) { importer in
            _ = try importer.add(WeightEntry(weight: Weight(200, .lb), date: day))
        }
        #expect(statusBar.count == 0)
        #expect(sink.posted.isEmpty)
        #expect(try store.database.entryCount() == 0)
    }
}
