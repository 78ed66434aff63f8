import Foundation
import GRDB
import Testing
import W8Core
import W8TestSupport

@testable import W8Store

/// The records write their columns by hand (GRDB's Codable path costs a fifth of `w8 add`): they must write what
/// GRDB's Codable encoding wrote, value for value, or stored dates would mix two spellings.
@Suite struct RecordEncodingTests {
    /// A record as GRDB's Codable path writes it: its own `Encodable` conformance, in snake case.
    struct CodableEncoding<Record: Encodable>: Encodable, EncodableRecord {
        var record: Record
        static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
        func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }
    }

    @Test func writeWhatGRDBsCodableEncodingWrites() throws {
        var random = SeededRandom.fromEnvironment("record encoding")
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &random))
            let created = Date(timeIntervalSince1970: Double.random(in: 0...2e9, using: &random))
            let weight = Double.random(in: 40...300, using: &random)
            let unit = Bool.random(using: &random) ? WeightUnit.lb : .kg
            let note = Bool.random(using: &random) ? "note \(weight)" : nil
            let fat = Bool.random(using: &random) ? Double.random(in: 2...75, using: &random) : nil
            let id = Bool.random(using: &random) ? Int64.random(in: 1...1_000_000, using: &random) : nil
            let entry = EntryRecord(
                WeightEntry(id: id, weight: Weight(weight, unit), date: date, note: note, bodyFatPercent: fat),
                createdAt: created)
            #expect(try entry.databaseDictionary == CodableEncoding(record: entry).databaseDictionary)

            let achievement = AchievementRecord(
                MilestoneAchievement(
                    id: id, type: MilestoneType.allCases.randomElement(using: &random)!, dateAchieved: date,
                    weight: weight, goalWeight: weight - 10, startWeight: weight + 10, unit: unit, progressPercent: 50,
                    notificationSent: Bool.random(using: &random)))
            #expect(try achievement.databaseDictionary == CodableEncoding(record: achievement).databaseDictionary)
            let state = MilestoneStateRecord(type: achievement.type)
            #expect(try state.databaseDictionary == CodableEncoding(record: state).databaseDictionary)
        }
    }
}
