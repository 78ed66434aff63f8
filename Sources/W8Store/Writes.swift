import Foundation
import GRDB
import W8Core

/// Reads and writes through the one connection: every write first refuses a damaged file (`refuseDamage`), and
/// GRDB's errors leave as `StoreError`.
extension AppDatabase {
    /// One write transaction, committed (GRDB's `write`: immediate, deferred on a read-only connection).
    func writeChecked<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            try refuseDamage()
            return try writer.write(body)
        } catch let error as DatabaseError {
            throw storeError(error)
        }
    }

    /// Like `writeChecked`, committed without waiting for the disk (`synchronous = NORMAL` in WAL mode, for this
    /// transaction only): for what can be derived again, such as a merge of the folder's journals, whose cursors
    /// commit in the same transaction. A power cut loses the transaction whole, never half of it, and the next
    /// durable commit makes it durable with its own (the log is written in order).
    func writeCheckedUnsynced<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            try refuseDamage()
            return try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw storeError(error)
        }
    }

    func readChecked<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.read(body) } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    /// Runs `body` in one immediate transaction, rolled back instead of committed when `commit` is false.
    func transaction<T>(commit: Bool, _ body: (Database) throws -> T) throws -> T {
        do {
            try refuseDamage()
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return commit ? .commit : .rollback
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw storeError(error)
        }
    }

    // MARK: Entries

    /// Entries newest first.
    public func entries(limit: Int? = nil) throws -> [WeightEntry] {
        try readChecked { db in
            try EntryRecord.order(EntryRecord.newestFirst).limit(limit ?? -1).fetchAll(db).map(\.entry)
        }
    }

    public func entryCount() throws -> Int {
        try readChecked { db in try EntryRecord.fetchCount(db) }
    }

    // MARK: Notification slots

    /// The server id of the notification last shown for `key`, if it is still recorded.
    public func notificationID(forKey key: String) throws -> UInt32? {
        try readChecked { db in
            try Int64.fetchOne(db, sql: "SELECT server_id FROM notification_slot WHERE key = ?", arguments: [key])
                .map { UInt32(truncatingIfNeeded: $0) }
        }
    }

    public func setNotificationID(_ id: UInt32?, forKey key: String, at date: Date) throws {
        try writeChecked { db in
            if let id {
                try NotificationSlotRecord(key: key, serverId: Int64(id), postedAt: date).save(db)
            } else {
                _ = try NotificationSlotRecord.deleteOne(db, key: key)
            }
        }
    }
}
