import Foundation
import GRDB
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
                arguments: [key, date.addingTimeInterval(-AppDatabase.abandonedClaim)])
            try db.execute(
                sql: "INSERT OR IGNORE INTO schedule_claim (occurrence, claimed_at, sent) VALUES (?, ?, 0)",
                arguments: [key, date])
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
                    """, arguments: [name, date])
        }
    }

    /// Entries dated in `[start, end]`, oldest first, and the latest one before `start`.
    public func week(from start: Date, to end: Date) throws -> (entries: [WeightEntry], before: WeightEntry?) {
        try readChecked { db in
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(EntryRecord.entryColumns) FROM entry WHERE date >= ? AND date <= ? ORDER BY date, id",
                arguments: [start, end])
            var entries: [WeightEntry] = []
            while let row = try rows.next() { entries.append(EntryRecord.entry(at: row)) }
            let before = try EntryRecord.filter(EntryRecord.Columns.date < start).order(EntryRecord.newestFirst)
                .fetchOne(db)?.entry
            return (entries, before)
        }
    }

    /// How far back the trend reads: a weight a year old weighs 0.9^365 ≈ 2e-17 in today's trend.
    public static let trendHistory: TimeInterval = 365 * 86400

    /// The trend weight, weekly rate and goal forecast at `now`, from the last year's entries (or the latest
    /// one, when none is that recent).
    public func trend(unit: WeightUnit, goal: Weight?, now: Date, calendar: Calendar) throws -> TrendAnalysis {
        let (entries, before) = try week(from: now.addingTimeInterval(-AppDatabase.trendHistory), to: now)
        return TrendAnalysis(
            entries: entries.isEmpty ? before.map { [$0] } ?? [] : entries, unit: unit, goal: goal?.value(in: unit),
            now: now, calendar: calendar)
    }

    /// The dates of entries since `start`, for streaks and "already logged today".
    public func entryDates(since start: Date) throws -> [Date] {
        try readChecked { db in
            try Date.fetchAll(
                db, EntryRecord.select(EntryRecord.Columns.date).filter(EntryRecord.Columns.date >= start))
        }
    }
}
