import Foundation
import GRDB
import GRDBSQLite
import W8Core

/// Adds the rows of an import inside its transaction; an entry that is already there is not added again.
public struct EntryImporter {
    let db: Database
    /// Every row of one import is created at the same moment.
    let now: Date
    let createdAt: String
    let today: Date
    public private(set) var added = 0
    public private(set) var present = 0
    public private(set) var addedToday = false
    public private(set) var achievementsRestored = 0
    public private(set) var intakeRestored = 0
    /// Days of the activity log whose total from the import's source is new or changed, and those already there.
    public private(set) var activityAdded = 0
    public private(set) var activityPresent = 0
    /// Drinks and calories of another app's log, added and already there.
    public private(set) var intakeAdded = 0
    public private(set) var intakePresent = 0

    /// Two dates this close are the same moment: stored dates keep milliseconds, and a round trip through text
    /// may move one by a rounding.
    static let sameMoment: TimeInterval = 0.0015
    /// Two weights this close, in kilograms, are the same weight: well under the 45 g of 0.1 lb.
    static let sameWeight = 0.0005

    /// Adds `entry` unless one with the same date and weight exists; true when it was added.
    @discardableResult
    public mutating func add(_ entry: WeightEntry) throws -> Bool {
        // A look-up, then the insert: one `INSERT … SELECT … WHERE NOT EXISTS (SELECT … FROM entry)` made SQLite
        // copy each row through a temporary table (it reads the table it writes), half of an import's work. Both
        // are bound and stepped with SQLite's own calls: GRDB's arguments box every value.
        let date = StorageDate.text(entry.date)
        let exists = try RawStatement(
            db,
            """
            SELECT 1 FROM entry WHERE date BETWEEN ?1 AND ?2
              AND abs(CASE unit WHEN 'lb' THEN weight * \(WeightUnit.kilogramsPerPound) ELSE weight END - ?3) < ?4
            """)
        exists.bind(1, StorageDate.text(entry.date.addingTimeInterval(-Self.sameMoment)))
        exists.bind(2, StorageDate.text(entry.date.addingTimeInterval(Self.sameMoment)))
        exists.bind(3, entry.weight.value(in: .kg))
        exists.bind(4, Self.sameWeight)
        if try exists.step() {
            present += 1
            return false
        }
        let insert = try RawStatement(
            db,
            """
            INSERT INTO entry (date, weight, unit, note, body_fat_percent, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        insert.bind(1, date)
        insert.bind(2, entry.weight.value)
        insert.bind(3, entry.weight.unit.rawValue)
        insert.bind(4, entry.note)
        insert.bind(5, entry.bodyFatPercent)
        insert.bind(6, createdAt)
        _ = try insert.step()
        added += 1
        if entry.date >= today { addedToday = true }
        return true
    }

    /// Restores a backup's journey: its goal and milestone state replace the current ones; its achievements and
    /// intake events are added unless already there, and counted.
    public mutating func restore(_ backup: JourneyBackup) throws {
        if let goal = backup.goal {
            try GoalRecord(goal).save(db)
            try MilestoneStateRecord.deleteAll(db)
            for type in backup.milestonesAchieved { try MilestoneStateRecord(type: type).save(db) }
        }
        for achievement in backup.achievements {
            let col = AchievementRecord.Columns.self
            let date = achievement.dateAchieved
            let exists =
                try AchievementRecord.filter(
                    Column("type") == achievement.type
                        && col.dateAchieved >= date.addingTimeInterval(-Self.sameMoment)
                        && col.dateAchieved <= date.addingTimeInterval(Self.sameMoment)
                ).fetchCount(db) > 0
            if exists { continue }
            var record = AchievementRecord(achievement)
            record.id = nil
            try record.insert(db)
            achievementsRestored += 1
        }
        for event in backup.intake where try insertUnlessPresent(event) { intakeRestored += 1 }
        for day in backup.activity { try add(activity: day) }
    }

    /// Adds `event` unless the log has the same kind, moment, volume and calories; true when it was added.
    mutating func insertUnlessPresent(_ event: IntakeEvent) throws -> Bool {
        let exists =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM intake_event WHERE kind = ? AND date BETWEEN ? AND ?
                      AND volume_ml IS ? AND calories = ?)
                    """,
                arguments: [
                    event.kind, event.date.addingTimeInterval(-Self.sameMoment),
                    event.date.addingTimeInterval(Self.sameMoment), event.volume, event.calories,
                ]) ?? false
        if exists { return false }
        var record = IntakeRecord(event, createdAt: now)
        record.id = nil
        try record.insert(db)
        return true
    }

    /// Adds a drink or the calories of another app's log, unless the same event is already there.
    public mutating func add(intake event: IntakeEvent) throws {
        if try insertUnlessPresent(event) { intakeAdded += 1 } else { intakePresent += 1 }
    }

