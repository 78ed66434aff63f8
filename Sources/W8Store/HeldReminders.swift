import Foundation
import GRDB
import W8Core

/// Reminders held while the person was away (issue 39), one row per kind: kept across a daemon's restart, so that
/// each is shown once when the person is back.
extension AppDatabase {
    /// The v7 schema: the held reminders.
    static func registerHeldReminders(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7") { db in
            try db.execute(
                sql: """
                    CREATE TABLE held_reminder (
                        kind TEXT PRIMARY KEY NOT NULL, occurrence TEXT NOT NULL, first_due DATETIME NOT NULL,
                        last_due DATETIME NOT NULL, times INTEGER NOT NULL CHECK (times > 0), reason TEXT NOT NULL)
                    """)
        }
    }

    /// The held reminders, in the order they first fell due.
    public func heldReminders() throws -> [HeldReminder] {
        try readChecked { db in try Self.held(db) }
    }

    static func held(_ db: Database) throws -> [HeldReminder] {
        try Row.fetchAll(db, sql: "SELECT * FROM held_reminder ORDER BY first_due, kind").compactMap { row in
            guard let kind = EventKind(name: row["kind"]), let reason = AwayReason(storedName: row["reason"])
            else { return nil }
            return HeldReminder(
                kind: kind, key: row["occurrence"], firstDue: StorageDate.date(in: row, "first_due"),
                lastDue: StorageDate.date(in: row, "last_due"), times: row["times"], reason: reason)
        }
    }

    static func insert(_ held: HeldReminder, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO held_reminder VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                held.kind.description, held.key, StorageDate.text(held.firstDue), StorageDate.text(held.lastDue),
                held.times, held.reason.storedName,
            ])
    }

    /// Claims `occurrence` for this run and records `held` (which holds it) in one transaction: false, and nothing
    /// written, when another run claimed it first. The claim counts as sent: no run takes a held reminder over.
    public func hold(_ held: HeldReminder, claiming occurrence: String, at now: Date) throws -> Bool {
        try writeChecked { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO schedule_claim (occurrence, claimed_at, sent) VALUES (?, ?, 1)",
                arguments: [occurrence, StorageDate.text(now)])
            guard db.changesCount == 1 else { return false }
            try Self.insert(held, db)
            return true
        }
    }

    /// Takes every held reminder in one transaction: those returned are this run's to show, and no other run (the
    /// daemon, the summary timer) gets them too.
    public func takeHeld() throws -> [HeldReminder] {
        try writeChecked { db in
            let held = try Self.held(db)
            try db.execute(sql: "DELETE FROM held_reminder")
            return held
        }
    }

    /// Holds `held` again: taken, but not shown (the server did not answer).
    public func restoreHeld(_ held: HeldReminder) throws {
        try writeChecked { db in try Self.insert(held, db) }
    }
}

extension EventKind {
    /// The kind whose `description` is `name`.
    init?(name: String) {
        let all: [EventKind] = [.weeklySummary, .weighIn, .streak, .hydration] + Meal.allCases.map { .meal($0) }
        guard let kind = all.first(where: { $0.description == name }) else { return nil }
        self = kind
    }
}

extension AwayReason {
    /// How the store names the reason: `locked`, `idle`, `suspended`, or `dnd:` and its source.
    var storedName: String {
        switch self {
        case .locked: "locked"
        case .idle: "idle"
        case .suspended: "suspended"
        case .doNotDisturb(let source): "dnd:" + source
        }
    }

    init?(storedName name: String) {
        switch name {
        case "locked": self = .locked
        case "idle": self = .idle
        case "suspended": self = .suspended
        case _ where name.hasPrefix("dnd:"): self = .doNotDisturb(String(name.dropFirst(4)))
        default: return nil
        }
    }
}
