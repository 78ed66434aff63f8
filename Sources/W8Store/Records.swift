import Foundation
import GRDB
import W8Core

/// A row of `entry`.
struct EntryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "entry"
    var id: Int64?
    var date: Date
    var weight: Double
    var unit: WeightUnit
    var note: String?
    var bodyFatPercent: Double?
    var createdAt: Date

    enum Columns {
        static let id = Column("id")
        static let date = Column("date")
    }

    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ entry: WeightEntry, createdAt: Date) {
        id = entry.id
        date = entry.date
        weight = entry.weight.value
        unit = entry.weight.unit
        note = entry.note
        bodyFatPercent = entry.bodyFatPercent
        self.createdAt = createdAt
    }

    var entry: WeightEntry {
        WeightEntry(id: id, weight: Weight(weight, unit), date: date, note: note, bodyFatPercent: bodyFatPercent)
    }

    /// Newest first; entries at the same moment by insertion order.
    static let newestFirst = [Columns.date.desc, Columns.id.desc]
}

extension WeightUnit: DatabaseValueConvertible {}
extension MilestoneType: DatabaseValueConvertible {}

/// The single row of `goal`.
struct GoalRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "goal"
    var id: Int64 = 1
    var weight: Double
    var unit: WeightUnit
    var setAt: Date
    var journeyStartedAt: Date

    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    init(_ goal: Goal) {
        weight = goal.weight.value
        unit = goal.weight.unit
        setAt = goal.setAt
        journeyStartedAt = goal.journeyStartedAt
    }

    var goal: Goal { Goal(weight: Weight(weight, unit), setAt: setAt, journeyStartedAt: journeyStartedAt) }

}

/// A row of `achievement`.
struct AchievementRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "achievement"
    var id: Int64?
    var type: MilestoneType
    var dateAchieved: Date
    var weight: Double
    var goalWeight: Double
    var startWeight: Double
    var unit: WeightUnit
    var progressPercent: Double
    var notificationSent: Bool

    enum Columns {
        static let id = Column("id")
        static let dateAchieved = Column("date_achieved")
        static let notificationSent = Column("notification_sent")
    }

    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ a: MilestoneAchievement) {
        id = a.id
        type = a.type
        dateAchieved = a.dateAchieved
        weight = a.weight
        goalWeight = a.goalWeight
        startWeight = a.startWeight
        unit = a.unit
        progressPercent = a.progressPercent
        notificationSent = a.notificationSent
    }

    var achievement: MilestoneAchievement {
        MilestoneAchievement(
            id: id, type: type, dateAchieved: dateAchieved, weight: weight, goalWeight: goalWeight,
            startWeight: startWeight, unit: unit, progressPercent: progressPercent, notificationSent: notificationSent)
    }
}

/// A row of `milestone_state`: a milestone achieved on the current journey and not re-armed since.
struct MilestoneStateRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "milestone_state"
    var type: MilestoneType
}

/// A row of `notification_slot`: the server id of the notification shown for a key, so that any process
/// can replace or close it.
struct NotificationSlotRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "notification_slot"
    var key: String
    var serverId: Int64
    var postedAt: Date

    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
}
