import Foundation
import GRDB
import Testing
import W8Core
import W8TestSupport

@testable import W8Store

/// Migration v5 builds `intake_event` anew to let in the kind `calories`: a v4 file keeps its rows and its ids.
@Suite struct MigrationTests {
    @Test("v5 keeps a v4 file's intake rows, and ids once handed out are not handed out again")
    func intakeSurvivesTheRebuild() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("w8trackr.sqlite")
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: "v4")
        try queue.write { db in
            for (kind, volume) in [("water", "250"), ("meal", "NULL"), ("snack", "NULL")] {
                try db.execute(
                    sql: """
                        INSERT INTO intake_event (kind, date, volume_ml, calories, note, created_at)
                        VALUES ('\(kind)', '2026-11-20 09:00:00.000', \(volume), 120, 'n', '2026-11-20 09:00:00.000')
                        """)
            }
            try db.execute(sql: "DELETE FROM intake_event WHERE id = 3")
            // A v4 file refuses the new kind.
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: """
                        INSERT INTO intake_event (kind, date, calories, created_at)
                        VALUES ('calories', '2026-11-20', 1, '2026-11-20')
                        """)
            }
        }
        try queue.close()

        let db = try AppDatabase.open(at: path)
        let events = try db.allIntake()
        #expect(events.map(\.id) == [1, 2])
        #expect(events.map(\.kind) == [.water, .meal])
        #expect(events.map(\.volume) == [250, nil])
        #expect(events.map(\.note) == ["n", "n"])
        let added = try db.addIntake(
            IntakeEvent(kind: .calories, date: Date(timeIntervalSince1970: 1_790_000_000), calories: 450),
            goals: IntakeSettings(), notify: false, now: Date(timeIntervalSince1970: 1_790_000_000),
            calendar: PinnedCalendar.berlin)
        #expect(added.event.id == 4)
        #expect(Set(try db.allIntake().map(\.kind)) == [.water, .meal, .calories])
        let indexes = try db.readChecked { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'intake_event' AND type = 'index'")
        }
        #expect(indexes.contains("intake_event_on_date"))
    }

    @Test("After v5 a kind that is none of the five is still refused by the table")
    func unknownKindRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let queue = try DatabaseQueue(path: dir.appending("w8trackr.sqlite"))
        try AppDatabase.migrator.migrate(queue)
        try queue.write { db in
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: "INSERT INTO intake_event (kind, date, calories, created_at) VALUES ('pizza', 'd', 1, 'd')")
            }
        }
    }
}
