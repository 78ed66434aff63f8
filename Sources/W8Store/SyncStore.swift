import Foundation
import GRDB
import W8Core

/// This machine in the synced folder: its device id, its folder (nil once it left), its last sequence number and
/// its hybrid logical clock.
public struct SyncSelf: Sendable, Equatable {
    public var device: String
    public var name: String
    public var folder: String?
    public var sequence: Int64
    public var clock: HybridClock
    /// The months (`YYYY-MM`) of this machine's journal files, so that a pass sees a missing one with one look at
    /// its directory.
    public var months: Set<String> = []
}

/// How far a journal file has been read.
public struct SyncCursor: Sendable, Equatable {
    /// The bytes merged (or skipped as damaged), from the start.
    public var offset: Int64
    /// The bytes after them, left for the next merge.
    public var waiting: Int64
    /// The byte offsets of damaged lines skipped, for `w8 sync status`.
    public var badLines: String = ""
    /// The file as it was read (inode, change time, size): the same file is not read again.
    public var file: String = ""
    /// The last bytes before `offset`, in hex: the file still starts as it was read, so only what follows is new.
    public var tail: String = ""

    public init(offset: Int64, waiting: Int64, badLines: String = "", file: String = "", tail: String = "") {
        (self.offset, self.waiting, self.badLines, self.file, self.tail) = (offset, waiting, badLines, file, tail)
    }
}

/// A device whose journal this machine has merged, for `w8 sync status`.
public struct SyncDeviceRecord: Sendable, Equatable {
    public var device: String
    public var events: Int64
    public var lastSequence: Int64
    public var lastClock: HybridClock
}

/// What merging a batch of events did.
public struct SyncMergeResult: Sendable {
    /// Events that changed the state of their entity.
    public var applied = 0
    /// Events already merged, or older than the state they would replace.
    public var ignored = 0
    /// Settings whose value another machine changed, with the value now in force.
    public var settings: [(key: String, value: String)] = []
    /// The local days of weigh-ins that arrived (to close today's weigh-in reminder).
    public var weighInDates: [Date] = []
    /// Whether anything the status bar shows changed.
    public var changedData: Bool { applied > 0 }
}

