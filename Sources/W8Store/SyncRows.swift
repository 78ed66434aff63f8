import Foundation
import GRDB
import W8Core

/// How each kind of entity is read from its table as an event's data, and written back from one.
///
/// | kind | entity id | data |
/// |---|---|---|
/// | weight | `entry.uid` | `t` ms, `w` weight, `u` unit, `n` note, `f` body fat |
/// | intake | `intake_event.uid` | `k` kind, `t` ms, `v` millilitres, `c` calories, `n` note |
/// | steps | `DAY/SOURCE` | `s` steps, `m` metres |
/// | goal | `goal` | `w` weight, `u` unit, `set` ms, `start` ms |
/// | setting | its key | `v` value |
/// | claim | the occurrence | (none) |
enum SyncRows {
    /// The entity's id and its state now (nil data: it is gone). `row` is the table's rowid where the change
    /// recorded one; a weigh-in or an intake event without an id yet gets its stable one here.
    static func state(of kind: SyncKind, row: Int64?, entity: String?, _ db: Database) throws -> (
        entity: String, data: [String: SyncValue]?
    )? {
        switch kind {
        case .weight:
            let found =
                try row.flatMap { try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [$0]) }
                ?? entity.flatMap { try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE uid = ?", arguments: [$0]) }
            guard let found else { return entity.map { ($0, nil) } }
            let date: Date = found["date"]
            let weight: Double = found["weight"]
            let unit: String = found["unit"]
            var data: [String: SyncValue] = [
                "t": .integer(milliseconds(date)), "w": .text(String(weight)), "u": .text(unit),
            ]
            if let note: String = found["note"] { data["n"] = .text(note) }
            if let fat: Double = found["body_fat_percent"] { data["f"] = .text(String(fat)) }
            let id = try stableID(
                "entry", row: found["id"], current: found["uid"],
                parts: ["w", String(milliseconds(date)), String(weight), unit],
                db)
            return (id, data)
        case .intake:
            let found =
                try row.flatMap {
                    try Row.fetchOne(db, sql: "SELECT * FROM intake_event WHERE id = ?", arguments: [$0])
                }
                ?? entity.flatMap {
                    try Row.fetchOne(db, sql: "SELECT * FROM intake_event WHERE uid = ?", arguments: [$0])
                }
            guard let found else { return entity.map { ($0, nil) } }
            let date: Date = found["date"]
            let kind: String = found["kind"]
            let calories: Int64 = found["calories"]
            var data: [String: SyncValue] = [
                "k": .text(kind), "t": .integer(milliseconds(date)), "c": .integer(calories),
            ]
            let volume: Int64? = found["volume_ml"]
            if let volume { data["v"] = .integer(volume) }
            if let note: String = found["note"] { data["n"] = .text(note) }
            let id = try stableID(
                "intake_event", row: found["id"], current: found["uid"],
                parts: ["i", kind, String(milliseconds(date)), String(volume ?? 0), String(calories)], db)
            return (id, data)
        case .steps:
            guard let entity, let slash = entity.firstIndex(of: "/") else { return nil }
            let found = try Row.fetchOne(
                db, sql: "SELECT steps, distance_m FROM activity_day WHERE day = ? AND source = ?",
                arguments: [String(entity[..<slash]), String(entity[entity.index(after: slash)...])])
            return (entity, found.map { ["s": .integer($0["steps"]), "m": .integer($0["distance_m"])] })
        case .goal:
            let found = try Row.fetchOne(db, sql: "SELECT * FROM goal")
            return (
                "goal",
                found.map {
                    let weight: Double = $0["weight"]
                    return [
                        "w": .text(String(weight)), "u": .text($0["unit"]),
                        "set": .integer(milliseconds($0["set_at"])),
                        "start": .integer(milliseconds($0["journey_started_at"])),
                    ]
                }
            )
        case .setting:
            guard let entity else { return nil }
            let value = try String.fetchOne(
                db, sql: "SELECT value FROM sync_setting WHERE key = ?", arguments: [entity])
            return value.map { (entity, ["v": .text($0)]) }
        case .claim:
            guard let entity,
                try Bool.fetchOne(
                    db, sql: "SELECT sent FROM schedule_claim WHERE occurrence = ?", arguments: [entity]) == true
            else { return nil }
            return (entity, [:])
        }
    }

