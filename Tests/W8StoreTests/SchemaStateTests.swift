import GRDB
import Testing

@testable import W8Store

/// `AppDatabase.schemaState` reads what GRDB's migrator would say, with plain queries: the same answer in every
/// state a file can be in.
@Suite struct SchemaStateTests {
    func state(_ prepare: (DatabaseQueue) throws -> Void) throws -> (mine: [Bool], grdb: [Bool]) {
        let queue = try DatabaseQueue()
        try prepare(queue)
        let migrator = AppDatabase.migrator
        return try queue.read { db in
            let (superseded, current) = try AppDatabase.schemaState(db)
            return (
                [superseded, current], [try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db)]
            )
        }
    }

    @Test func anEmptyFileIsNeitherCurrentNorNewer() throws {
        let (mine, grdb) = try state { _ in }
        #expect(mine == [false, false])
        #expect(mine == grdb)
    }

    @Test func eachMigrationShortOfTheLastIsNotCurrent() throws {
        for identifier in AppDatabase.migrator.migrations {
            let (mine, grdb) = try state { try AppDatabase.migrator.migrate($0, upTo: identifier) }
            #expect(mine == grdb, "up to \(identifier)")
            #expect(mine[1] == (identifier == AppDatabase.migrator.migrations.last))
        }
    }

    @Test func aMigrationFromANewerVersionIsSuperseded() throws {
        let (mine, grdb) = try state { queue in
            try AppDatabase.migrator.migrate(queue)
            try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')") }
        }
        #expect(mine == [true, true])
        #expect(mine == grdb)
    }
}