extension AppDatabase {
    /// The v6 schema: stable ids for weigh-ins and intake events, and the tables of sync (its triggers are created
    /// when this machine joins a folder, `createCaptureTriggers`).
    static func registerSync(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6") { db in
            // Partial indexes: a machine that never syncs has no uid, and its inserts never touch them.
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN uid TEXT")
            try db.execute(sql: "CREATE UNIQUE INDEX entry_on_uid ON entry(uid) WHERE uid IS NOT NULL")
            try db.execute(sql: "ALTER TABLE intake_event ADD COLUMN uid TEXT")
            try db.execute(sql: "CREATE UNIQUE INDEX intake_event_on_uid ON intake_event(uid) WHERE uid IS NOT NULL")
            try db.execute(
                sql: """
                    CREATE TABLE sync_self (
                        id INTEGER PRIMARY KEY CHECK (id = 1), device TEXT NOT NULL, name TEXT NOT NULL, folder TEXT,
                        sequence INTEGER NOT NULL, clock_ms INTEGER NOT NULL, clock_counter INTEGER NOT NULL,
                        months TEXT NOT NULL DEFAULT '');
                    CREATE TABLE sync_entity (
                        kind TEXT NOT NULL, entity TEXT NOT NULL, clock_ms INTEGER NOT NULL,
                        clock_counter INTEGER NOT NULL, device TEXT NOT NULL, sequence INTEGER NOT NULL,
                        deleted INTEGER NOT NULL, data_sum TEXT, PRIMARY KEY (kind, entity)) WITHOUT ROWID;
                    CREATE INDEX sync_entity_on_device ON sync_entity(device, sequence);
                    CREATE TABLE sync_pending (
                        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, row INTEGER, entity TEXT);
                    CREATE TABLE sync_outbox (sequence INTEGER PRIMARY KEY, month TEXT NOT NULL, line TEXT NOT NULL);
                    CREATE TABLE sync_cursor (
                        path TEXT PRIMARY KEY, offset INTEGER NOT NULL, waiting INTEGER NOT NULL DEFAULT 0,
                        bad_lines TEXT NOT NULL DEFAULT '', file TEXT NOT NULL DEFAULT '',
                        tail TEXT NOT NULL DEFAULT '');
                    CREATE TABLE sync_device (
                        device TEXT PRIMARY KEY, events INTEGER NOT NULL, last_sequence INTEGER NOT NULL,
                        clock_ms INTEGER NOT NULL, clock_counter INTEGER NOT NULL);
                    CREATE TABLE sync_setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE sync_own (sequence INTEGER PRIMARY KEY, sum TEXT NOT NULL);
                    """)
        }
    }

    /// The triggers that record each change to what travels in sync_pending, for the next `drainSync` to turn
    /// into journal events. They exist only while this machine is in a folder: a machine that syncs nothing pays
    /// nothing for them on an import of 100,000 rows.
    static let captureTriggers: [(name: String, sql: String)] = {
        func capture(
            _ table: String, _ kind: String, columns: String, row: String, entity: (String) -> String
        ) -> [(name: String, sql: String)] {
            [
                (
                    "\(table)_sync_insert",
                    "AFTER INSERT ON \(table) BEGIN INSERT INTO sync_pending (kind, row, entity) "
                        + "VALUES ('\(kind)', NEW.\(row), \(entity("NEW"))); END"
                ),
                (
                    "\(table)_sync_update",
                    "AFTER UPDATE OF \(columns) ON \(table) BEGIN INSERT INTO sync_pending (kind, row, entity) "
                        + "VALUES ('\(kind)', NEW.\(row), \(entity("NEW"))); END"
                ),
                (
                    "\(table)_sync_delete",
                    "AFTER DELETE ON \(table) BEGIN INSERT INTO sync_pending (kind, row, entity) "
                        + "VALUES ('\(kind)', OLD.\(row), \(entity("OLD"))); END"
                ),
            ]
        }
        return capture("entry", "weight", columns: "date, weight, unit, note, body_fat_percent", row: "id") {
            "\($0).uid"
        }
            + capture("intake_event", "intake", columns: "kind, date, volume_ml, calories, note", row: "id") {
                "\($0).uid"
            }
            + capture("activity_day", "steps", columns: "steps, distance_m", row: "rowid") {
                "\($0).day || '/' || \($0).source"
            }
            + capture("goal", "goal", columns: "weight, unit, set_at, journey_started_at", row: "id") { _ in "'goal'" }
            + capture("sync_setting", "setting", columns: "value", row: "rowid") { "\($0).key" }
            + [
                (
                    "schedule_claim_sync",
                    "AFTER UPDATE OF sent ON schedule_claim WHEN NEW.sent AND NEW.occurrence LIKE 'summary@%' BEGIN "
                        + "INSERT INTO sync_pending (kind, row, entity) VALUES ('claim', NULL, NEW.occurrence); END"
                )
            ]
    }()

    static func createCaptureTriggers(_ db: Database) throws {
        for (name, sql) in captureTriggers { try db.execute(sql: "CREATE TRIGGER IF NOT EXISTS \(name) \(sql)") }
    }

    static func dropCaptureTriggers(_ db: Database) throws {
        for (name, _) in captureTriggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)") }
    }

    // MARK: This machine

    public func syncSelf() throws -> SyncSelf? {
        try readChecked(Self.syncSelf)
    }

    static func syncSelf(_ db: Database) throws -> SyncSelf? {
        try Row.fetchOne(db, sql: "SELECT * FROM sync_self").map {
            SyncSelf(
                device: $0["device"], name: $0["name"], folder: $0["folder"], sequence: $0["sequence"],
                clock: HybridClock(milliseconds: $0["clock_ms"], counter: $0["clock_counter"]),
                months: Set(($0["months"] as String).split(separator: " ").map(String.init)))
        }
    }

    static func saveSelf(_ me: SyncSelf, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO sync_self (id, device, name, folder, sequence, clock_ms, clock_counter, months)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                me.device, me.name, me.folder, me.sequence, me.clock.milliseconds, me.clock.counter,
                me.months.sorted().joined(separator: " "),
            ])
    }

    /// Joins `folder` as `device` (kept when this machine was in a folder before, so that its journal continues),
    /// and queues this machine's whole history as events: weigh-ins, intake and days of steps at clock zero (any
    /// edit or removal made elsewhere wins over them), the goal at the moment it was set, and each setting in
    /// `settings` (those not at their defaults) at clock zero. Returns this machine as it joined.
    public func joinSync(folder: String, newDevice: String, name: String, settings: [(String, String)]) throws
        -> SyncSelf
    {
        try writeChecked { db in
            var me =
                try Self.syncSelf(db)
                ?? SyncSelf(device: newDevice, name: name, folder: nil, sequence: 0, clock: .zero)
            me.folder = folder
            me.name = name
            try Self.saveSelf(me, db)
            try Self.createCaptureTriggers(db)
            try db.execute(sql: "DELETE FROM sync_pending")
            try db.execute(sql: "DELETE FROM sync_cursor")
            for (key, value) in settings {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO sync_setting (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            // The history, as pending rows: `drainSync(history:)` stamps them with clock zero.
            try db.execute(
                sql: """
                    INSERT INTO sync_pending (kind, row, entity) SELECT 'weight', id, uid FROM entry ORDER BY date, id;
                    INSERT INTO sync_pending (kind, row, entity)
                        SELECT 'intake', id, uid FROM intake_event ORDER BY date, id;
                    INSERT INTO sync_pending (kind, row, entity)
                        SELECT 'steps', rowid, day || '/' || source FROM activity_day ORDER BY day, source;
                    INSERT INTO sync_pending (kind, row, entity) SELECT 'goal', 1, 'goal' FROM goal;
                    INSERT INTO sync_pending (kind, row, entity) SELECT 'setting', rowid, key FROM sync_setting;
                    INSERT INTO sync_pending (kind, row, entity)
                        SELECT kind, NULL, entity FROM sync_entity
                        WHERE NOT deleted AND kind IN ('weight', 'intake', 'steps', 'goal');
                    """)
            return me
        }
    }

    /// Leaves the folder: this machine keeps its data, its journal and its device id, and records no more events.
    public func leaveSync() throws {
        try writeChecked { db in
            try db.execute(sql: "UPDATE sync_self SET folder = NULL")
            try Self.dropCaptureTriggers(db)
            try db.execute(sql: "DELETE FROM sync_pending")
        }
    }

    /// Takes a new device id, when another machine writes under this one's (a cloned home): the next events are
    /// this machine's own again, from sequence 1.
    public func renewSyncDevice(_ device: String) throws {
        try writeChecked { db in
            try db.execute(sql: "UPDATE sync_self SET device = ?, sequence = 0, months = ''", arguments: [device])
            try db.execute(sql: "DELETE FROM sync_own")
        }
    }

    // MARK: Writing this machine's events

    /// Turns the changes recorded since the last call into events, stamped and numbered, in the outbox (the lines
    /// still to append to this machine's journal, as `encode` writes them, with their checksums): a `put` with the
    /// entity's state, or a `del`. A change that left
    /// an entity as its last event has it writes nothing. Returns how many events were made.
    @discardableResult
    public func drainSync(
        now: Date, history: Bool = false, encode: (SyncEvent) -> (line: String, sum: String)
    ) throws -> Int {
        try writeChecked { db in
            guard var me = try Self.syncSelf(db), me.folder != nil,
                let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM sync_pending")
            else { return 0 }
            let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            var made = 0
            let pending = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, row, entity, min(id) AS first FROM sync_pending WHERE id <= ?
                    GROUP BY kind, coalesce(entity, row) ORDER BY first
                    """,
                arguments: [last])
            for change in pending {
                guard let kind = SyncKind(rawValue: change["kind"]) else { continue }
                guard
                    let (entity, data) = try SyncRows.state(of: kind, row: change["row"], entity: change["entity"], db)
                else { continue }
                let current = try Self.entityStamp(kind, entity, db)
                let sum = data.map(SyncRows.sum)
                if let current, current.deleted ? data == nil : current.dataSum == sum { continue }
                if current == nil, data == nil { continue }
                me.sequence += 1
                let clock: HybridClock
                if history, current == nil {
                    // History never journaled at clock zero; a goal at the moment it was set. A change made while
                    // this machine was out of the folder is newer than what it journaled before: it ticks.
                    let setAt = kind == .goal ? data?["set"]?.integer ?? 0 : 0
                    clock = HybridClock(milliseconds: setAt)
                    // The clock passes it, as it passes a merged event's: a goal set while this machine's clock
                    // was ahead, changed or cleared here after the clock was put right, is ordered after it
                    // (SyncConvergenceTests: else the change lost to it on every other machine).
                    me.clock = me.clock.passing(clock)
                } else {
                    me.clock = me.clock.tick(wall: wall)
                    clock = me.clock
                }
                let event = SyncEvent(
                    device: me.device, sequence: me.sequence, clock: clock, operation: data == nil ? .del : .put,
                    kind: kind, entity: entity, data: data ?? [:])
                try Self.saveEntityStamp(event, sum: sum, db)
                let (line, lineSum) = encode(event)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO sync_own (sequence, sum) VALUES (?, ?)",
                    arguments: [event.sequence, lineSum])
                try db.execute(
                    sql: "INSERT INTO sync_outbox (sequence, month, line) VALUES (?, ?, ?)",
                    arguments: [event.sequence, SyncRows.month(clock.milliseconds), line])
                me.months.insert(SyncRows.month(clock.milliseconds))
                made += 1
            }
            try db.execute(sql: "DELETE FROM sync_pending WHERE id <= ?", arguments: [last])
            try Self.saveSelf(me, db)
            return made
        }
    }

    /// Whether changes are waiting to become events (a cheap check for the end of a command).
    public func hasPendingSync() throws -> Bool {
        try readChecked { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_pending)") ?? false }
    }

    /// The outbox, oldest first: (sequence, month `YYYY-MM`, line).
    public func syncOutbox() throws -> [(sequence: Int64, month: String, line: String)] {
        try readChecked { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_outbox ORDER BY sequence").map {
                (sequence: $0["sequence"], month: $0["month"], line: $0["line"])
            }
        }
    }

    /// Forgets the outbox's lines up to `sequence`, once they are durable in the journal.
    public func clearSyncOutbox(through sequence: Int64) throws {
        try writeChecked { db in
            try db.execute(sql: "DELETE FROM sync_outbox WHERE sequence <= ?", arguments: [sequence])
        }
    }

    /// This machine's events whose entity still has them as its last, as lines, by month: what rewriting a lost
    /// journal writes back.
    public func ownSyncLines(month: String? = nil, encode: (SyncEvent) -> String) throws -> [(
        month: String, sequence: Int64, line: String
    )] {
        try readChecked { db in
            guard let me = try Self.syncSelf(db) else { return [] }
            var lines: [(month: String, sequence: Int64, line: String)] = []
            for row in try Row.fetchAll(
                db, sql: "SELECT * FROM sync_entity WHERE device = ? ORDER BY sequence", arguments: [me.device])
            {
                guard let kind = SyncKind(rawValue: row["kind"]) else { continue }
                let entity: String = row["entity"]
                let clock = HybridClock(milliseconds: row["clock_ms"], counter: row["clock_counter"])
                let deleted: Bool = row["deleted"]
                let data = deleted ? nil : try SyncRows.state(of: kind, row: nil, entity: entity, db)?.data
                if !deleted, data == nil { continue }
                let event = SyncEvent(
                    device: me.device, sequence: row["sequence"], clock: clock, operation: deleted ? .del : .put,
                    kind: kind, entity: entity, data: data ?? [:])
                let eventMonth = SyncRows.month(clock.milliseconds)
                if month == nil || month == eventMonth {
                    lines.append((eventMonth, event.sequence, encode(event)))
                }
            }
            return lines
        }
    }

    /// The checksums of the events this machine wrote under its id, by sequence: a line under its id that is
    /// not one of them was written by another machine with the same id (a cloned home).
    public func ownSyncSums() throws -> [Int64: String] {
        try readChecked { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT sequence, sum FROM sync_own").map { ($0["sequence"], $0["sum"]) }
            ) { $1 }
        }
    }

    // MARK: Merging other machines' events

    /// Merges `events` in one transaction: each replaces its entity's state when its stamp is higher than the
    /// state's (a `del` removes the row), and moves this machine's clock past its own. Merged events are not
    /// journaled again.
    ///
    /// In the same transaction, so that a pass commits once: the journals' new `cursors` are saved, and `within`
    /// runs when an event changed something (the workflow's milestone rules).
    public func mergeSync(
        _ events: [SyncEvent], now: Date, cursors: [String: SyncCursor] = [:],
        within: (StoreTransaction) throws -> Void = { _ in }
    ) throws -> SyncMergeResult {
        // Not waiting for the disk: everything this commits is read again from the journals if a power cut loses it.
        try writeCheckedUnsynced { db in
            var result = SyncMergeResult()
            guard var me = try Self.syncSelf(db) else { return result }
            for (path, cursor) in cursors { try Self.saveCursor(path: path, cursor, db) }
            let before = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM sync_pending") ?? 0
            var devices: [String: SyncDeviceRecord] = [:]
            for event in events {
                var device =
                    try devices[event.device]
                    ?? Self.device(event.device, db)
                    ?? SyncDeviceRecord(device: event.device, events: 0, lastSequence: 0, lastClock: .zero)
                let current = try Self.entityStamp(event.kind, event.entity, db)
                let currentStamp = current.map { SyncStamp(clock: $0.clock, device: $0.device) }
                if current?.sequence == event.sequence, currentStamp == event.stamp {
                    result.ignored += 1
                } else if event.wins(over: currentStamp) {
                    try SyncRows.apply(event, now: now, db, result: &result)
                    try Self.saveEntityStamp(event, sum: event.operation == .put ? SyncRows.sum(event.data) : nil, db)
                    result.applied += 1
                } else {
                    result.ignored += 1
                }
                if event.sequence > device.lastSequence {
                    device.events += 1
                    device.lastSequence = event.sequence
                }
                device.lastClock = max(device.lastClock, event.clock)
                devices[event.device] = device
                me.clock = me.clock.passing(event.clock)
            }
            for device in devices.values {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO sync_device VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        device.device, device.events, device.lastSequence, device.lastClock.milliseconds,
                        device.lastClock.counter,
                    ])
            }
            // The rows the merge itself changed are no local changes.
            try db.execute(sql: "DELETE FROM sync_pending WHERE id > ?", arguments: [before])
            try Self.saveSelf(me, db)
            if result.applied > 0 { try within(StoreTransaction(db: db)) }
            return result
        }
    }

    /// The devices merged so far.
    public func syncDevices() throws -> [SyncDeviceRecord] {
        try readChecked { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_device ORDER BY device").map(Self.deviceRecord)
        }
    }

    /// How many events of this machine's own have been merged back from the folder under its id, with the highest
    /// sequence among them (for the cloned-home check).
    static func device(_ id: String, _ db: Database) throws -> SyncDeviceRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM sync_device WHERE device = ?", arguments: [id]).map(deviceRecord)
    }

    static func deviceRecord(_ row: Row) -> SyncDeviceRecord {
        SyncDeviceRecord(
            device: row["device"], events: row["events"], lastSequence: row["last_sequence"],
            lastClock: HybridClock(milliseconds: row["clock_ms"], counter: row["clock_counter"]))
    }

    /// The stamp of the event an entity's state comes from.
    static func entityStamp(_ kind: SyncKind, _ entity: String, _ db: Database) throws -> (
        clock: HybridClock, device: String, sequence: Int64, deleted: Bool, dataSum: String?
    )? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM sync_entity WHERE kind = ? AND entity = ?", arguments: [kind.rawValue, entity]
        ).map {
            (
                HybridClock(milliseconds: $0["clock_ms"], counter: $0["clock_counter"]), $0["device"], $0["sequence"],
                $0["deleted"], $0["data_sum"]
            )
        }
    }

    static func saveEntityStamp(_ event: SyncEvent, sum: String?, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO sync_entity VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                event.kind.rawValue, event.entity, event.clock.milliseconds, event.clock.counter, event.device,
                event.sequence, event.operation == .del, sum,
            ])
    }

    // MARK: Cursors

    /// How far each journal file has been read, by its path in the folder.
    public func syncCursors() throws -> [String: SyncCursor] {
        try readChecked { db in
            var cursors: [String: SyncCursor] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM sync_cursor") {
                cursors[row["path"]] = SyncCursor(
                    offset: row["offset"], waiting: row["waiting"], badLines: row["bad_lines"], file: row["file"],
                    tail: row["tail"])
            }
            return cursors
        }
    }

    public func saveSyncCursor(path: String, _ cursor: SyncCursor) throws {
        try writeChecked { db in try Self.saveCursor(path: path, cursor, db) }
    }

    static func saveCursor(path: String, _ cursor: SyncCursor, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO sync_cursor VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [path, cursor.offset, cursor.waiting, cursor.badLines, cursor.file, cursor.tail])
    }

    // MARK: Settings

    /// The person's settings as last journaled or merged.
    public func syncedSettings() throws -> [String: String] {
        try readChecked { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT key, value FROM sync_setting").map { ($0["key"], $0["value"]) }
            ) { $1 }
        }
    }

    /// Records settings this machine's person changed, to be journaled by the next `drainSync`.
    public func recordSettings(_ values: [(String, String)]) throws {
        guard !values.isEmpty else { return }
        try writeChecked { db in
            for (key, value) in values {
                try db.execute(
                    sql: "INSERT INTO sync_setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                    arguments: [key, value, value])
            }
        }
    }
}
