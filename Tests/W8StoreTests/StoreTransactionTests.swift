import Foundation
import Testing
import W8Core
import W8Store
import W8TestSupport

/// A workflow's change is one transaction: what it wrote commits together, or not at all.
@Suite struct StoreTransactionTests {
    struct Interrupted: Error {}

    @Test func aChangeThatThrowsLeavesNeitherTheEntryNorItsAchievement() throws {
        let store = try TemporaryDatabase()
        defer { store.directory.remove() }
        let now = Date()
        // Given an entry and its achievement written in one transaction, when the change throws before it ends…
        #expect(throws: Interrupted.self) {
            try store.database.write { transaction in
                _ = try transaction.saveEntry(WeightEntry(weight: Weight(175, .lb), date: now), createdAt: now)
                _ = try transaction.recordAchievement(
                    MilestoneAchievement(
                        type: .quarter, dateAchieved: now, weight: 175, goalWeight: 160, startWeight: 180, unit: .lb,
                        progressPercent: 25, notificationSent: true))
                try transaction.markMilestoneAchieved(.quarter)
                throw Interrupted()
            }
        }
        // …then neither is stored.
        #expect(try store.database.entryCount() == 0)
        #expect(try store.database.achievements().isEmpty)
        // A dry run rolls back what it wrote.
        let added = try store.database.write(commit: false) { transaction in
            try transaction.saveEntry(WeightEntry(weight: Weight(175, .lb), date: now), createdAt: now)
        }
        #expect(added.id != nil)
        #expect(try store.database.entryCount() == 0)
    }
}