    /// The row's stable id: the one it has, else one made of what it is (so that the same weigh-in on two machines
    /// gets the same id), made unique on this machine with the row's own id if another row has it.
    static func stableID(_ table: String, row: Int64, current: String?, parts: [String], _ db: Database) throws
        -> String
    {
        if let current { return current }
        func taken(_ id: String) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE uid = ?)", arguments: [id]) == true
        }
        var id = SyncIdentity.id(parts)
        if try taken(id) {
            id = SyncIdentity.id(parts + [String(row)])
        }
        // The id made with the row id can be taken too: another machine made it for its own second copy, at the
        // same row id, and it arrived here (SyncConvergenceTests.sameWeighInThreeTimes). The UPDATE below then
        // failed on the unique index, every pass after it too. A count makes it unique.
        var salt = 1
        while try taken(id) {
            id = SyncIdentity.id(parts + [String(row), String(salt)])
            salt += 1
        }
        try db.execute(sql: "UPDATE \(table) SET uid = ? WHERE id = ?", arguments: [id, row])
        return id
    }

    /// Writes `event` into its table: a `put` inserts or replaces the entity's row, a `del` removes it.
    static func apply(_ event: SyncEvent, now: Date, _ db: Database, result: inout SyncMergeResult) throws {
        let data = event.data
        func text(_ key: String) -> String? { data[key]?.text }
        func number(_ key: String) -> Int64? { data[key]?.integer }
        func date(_ key: String) -> Date? { number(key).map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        // Dates go in as the text GRDB stores (`StorageDate`): GRDB's own DateFormatter costs a merge of one event
        // more than a millisecond to create (bench/README.md, "Issue 38").
        let stored = StorageDate.text
        let nowText = stored(now)
        switch (event.kind, event.operation) {
        case (.weight, .put):
            guard let date = date("t"), let weight = text("w").flatMap(Double.init), weight > 0,
                let unit = text("u"), WeightUnit(rawValue: unit) != nil
            else { return }
            let fat = text("f").flatMap(Double.init)
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM entry WHERE uid = ?", arguments: [event.entity]) {
                try db.execute(
                    sql: "UPDATE entry SET date = ?, weight = ?, unit = ?, note = ?, body_fat_percent = ? WHERE id = ?",
                    arguments: [stored(date), weight, unit, text("n"), fat, id])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO entry (date, weight, unit, note, body_fat_percent, created_at, uid)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [stored(date), weight, unit, text("n"), fat, nowText, event.entity])
            }
            result.weighInDates.append(date)
        case (.weight, .del):
            try db.execute(sql: "DELETE FROM entry WHERE uid = ?", arguments: [event.entity])
        case (.intake, .put):
            guard let date = date("t"), let kind = text("k"), IntakeKind(rawValue: kind) != nil,
                let calories = number("c")
            else { return }
            if let id = try Int64.fetchOne(
                db, sql: "SELECT id FROM intake_event WHERE uid = ?", arguments: [event.entity])
            {
                try db.execute(
                    sql:
                        "UPDATE intake_event SET kind = ?, date = ?, volume_ml = ?, calories = ?, note = ? WHERE id = ?",
                    arguments: [kind, stored(date), number("v"), calories, text("n"), id])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO intake_event (kind, date, volume_ml, calories, note, created_at, uid)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [kind, stored(date), number("v"), calories, text("n"), nowText, event.entity])
            }
        case (.intake, .del):
            try db.execute(sql: "DELETE FROM intake_event WHERE uid = ?", arguments: [event.entity])
        case (.steps, _):
            guard let slash = event.entity.firstIndex(of: "/") else { return }
            let (day, source) = (
                String(event.entity[..<slash]), String(event.entity[event.entity.index(after: slash)...])
            )
            if event.operation == .del {
                try db.execute(
                    sql: "DELETE FROM activity_day WHERE day = ? AND source = ?", arguments: [day, source])
            } else if let steps = number("s"), steps >= 0 {
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO activity_day (day, source, steps, distance_m, updated_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [day, source, steps, max(0, number("m") ?? 0), nowText])
            }
        case (.goal, .put):
            guard let weight = text("w").flatMap(Double.init), let unit = text("u"), let set = date("set"),
                let start = date("start")
            else { return }
            let journey = try Date.fetchOne(db, sql: "SELECT journey_started_at FROM goal")
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO goal (id, weight, unit, set_at, journey_started_at) VALUES (1, ?, ?, ?, ?)",
                arguments: [weight, unit, stored(set), stored(start)])
            // A new journey elsewhere re-arms every milestone here too.
            if journey != start { try db.execute(sql: "DELETE FROM milestone_state") }
        case (.goal, .del):
            try db.execute(sql: "DELETE FROM goal")
        case (.setting, .put):
            guard let value = text("v") else { return }
            try db.execute(
                sql: "INSERT INTO sync_setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                arguments: [event.entity, value, value])
            result.settings.append((event.entity, value))
        case (.setting, .del):
            try db.execute(sql: "DELETE FROM sync_setting WHERE key = ?", arguments: [event.entity])
        case (.claim, .put):
            try db.execute(
                sql: "INSERT OR REPLACE INTO schedule_claim (occurrence, claimed_at, sent) VALUES (?, ?, 1)",
                arguments: [event.entity, stored(Date(timeIntervalSince1970: Double(event.clock.milliseconds) / 1000))])
        case (.claim, .del):
            break
        }
    }

    /// A date as whole milliseconds since 1970, rounded as the store's text rounds it.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down))
    }

    /// A short digest of an event's data, to tell a change from a rewrite of the same state.
    static func sum(_ data: [String: SyncValue]) -> String {
        SyncIdentity.id(
            data.keys.sorted().flatMap { key -> [String] in
                switch data[key]! {
                case .text(let t): [key, "s", t]
                case .integer(let i): [key, "i", String(i)]
                }
            })
    }

    /// The journal month `YYYY-MM` (UTC) of a clock's milliseconds.
    static func month(_ milliseconds: Int64) -> String {
        String(StorageDate.text(Date(timeIntervalSince1970: Double(milliseconds) / 1000)).prefix(7))
    }
}
