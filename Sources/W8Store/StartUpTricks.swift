import Foundation
import GRDB
import W8Core

// W8Store's start-up tricks (bench/README.md, "Start-up tricks"): the rows of `w8 add`'s path written and read with
// plain SQL, by column position, instead of GRDB's Codable records and query interface. Anything else uses the
// records (Records.swift); RecordEncodingTests checks these write what the records' Codable encoding writes.

extension EntryRecord {
    /// For the bench rows "w8 status: …" and "w8 widget: 7,300 entries in the last year / 10 entries" (the entry
    /// before the week): the columns read by name, without the Codable path's snake-case conversion.
    init(row: Row) throws {
        id = row["id"]
        date = StorageDate.date(in: row, "date")
        weight = row["weight"]
        unit = row["unit"]
        note = row["note"]
        bodyFatPercent = row["body_fat_percent"]
        createdAt = StorageDate.date(in: row, "created_at")
    }

    /// For the bench row "w8 add: 100,000 entries / 10 entries": the entry in one SQL statement, returning its id.
    static func insert(_ entry: WeightEntry, createdAt: Date, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO entry (date, weight, unit, note, body_fat_percent, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                StorageDate.text(entry.date), entry.weight.value, entry.weight.unit.rawValue, entry.note,
                entry.bodyFatPercent, StorageDate.text(createdAt),
            ])
        return db.lastInsertedRowID
    }

    /// For the bench row "w8 add: 100,000 entries / 10 entries": the first entry of `SELECT … FROM entry`
    /// followed by `clauses`, read by position.
    static func one(_ db: Database, _ clauses: String, _ arguments: StatementArguments = []) throws -> WeightEntry? {
        try Row.fetchOne(db, sql: "SELECT \(entryColumns) FROM entry \(clauses) LIMIT 1", arguments: arguments)
            .map(entry(at:))
    }

    /// The columns `entry(at:)` reads, in its order.
    static let entryColumns = "id, date, weight, unit, note, body_fat_percent"

    /// For the bench rows "w8 status: 7,300 entries in the last year / 10 entries" and "w8 widget: …": the entry
    /// of a row of `entryColumns`, read by position.
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

extension GoalRecord {
    /// For the bench row "w8 add: 100,000 entries / 10 entries": the goal, read by position.
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

extension AchievementRecord {
    /// For the bench row "w8 add posting a milestone / notify-send": the achievement in one SQL statement,
    /// returning its id.
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
}
