import Foundation
import GRDB
import Testing
import W8Core
import W8TestSupport

@testable import W8Store

/// A merge of other machines' events commits without waiting for the disk (everything in it is read again from the
/// journals if a power cut loses it), and every commit after it is durable again.
@Suite struct SyncMergeStoreTests {
    static let weighIn = SyncEvent(
        device: "q7p6m4k2", sequence: 1, clock: HybridClock(milliseconds: 1_764_586_800_000, counter: 0),
        operation: .put, kind: .weight, entity: "a1b2c3d4e5",
        data: ["t": .integer(1_764_586_800_000), "w": .text("182.4"), "u": .text("lb")])

    struct Refused: Error {}

    func synchronous(_ database: AppDatabase) throws -> Int {
        try database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } ?? -1
    }

    @Test func aMergeIsUnsyncedAndEveryCommitAfterItDurable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let database = try AppDatabase.open(at: dir.appending("w8trackr.sqlite"))
        _ = try database.joinSync(folder: dir.appending("folder"), newDevice: "k2m4p6q7", name: "test", settings: [])
        #expect(try synchronous(database) == 2, "FULL before")

        let merged = try database.mergeSync([Self.weighIn], now: Date(timeIntervalSince1970: 1_764_590_000)) { tx in
            let inside = try Int.fetchOne(tx.db, sql: "PRAGMA synchronous")
            #expect(inside == 1, "NORMAL inside the merge")
        }
        #expect(merged.applied == 1)
        #expect(try synchronous(database) == 2, "FULL after")
        // The date is stored as GRDB stores it, so that ordering and look-ups see one spelling.
        let text = try database.writer.read { db in try String.fetchOne(db, sql: "SELECT date FROM entry") }
        #expect(text == "2025-12-01 11:00:00.000")

        // A merge that fails is rolled back, and leaves FULL too.
        var removal = Self.weighIn
        removal.sequence = 2
        removal.clock = HybridClock(milliseconds: 1_764_586_900_000, counter: 0)
        removal.operation = .del
        removal.data = [:]
        #expect(throws: Refused.self) {
            try database.mergeSync([removal], now: Date(timeIntervalSince1970: 1_764_590_000)) { _ in throw Refused() }
        }
        #expect(try synchronous(database) == 2, "FULL after a failed merge")
        #expect(try database.entryCount() == 1)
    }
}
