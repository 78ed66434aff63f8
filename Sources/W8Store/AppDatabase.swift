import CW8SQLite
import Foundation
import GRDB
import GRDBSQLite
import W8Core

/// The W8Trackr database: it owns the schema and offers reads and writes named after what they do.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    public let path: String
    /// Opened by `salvaging(at:)`: reads skip what SQLite cannot read instead of failing.
    public var isSalvage = false

    /// Closes the connection now rather than when the last copy of this value goes. Nothing can be read or written
    /// through it after.
    ///
    /// With `checkpoint`, SQLite moves the WAL into the database file as the last connection closes (two more
    /// fsyncs, and the next commit starts a new WAL with two more). Without, what was committed stays in the WAL,
    /// already durable, as it does whenever another process (the daemon) has the database open: the next
    /// connection to close with a checkpoint, or SQLite's own checkpoint every 1,000 pages, moves it.
    public func close(checkpoint: Bool = true) throws {
        guard let queue = writer as? DatabaseQueue else { return }
        if !checkpoint {
            try queue.writeWithoutTransaction { db in
                let code = cw8_sqlite3_no_checkpoint_on_close(db.sqliteConnection)
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
        }
        try queue.close()
        integrity.recordAfterClose(database: stamped)
    }

    /// Opens (creating and migrating if needed) the database at `path`.
    ///
    /// The directory is made 0700 and the file 0600. Creation and migration hold an `flock` on a sibling
    /// `.lock` file, so processes that start together do not race. A database from a newer schema is refused
    /// before anything is written to it, and a damaged one before the first write of this value (or at once,
    /// with `verify`, for a reader about to read every row anyway): the whole-file check costs as much as
    /// reading every page, which a command that only reads, such as the widget, must not pay on each run.
    public static func open(at path: String, verify: Bool = false) throws -> AppDatabase {
        if ReadOnlyDatabase.applies(to: path) { return try openReadOnly(at: path, verify: verify) }
        let directory = (path as NSString).deletingLastPathComponent
        try PrivateFiles.ensureDirectory(directory.isEmpty ? "." : directory)
        return try PrivateFiles.withLock(path + ".lock") {
            try PrivateFiles.ensureFile(path)
            do {
                let queue = try connect(path)
                // Look before writing: nothing is written to a newer schema's file, or a damaged one.
                let (superseded, current) = try queue.read(AppDatabase.schemaState)
                if superseded { throw StoreError.newerSchema(path: path) }
                // A migration writes: it waits for the same check as any other write.
                if verify || !current, let damage = try queue.read(AppDatabase.damage) {
                    neverCheckpoint(queue)
                    throw StoreError.damaged(path: path, detail: damage)
                }
                try queue.writeWithoutTransaction { db in
                    // WAL (kept in the file once set): readers and the writer of other processes do not block each
                    // other.
                    if !current { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
                    try makeCommitsDurable(db)
                }
                // A schema that is current needs no migrator: it would only read the same table again, in a write.
                if !current { try migrator.migrate(queue) }
                return AppDatabase(writer: queue, path: path, keepAlive: queue)
            } catch let error as DatabaseError {
                throw StoreError(error, path: path)
            }
        }
    }

    /// The database in a directory w8 cannot write, read only (`ReadOnlyDatabase`): refused when it is newer, needs
    /// a migration (which would write), or, with `verify`, is damaged.
    private static func openReadOnly(at path: String, verify: Bool) throws -> AppDatabase {
        do {
            let queue = try ReadOnlyDatabase.connect(path)
            let (superseded, current) = try queue.read(AppDatabase.schemaState)
            if superseded { throw StoreError.newerSchema(path: path) }
            if !current { throw StoreError(DatabaseError(resultCode: .SQLITE_READONLY), path: path) }
            if verify, let damage = try queue.read(AppDatabase.damage) {
                throw StoreError.damaged(path: path, detail: damage)
            }
            return AppDatabase(writer: queue, path: path, keepAlive: queue)
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    /// Opens the database at `path` as `open(at:)` does, when that changes no file: the database exists and is
    /// already private (its directory 0700, its files 0600, the lock file there), its schema is current, and its
    /// pages are sound (the check of the first write, made now). Nil otherwise, or on any failure: `open(at:)`
    /// then does what is needed, under its lock, or says what is wrong. Nothing is created, narrowed, migrated or
    /// written, so a command may open its database this way before it has read its settings or its input.
    ///
    /// No lock is needed: a migration is one transaction, and a database that another process is creating or
    /// migrating reads as not current here.
    public static func openAsItIs(at path: String) -> AppDatabase? {
        let directory = (path as NSString).deletingLastPathComponent
        guard PrivateFiles.isPrivate(directory.isEmpty ? "." : directory, mask: 0o700, following: true),
            PrivateFiles.isPrivate(path, mask: 0o600), access(path, R_OK | W_OK) == 0,
            access(path + ".lock", R_OK | W_OK) == 0,
            [path + "-wal", path + "-shm"].allSatisfy({
                access($0, F_OK) != 0 || PrivateFiles.isPrivate($0, mask: 0o600)
            })
        else { return nil }
        guard let queue = try? connect(path) else { return nil }
        let database = AppDatabase(writer: queue, path: path, keepAlive: queue)
        do {
            let (superseded, current) = try queue.read(AppDatabase.schemaState)
            if !superseded, current {
                try queue.writeWithoutTransaction(makeCommitsDurable)
                try database.refuseDamage()
                return database
            }
        } catch {}
        // Whatever the WAL holds stays there for `open(at:)` to find: no checkpoint into a file it may refuse.
        try? database.close(checkpoint: false)
        return nil
    }

    /// One connection for the whole command. A pool's reader connections are not worth their cost to a process
    /// that runs one command, and a pool writes to an empty WAL when it opens, with two fsyncs.
    private static func connect(_ path: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in
            // Keep the WAL and its index when closing, the WAL checkpointed and truncated to nothing (the database
            // file alone holds everything): the next process finds both, and on a full disk it can still read,
            // where a new index file would first have to grow to 32 KiB.
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
            try db.execute(sql: "PRAGMA journal_size_limit = 0")
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// FULL makes every commit durable (GRDB leaves the default otherwise). A setting of the connection: it writes
    /// nothing.
    private static func makeCommitsDurable(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }

    /// Whether the file holds migrations this version does not know (a newer w8 wrote it), and whether it holds all
    /// of this version's: the migrator's `hasBeenSuperseded` and `hasCompletedMigrations`, with two plain queries
    /// (the migrator reads the schema through GRDB's introspection first, a tenth of `w8 add`).
    static func schemaState(_ db: Database) throws -> (superseded: Bool, current: Bool) {
        let hasTable = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations')")
        guard hasTable == true else { return (false, false) }
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        let known = Set(migrator.migrations)
        return (!applied.isSubset(of: known), known.isSubset(of: applied))
    }

    /// What `PRAGMA quick_check` finds wrong with the file, or nil when it is sound. It reads every page
    /// (about 3 ms for a year of 7,300 entries, 55 ms for 100,000) so that no write lands in a damaged file,
    /// where SQLite would only notice the damage on the pages it happens to touch; `IntegrityStamp` says when a
    /// changing command may skip it.
    static func damage(_ db: Database) throws -> String? {
        let findings = try String.fetchAll(db, sql: "PRAGMA quick_check(1)")
        guard findings != ["ok"] else { return nil }
        // The first finding, on one line: "*** in database main ***\nOn tree page 21 cell 42: …".
        return findings.joined(separator: " ").split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("***") }
            .joined(separator: " ")
    }

    /// Why the database at `path` cannot be used as it is, read only: nil when it is sound or does not exist.
    public static func problem(at path: String) -> StoreError? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let reader = try ReadOnlyDatabase.connect(path)
            return try reader.read(damage).map { StoreError.damaged(path: path, detail: $0) }
        } catch let error as DatabaseError {
            return StoreError(error, path: path)
        } catch let error as StoreError {
            return error
        } catch {
            return .database(path: path, message: error.localizedDescription)
        }
    }

    /// A damaged database opened read only, without the checks of `open(at:)`, so that `w8 export` can save
    /// what SQLite can still read: the entries are read by id, stepping over unreadable pages.
    public static func salvaging(at path: String) throws -> AppDatabase {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            var database = AppDatabase(writer: queue, path: path, keepAlive: queue)
            database.isSalvage = true
            return database
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    /// Kept open for the life of the value: releasing a GRDB queue disposes its dispatch queue on a libdispatch
    /// worker thread, and once one exists libdispatch wakes every second to monitor it, which an idle daemon
    /// must not do.
    private let keepAlive: DatabaseQueue

    /// Whether the file was found sound before this value's first write (`IntegrityStamp`).
    private let integrity = IntegrityCheck()

    /// The file whose integrity stamp this value reads and records: none for a database in memory or a salvage.
    private var stamped: String? { path == ":memory:" || isSalvage ? nil : path }

    /// A database in memory, for a dry run when there is no database file yet: nothing is created on disk.
    public static func inMemory() throws -> AppDatabase {
        do {
            let queue = try DatabaseQueue()
            try migrator.migrate(queue)
            return AppDatabase(writer: queue, path: ":memory:", keepAlive: queue)
        } catch let error as DatabaseError {
            throw StoreError(error, path: ":memory:")
        }
    }

    /// Throws `StoreError.damaged` when the file is damaged, the first time it is called on this value; the whole
    /// check is skipped while the integrity stamp holds (`IntegrityStamp`).
    func refuseDamage() throws {
        try integrity.run(database: stamped) {
            if let damage = try writer.read(AppDatabase.damage) {
                AppDatabase.neverCheckpoint(writer)
                throw StoreError.damaged(path: path, detail: damage)
            }
        }
    }

    /// `error` as a `StoreError`; damage that SQLite met removes the integrity stamp.
    func storeError(_ error: DatabaseError) -> StoreError {
        let converted = StoreError(error, path: path)
        if case .damaged = converted {
            integrity.damageFound(database: stamped)
            AppDatabase.neverCheckpoint(writer)
        }
        return converted
    }

    /// Makes the connection close without SQLite's checkpoint, however it closes (the last copy of its value
    /// released): it found the file damaged, and a checkpoint would move the WAL into it.
    private static func neverCheckpoint(_ writer: any DatabaseWriter) {
        try? writer.writeWithoutTransaction { db in _ = cw8_sqlite3_no_checkpoint_on_close(db.sqliteConnection) }
    }
}
