import Foundation
import GRDB
import Testing
import W8Core
import W8TestSupport

@testable import W8Store

/// `w8 add` writes its rows with plain SQL (StartUpTricks.swift, for its bench rows): they must hold what GRDB's
/// Codable encoding of the records writes, value for value, or stored dates would mix two spellings.
@Suite struct RecordEncodingTests {
    /// The row `id` of `table`, column by column.
    static func stored(_ db: Database, _ table: String, id: Int64) throws -> [String: DatabaseValue] {
        let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE rowid = ?", arguments: [id]))
        return Dictionary(uniqueKeysWithValues: row.map { ($0, $1) })
    }

    @Test func writeWhatGRDBsCodableEncodingWrites() throws {
        let database = try AppDatabase.inMemory()
        var random = SeededRandom.fromEnvironment("record encoding")
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &random))
            let created = Date(timeIntervalSince1970: Double.random(in: 0...2e9, using: &random))
            let weight = Double.random(in: 40...300, using: &random)
            let unit = Bool.random(using: &random) ? WeightUnit.lb : .kg
            let note = Bool.random(using: &random) ? "note \(weight)" : nil
            let fat = Bool.random(using: &random) ? Double.random(in: 2...75, using: &random) : nil
            let type = MilestoneType.allCases.randomElement(using: &random)!
            let sent = Bool.random(using: &random)
            try database.write { transaction in
                let db = transaction.db
                let added = try transaction.saveEntry(
                    WeightEntry(weight: Weight(weight, unit), date: date, note: note, bodyFatPercent: fat),
                    createdAt: created)
                let entry = EntryRecord(added, createdAt: created)
                // `uid` is sync's stable id, given when a sync folder journals the entry (`SyncRows.stableID`).
                var stored = try Self.stored(db, "entry", id: try #require(added.id))
                #expect(stored.removeValue(forKey: "uid") == .null)
                #expect(stored == (try entry.databaseDictionary))

                let recorded = try transaction.recordAchievement(
                    MilestoneAchievement(
                        type: type, dateAchieved: date, weight: weight, goalWeight: weight - 10,
                        startWeight: weight + 10, unit: unit, progressPercent: 50, notificationSent: sent))
                let achievement = AchievementRecord(recorded)
                #expect(
                    try Self.stored(db, "achievement", id: try #require(recorded.id))
                        == (try achievement.databaseDictionary))

                try transaction.rearmAllMilestones()
                try transaction.markMilestoneAchieved(type)
                let state = try #require(try Row.fetchOne(db, sql: "SELECT * FROM milestone_state"))
                #expect(
                    Dictionary(uniqueKeysWithValues: state.map { ($0, $1) })
                        == (try MilestoneStateRecord(type: type).databaseDictionary))
            }
        }
    }
}
