import Foundation
import GRDB
import GRDBSQLite
import W8Core

extension AppDatabase {
    /// How long after its claim an occurrence that was neither sent nor given back is taken to belong to a run
    /// that died between claiming and posting (`kill -9`, a crash, a power cut). Posting has a deadline of
    /// seconds, so no living run holds a claim this long.
    public static let abandonedClaim: TimeInterval = 120

    /// Claims a scheduled occurrence for this process; true for exactly one claimant across all processes. An
    /// abandoned claim (`abandonedClaim`) is taken over, so that a crash does not lose the occurrence.
    public func claim(_ key: String, at date: Date) throws -> Bool {
        try writeChecked { db in
            try db.execute(
                sql: "DELETE FROM schedule_claim WHERE occurrence = ? AND sent = 0 AND claimed_at < ?",
                arguments: [key, StorageDate.text(date.addingTimeInterval(-AppDatabase.abandonedClaim))])
            try db.execute(
                sql: "INSERT OR IGNORE INTO schedule_claim (occurrence, claimed_at, sent) VALUES (?, ?, 0)",
                arguments: [key, StorageDate.text(date)])
            return db.changesCount == 1
        }
    }

    /// Records whether the notification of a claimed occurrence went out.
    public func markClaim(_ key: String, sent: Bool) throws {
        try writeChecked { db in
            try db.execute(sql: "UPDATE schedule_claim SET sent = ? WHERE occurrence = ?", arguments: [sent, key])
        }
    }

    /// Gives a claim back, when the notification could not be shown, so that a later run can send it.
    public func unclaim(_ key: String) throws {
        try writeChecked { db in
            try db.execute(sql: "DELETE FROM schedule_claim WHERE occurrence = ? AND sent = 0", arguments: [key])
        }
    }

    /// When the occurrence was claimed, if it is claimed and not sent: a run may be posting it now, or have died
    /// before it could.
    public func unsentClaim(_ key: String) throws -> Date? {
        try readChecked { db in
            try Date.fetchOne(
                db, sql: "SELECT claimed_at FROM schedule_claim WHERE occurrence = ? AND sent = 0", arguments: [key])
        }
    }

    /// Claimed occurrences and whether each was sent, for tests and `w8 schedule`.
    public func claims() throws -> [(key: String, sent: Bool)] {
        try readChecked { db in
            try Row.fetchAll(db, sql: "SELECT occurrence, sent FROM schedule_claim ORDER BY claimed_at").map {
                (key: $0["occurrence"], sent: $0["sent"])
            }
        }
    }

    /// When the scheduler named `name` last ran, in any process.
    public func lastRun(_ name: String) throws -> Date? {
        try readChecked { db in
            try Date.fetchOne(db, sql: "SELECT last_run FROM scheduler_state WHERE name = ?", arguments: [name])
        }
    }

    /// Remembers a run; the moment never moves backwards.
    public func setLastRun(_ name: String, _ date: Date) throws {
        try writeChecked { db in
            try db.execute(
                sql: """
                    INSERT INTO scheduler_state (name, last_run) VALUES (?, ?)
                    ON CONFLICT(name) DO UPDATE SET last_run = max(last_run, excluded.last_run)
                    """, arguments: [name, StorageDate.text(date)])
        }
    }

