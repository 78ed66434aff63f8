import Foundation
import W8Core
import W8Store

extension AppDatabase {
    /// Adds `entry` in a transaction of its own, created now: for the tests of files and opening, which need rows,
    /// not milestones (those are the workflow's, in W8AppTests' `JourneyTests`).
    @discardableResult
    func addEntry(_ entry: WeightEntry) throws -> WeightEntry {
        try write { transaction in try transaction.saveEntry(entry, createdAt: Date()) }
    }
}