    /// Saves a day's total from an import's source: it replaces that source's earlier total for the day (a
    /// re-import of the same file changes nothing and is counted as present). Other sources' rows, the manual
    /// one too, stay.
    public mutating func add(activity day: ActivityDay) throws {
        let earlier = try ActivityRecord.fetchOne(
            db, sql: "SELECT * FROM activity_day WHERE day = ? AND source = ?",
            arguments: [day.day.description, day.source.rawValue])?.activity
        if let earlier, earlier.steps == day.steps, earlier.distance == day.distance {
            activityPresent += 1
            return
        }
        try ActivityRecord(day, updatedAt: now).save(db)
        activityAdded += 1
    }
}

extension AppDatabase {
    /// Calls `body` with every entry, oldest first, reading them one at a time.
    public func forEachEntry(_ body: (WeightEntry) throws -> Void) throws {
        if isSalvage {
            for entry in try readableEntries() { try body(entry) }
            return
        }
        try readChecked { db in
            let cursor = try EntryRecord.order(EntryRecord.Columns.date, EntryRecord.Columns.id).fetchCursor(db)
            while let record = try cursor.next() { try body(record.entry) }
        }
    }

    /// The entries SQLite can read from a damaged file, oldest first.
    func readableEntries() throws -> [WeightEntry] {
        try readableRows(EntryRecord.self, table: "entry", id: \.id).map(\.entry)
            .sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
    }

    /// The rows of `table` SQLite can read from a damaged file, in id order: read from the table itself (not
    /// through an index), and after a failure on from ids further on, the step doubling, up to the largest id
    /// handed out.
    func readableRows<Row: FetchableRecord>(_: Row.Type, table: String, id: (Row) -> Int64?) throws -> [Row] {
        let end = try readChecked { db in
            let last =
                (try? Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]))
                ?? nil
            return max(last ?? 0, ((try? Int64.fetchOne(db, sql: "SELECT max(id) FROM \(table)")) ?? nil) ?? 0)
        }
        var found: [Row] = []
        var after: Int64 = 0
        var step: Int64 = 1
        while after < end {
            // A read of its own each time: SQLite ends the transaction in which it met the damage.
            do {
                try readChecked { db in
                    let cursor = try Row.fetchCursor(
                        db, sql: "SELECT * FROM \(table) WHERE id > ? ORDER BY id", arguments: [after])
                    while let row = try cursor.next() {
                        found.append(row)
                        after = id(row) ?? after
                        step = 1
                    }
                }
                break
            } catch {
                after += step
                step *= 2
            }
        }
        return found
    }

    /// The goal, the milestone state and every achievement (oldest first), for a backup. A salvage reads each part
    /// on its own (SQLite ends the read that meets damage), leaves out a part it cannot read, and keeps the intake
    /// events it can read.
    public func journeyBackup() throws -> JourneyBackup {
        func part<T>(_ empty: T, _ read: (Database) throws -> T) throws -> T {
            do { return try readChecked(read) } catch  where isSalvage { return empty }
        }
        let intake =
            isSalvage
            ? try readableRows(IntakeRecord.self, table: "intake_event", id: \.id).map(\.event)
                .sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
            : try allIntake()
        let activity = try part([]) { db in
            try ActivityRecord.fetchAll(db, sql: "SELECT * FROM activity_day ORDER BY day, source").compactMap(
                \.activity)
        }
        return JourneyBackup(
            goal: try part(nil) { db in try GoalRecord.fetchOne(db)?.goal },
            milestonesAchieved: try part([]) { db in try MilestoneStateRecord.fetchAll(db).map(\.type).sorted() },
            achievements: try part([]) { db in
                try AchievementRecord.order(AchievementRecord.Columns.dateAchieved, AchievementRecord.Columns.id)
                    .fetchAll(db).map(\.achievement)
            },
            intake: intake, activity: activity)
    }
}

/// A cached statement of `db` bound and stepped with SQLite's own calls, reset and cleared when released.
private struct RawStatement: ~Copyable {
    let statement: Statement
    let connection: SQLiteConnection?

    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
    }

    deinit {
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    func bind(_ index: Int32, _ text: String?) {
        if let text {
            sqlite3_bind_text(
                statement.sqliteStatement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        } else {
            sqlite3_bind_null(statement.sqliteStatement, index)
        }
    }

    func bind(_ index: Int32, _ number: Double?) {
        if let number {
            sqlite3_bind_double(statement.sqliteStatement, index, number)
        } else {
            sqlite3_bind_null(statement.sqliteStatement, index)
        }
    }

    /// True when a row came back, false when the statement is done; a failure is the DatabaseError GRDB would throw.
    func step() throws -> Bool {
        switch sqlite3_step(statement.sqliteStatement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
        }
    }
}
