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

    /// Reads the columns by name: the Codable path converts every column name from snake case on every row,
    /// which made reading a year of entries for the trend cost most of `w8 status`.
    init(row: Row) throws {
        id = row["id"]
        date = StorageDate.date(in: row, "date")
        weight = row["weight"]
        unit = row["unit"]
        note = row["note"]
        bodyFatPercent = row["body_fat_percent"]
        createdAt = StorageDate.date(in: row, "created_at")
    }

    /// Written column by column: GRDB's Codable path casts every value dynamically (scanning the binary's
    /// conformances, once per process) and formats each date with a DateFormatter, a fifth of `w8 add`. The dates
    /// are the text GRDB stores (`StorageDate`).
    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["date"] = StorageDate.text(date)
        container["weight"] = weight
        container["unit"] = unit.rawValue
        container["note"] = note
        container["body_fat_percent"] = bodyFatPercent
        container["created_at"] = StorageDate.text(createdAt)
    }

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

    /// Inserts `entry` with one SQL statement and returns its id: `insert(_:)` asks SQLite for the table's primary
    /// key first and goes through GRDB's generic record machinery (see `AppDatabase.snapshot`).
    static func insert(_ entry: WeightEntry, createdAt: Date, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO entry (date, weight, unit, note, body_fat_percent, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                StorageDate.text(entry.date), entry.weight.value, entry.weight.unit.rawValue, entry.note,
                entry.bodyFatPercent, StorageDate.text(createdAt),
            ])
        return db.lastInsertedRowID
    }

    /// The first entry of `SELECT … FROM entry` followed by `clauses`, read by position.
    static func one(_ db: Database, _ clauses: String, _ arguments: StatementArguments = []) throws -> WeightEntry? {
        try Row.fetchOne(db, sql: "SELECT \(entryColumns) FROM entry \(clauses) LIMIT 1", arguments: arguments)
            .map(entry(at:))
    }

    /// Newest first; entries at the same moment by insertion order.
    static let newestFirst = [Columns.date.desc, Columns.id.desc]

    /// The columns `entry(at:)` reads, in its order.
    static let entryColumns = "id, date, weight, unit, note, body_fat_percent"

    /// The entry of a row of `entryColumns`, read by position: by name, GRDB looks each column up on every row,
    /// which cost most of reading a year of entries for the trend.
    static func entry(at row: Row) -> WeightEntry {
        // Int64, Double and String are read straight from the statement (GRDB's StatementColumnConvertible).
        let unitText: String = row[3]
        let dateText: String? = row[1]
        return WeightEntry(
            id: row[0] as Int64?, weight: Weight(row[2] as Double, WeightUnit(rawValue: unitText) ?? row[3]),
            date: dateText.flatMap(StorageDate.date) ?? StorageDate.date(row[1]), note: row[4] as String?,
            bodyFatPercent: row[5] as Double?)
    }
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

    /// The goal, read by position (see `AppDatabase.snapshot`).
    static func current(_ db: Database) throws -> Goal? {
        try Row.fetchOne(db, sql: "SELECT weight, unit, set_at, journey_started_at FROM goal WHERE id = 1").map { row in
            let unit: String = row[1]
            return Goal(
                weight: Weight(row[0] as Double, WeightUnit(rawValue: unit) ?? row[1]),
                setAt: StorageDate.date(row[2] as DatabaseValue),
                journeyStartedAt: StorageDate.date(row[3] as DatabaseValue))
        }
    }
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

    /// Written column by column, as `EntryRecord` is.
    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["type"] = type.rawValue
        container["date_achieved"] = StorageDate.text(dateAchieved)
        container["weight"] = weight
        container["goal_weight"] = goalWeight
        container["start_weight"] = startWeight
        container["unit"] = unit.rawValue
        container["progress_percent"] = progressPercent
        container["notification_sent"] = notificationSent
    }

    /// Inserts `a` with one SQL statement and returns its id (as `EntryRecord.insert`).
    static func insert(_ a: MilestoneAchievement, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO achievement (type, date_achieved, weight, goal_weight, start_weight, unit, progress_percent,
                notification_sent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                a.type.rawValue, StorageDate.text(a.dateAchieved), a.weight, a.goalWeight, a.startWeight,
                a.unit.rawValue, a.progressPercent, a.notificationSent,
            ])
        return db.lastInsertedRowID
    }

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

    /// Written as `EntryRecord` is.
    func encode(to container: inout PersistenceContainer) {
        container["type"] = type.rawValue
    }
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
