import GRDB

extension AppDatabase {
    /// The schema, one migration per shipped version. A shipped migration is never changed, and it names
    /// tables and columns as strings, never through app types.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "entry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("date", .datetime).notNull()
                t.column("weight", .double).notNull().check { $0 > 0 }
                t.column("unit", .text).notNull().check { ["lb", "kg"].contains($0) }
                t.column("note", .text)
                t.column("body_fat_percent", .double)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(index: "entry_on_date", on: "entry", columns: ["date", "id"])
            try db.create(table: "goal") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("weight", .double).notNull()
                t.column("unit", .text).notNull()
                t.column("set_at", .datetime).notNull()
                t.column("journey_started_at", .datetime).notNull()
            }
            try db.create(table: "achievement") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("type", .text).notNull()
                t.column("date_achieved", .datetime).notNull()
                t.column("weight", .double).notNull()
                t.column("goal_weight", .double).notNull()
                t.column("start_weight", .double).notNull()
                t.column("unit", .text).notNull()
                t.column("progress_percent", .double).notNull()
                t.column("notification_sent", .boolean).notNull()
            }
            try db.create(index: "achievement_on_date", on: "achievement", columns: ["date_achieved"])
            try db.create(table: "milestone_state") { t in
                t.primaryKey("type", .text)
            }
            try db.create(table: "notification_slot") { t in
                t.primaryKey("key", .text)
                t.column("server_id", .integer).notNull()
                t.column("posted_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            // One row per scheduled occurrence that some process claimed: INSERT OR IGNORE decides who sends.
            try db.create(table: "schedule_claim") { t in
                t.primaryKey("occurrence", .text)
                t.column("claimed_at", .datetime).notNull()
                t.column("sent", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "scheduler_state") { t in
                t.primaryKey("name", .text)
                t.column("last_run", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3") { db in
            // The intake log: one row per drink, meal or snack (iShnak's daily counters, as events).
            try db.create(table: "intake_event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull().check { ["water", "beverage", "meal", "snack"].contains($0) }
                t.column("date", .datetime).notNull()
                t.column("volume_ml", .integer).check { $0 == nil || ($0 > 0 && $0 <= 5000) }
                t.column("calories", .integer).notNull().defaults(to: 0).check { $0 >= 0 && $0 <= 10000 }
                t.column("note", .text)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(index: "intake_event_on_date", on: "intake_event", columns: ["date", "id"])
        }
        migrator.registerMigration("v4") { db in
            // The activity log: a day's steps and distance, one row per local day (`YYYY-MM-DD`, so that a day
            // stays the day it was walked whatever the zone it is read in) and source (`manual`, or an importer).
            // Rows of different sources are never added; `ActivityDay.shown` picks the one a day shows.
            try db.create(table: "activity_day") { t in
                t.column("day", .text).notNull()
                t.column("source", .text).notNull()
                t.column("steps", .integer).notNull().check { $0 >= 0 }
                t.column("distance_m", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                t.column("updated_at", .datetime).notNull()
                t.primaryKey(["day", "source"])
            }
        }
        migrator.registerMigration("v5") { db in
            // Calories eaten that are no meal or snack (an app's energy log, imported): a kind of their own. SQLite
            // cannot change a CHECK in place, so the table is built anew, its rows and its next id kept.
            let next = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'intake_event'")
            try db.create(table: "intake_event_v5") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull().check {
                    ["water", "beverage", "meal", "snack", "calories"].contains($0)
                }
                t.column("date", .datetime).notNull()
                t.column("volume_ml", .integer).check { $0 == nil || ($0 > 0 && $0 <= 5000) }
                t.column("calories", .integer).notNull().defaults(to: 0).check { $0 >= 0 && $0 <= 10000 }
                t.column("note", .text)
                t.column("created_at", .datetime).notNull()
            }
            try db.execute(sql: "INSERT INTO intake_event_v5 SELECT * FROM intake_event")
            try db.drop(table: "intake_event")
            try db.rename(table: "intake_event_v5", to: "intake_event")
            if let next {
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'intake_event'", arguments: [next])
            }
            try db.create(index: "intake_event_on_date", on: "intake_event", columns: ["date", "id"])
        }
        registerSync(&migrator)
        registerHeldReminders(&migrator)
        return migrator
    }
}