    /// Entries dated in `[start, end]`, oldest first, and the latest one before `start`.
    public func week(from start: Date, to end: Date) throws -> (entries: [WeightEntry], before: WeightEntry?) {
        try readChecked { db in
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(EntryRecord.entryColumns) FROM entry WHERE date >= ? AND date <= ? ORDER BY date, id",
                arguments: [StorageDate.text(start), StorageDate.text(end)])
            var entries: [WeightEntry] = []
            while let row = try rows.next() { entries.append(EntryRecord.entry(at: row)) }
            let before = try EntryRecord.filter(EntryRecord.Columns.date < StorageDate.text(start)).order(
                EntryRecord.newestFirst
            )
            .fetchOne(db)?.entry
            return (entries, before)
        }
    }

    /// How far back the trend reads: a weight a year old weighs 0.9^365 ≈ 2e-17 in today's trend.
    public static let trendHistory: TimeInterval = 365 * 86400

    /// The trend weight, weekly rate and goal forecast at `now`, from the last year's entries (or the latest
    /// one, when none is that recent): the same analysis as `TrendAnalysis(entries:)` of those entries, read so
    /// that its cost follows the days that have weigh-ins, not the weigh-ins (a waybar module or a dense year).
    public func trend(unit: WeightUnit, goal: Weight?, now: Date, calendar: Calendar) throws -> TrendAnalysis {
        let start = now.addingTimeInterval(-AppDatabase.trendHistory)
        let weekStart = now.addingTimeInterval(-7 * 86400)
        return try readChecked { db in
            var days = try firstOfEachDay(db, from: start, to: now, calendar: calendar)
            var latest = days.isEmpty ? nil : try latestDate(db, from: start, to: now)
            if days.isEmpty,
                let before = try EntryRecord.filter(EntryRecord.Columns.date < StorageDate.text(start))
                    .order(EntryRecord.newestFirst).fetchOne(db)?.entry
            {
                days = [before]
                latest = before.date
            }
            // The week's entries, counted as dates: the text bound is a millisecond wide of `weekStart`. Inside the
            // year, so none when the year has none.
            let weekWeighIns = try String.fetchAll(
                db, sql: "SELECT date FROM entry WHERE date >= ? AND date <= ?",
                arguments: [StorageDate.text(weekStart.addingTimeInterval(-0.001)), StorageDate.text(now)]
            ).count { text in
                let date = StorageDate.date(text.databaseValue)
                return date > weekStart && date <= now
            }
            return TrendAnalysis(
                firstOfEachDay: days, unit: unit, goal: goal?.value(in: unit), now: now, latest: latest,
                weekWeighIns: weekWeighIns)
        }
    }

    /// The dates of entries since `start`, for streaks and "already logged today".
    public func entryDates(since start: Date) throws -> [Date] {
        try readChecked { db in
            try Date.fetchAll(
                db,
                EntryRecord.select(EntryRecord.Columns.date).filter(EntryRecord.Columns.date >= StorageDate.text(start))
            )
        }
    }

    /// The earliest entry (by date, then id) of each local day of `calendar` that has entries in `[start, end]`,
    /// oldest first: one indexed seek a day rather than reading every entry. The days are found as
    /// `TrendAnalysis.points` finds them in all the entries, in date order: an entry is the first of a new day
    /// when it is not before the end of the day of the previous first. The entries carry their id, date and
    /// weight only (what the trend reads).
    func firstOfEachDay(_ db: Database, from start: Date, to end: Date, calendar: Calendar) throws -> [WeightEntry] {
        let seek = try DaySeek(db)
        let endText = StorageDate.text(end)
        var dayEnds = LocalDayEnds(calendar: calendar)
        var days: [WeightEntry] = []
        var dayEnd = Date.distantPast
        var found = try seek.first(atOrAfter: StorageDate.text(start), upTo: endText)
        while let (entry, dateText) = found {
            if entry.date >= dayEnd {
                days.append(entry)
                dayEnd = dayEnds.end(of: entry.date) ?? entry.date
                if dayEnd > entry.date {
                    // Stored dates have milliseconds: a millisecond early, and the entries before `dayEnd` skipped.
                    found = try seek.first(
                        atOrAfter: StorageDate.text(dayEnd.addingTimeInterval(-0.001)), upTo: endText)
                    continue
                }
            }
            found = try seek.first(after: dateText, id: entry.id!, upTo: endText)
        }
        return days
    }

    /// The date of the latest entry in `[start, end]`.
    func latestDate(_ db: Database, from start: Date, to end: Date) throws -> Date? {
        try String.fetchOne(
            db, sql: "SELECT date FROM entry WHERE date >= ? AND date <= ? ORDER BY date DESC, id DESC LIMIT 1",
            arguments: [StorageDate.text(start), StorageDate.text(end)]
        ).map { StorageDate.date($0.databaseValue) }
    }
}

/// The first entry at or after a date (by date, then id), stepped with SQLite's own calls on statements of its own: a
/// dense year takes a seek for each of its days, and GRDB's rows and arguments cost more than the seek.
private struct DaySeek {
    static let columns = "id, date, weight, unit"
    let connection: SQLiteConnection?
    let atOrAfter: Statement
    let after: Statement

    init(_ db: Database) throws {
        connection = db.sqliteConnection
        atOrAfter = try db.makeStatement(
            sql: "SELECT \(Self.columns) FROM entry WHERE date >= ?1 AND date <= ?2 ORDER BY date, id LIMIT 1")
        after = try db.makeStatement(
            sql:
                "SELECT \(Self.columns) FROM entry WHERE (date, id) > (?1, ?3) AND date <= ?2 ORDER BY date, id LIMIT 1"
        )
    }

    /// The first entry dated at or after `date`, up to `end` (both as stored), and its stored date.
    func first(atOrAfter date: String, upTo end: String) throws -> (WeightEntry, String)? {
        try step(atOrAfter, date, end, id: nil)
    }

    /// The first entry after the one dated `date` with `id`, up to `end`, and its stored date.
    func first(after date: String, id: Int64, upTo end: String) throws -> (WeightEntry, String)? {
        try step(after, date, end, id: id)
    }

    private func step(_ statement: Statement, _ date: String, _ end: String, id: Int64?) throws -> (
        WeightEntry, String
    )? {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(handle, 1, date, -1, transient)
        sqlite3_bind_text(handle, 2, end, -1, transient)
        if let id { sqlite3_bind_int64(handle, 3, id) }
        switch sqlite3_step(handle) {
        case SQLITE_DONE: return nil
        case SQLITE_ROW: break
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)),
                sql: statement.sql)
        }
        let dateText = String(cString: sqlite3_column_text(handle, 1))
        let unitText = String(cString: sqlite3_column_text(handle, 3))
        guard let unit = WeightUnit(rawValue: unitText) else {
            throw DatabaseError(message: "unit '\(unitText)' is neither lb nor kg", sql: statement.sql)
        }
        let entry = WeightEntry(
            id: sqlite3_column_int64(handle, 0), weight: Weight(sqlite3_column_double(handle, 2), unit),
            date: StorageDate.date(dateText.databaseValue))
        return (entry, dateText)
    }
}
