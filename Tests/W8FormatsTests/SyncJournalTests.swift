import Foundation
import Testing
import W8Core

@testable import W8Formats

/// The journal line: one event, its checksum, and what a half-written or changed line does.
@Suite struct SyncJournalTests {
    let weighIn = SyncEvent(
        device: "k2m4p6q7", sequence: 12, clock: HybridClock(milliseconds: 1_764_586_800_000, counter: 3),
        operation: .put, kind: .weight, entity: "a1b2c3d4e5",
        data: [
            "t": .integer(1_764_586_800_000), "w": .text("182.4"), "u": .text("lb"),
            "n": .text("après \"run\"\n\u{1b}[31m"),
        ])

    @Test func aLineReadsBackAsTheEventItWasWrittenFrom() throws {
        let line = SyncJournalLine.encode(weighIn)
        #expect(!line.contains("\n"), "one event, one line")
        #expect(!line.contains("\u{1b}"), "control characters are escaped")
        #expect(SyncJournalLine.decode(Array(line.utf8)) == weighIn)
        let removal = SyncEvent(
            device: "k2m4p6q7", sequence: 13, clock: HybridClock(milliseconds: 1), operation: .del, kind: .intake,
            entity: "zz")
        #expect(SyncJournalLine.decode(Array(SyncJournalLine.encode(removal).utf8)) == removal)
    }

    // Any text, every escape and negative numbers read back; the same JSON spelled otherwise, with a checksum
    // that matches its own text, is refused: only what `encode` writes is a journal line.
    @Test func onlyTheCanonicalSpellingIsRead() throws {
        var odd = weighIn
        odd.data = [
            "n": .text("\\ \" \t\r\n\u{01}\u{7f} é 🏃 \u{2028}"), "c": .integer(-42), "k": .text(""),
            "z": .integer(Int64.max),
        ]
        #expect(SyncJournalLine.decode(Array(SyncJournalLine.encode(odd).utf8)) == odd)
        let body =
            #"{"id":"k2m4p6q7.12","hlc":[1764586800000,3],"put":"weight","ent":"a1b2c3d4e5","data":{"w":"182.4"}"#
        let canonical = SyncEvent(
            device: "k2m4p6q7", sequence: 12, clock: HybridClock(milliseconds: 1_764_586_800_000, counter: 3),
            operation: .put, kind: .weight, entity: "a1b2c3d4e5", data: ["w": .text("182.4")])
        func line(_ body: String) -> [UInt8] {
            Array((body + ",\"sum\":\"" + SyncJournalLine.checksum(body) + "\"}").utf8)
        }
        #expect(SyncJournalLine.decode(line(body)) == canonical)
        for respelled in [
            body.replacingOccurrences(of: "\":", with: "\": "),
            body.replacingOccurrences(of: "182.4", with: "18\\u0032.4"),
            body.replacingOccurrences(of: "[1764586800000,3]", with: "[1764586800000,03]"),
            #"{"hlc":[1764586800000,3],"id":"k2m4p6q7.12","put":"weight","ent":"a1b2c3d4e5","data":{"w":"182.4"}"#,
            body.replacingOccurrences(of: "}", with: ",\"w\":\"182.4\"}"),
        ] {
            #expect(SyncJournalLine.decode(line(respelled)) == nil, "\(respelled)")
        }
    }

    @Test func aWeighInTakesAtMost150Bytes() {
        var event = weighIn
        event.data["n"] = nil
        event.sequence = 999_999
        #expect(SyncJournalLine.encode(event).utf8.count + 1 <= 150, "\(SyncJournalLine.encode(event))")
    }

    // Every single-byte change of a line is refused: by the JSON parser or by the checksum.
    @Test func aChangedLineIsNeverMerged() {
        let line = Array(SyncJournalLine.encode(weighIn).utf8)
        var accepted: [Int] = []
        for index in line.indices {
            var changed = line
            changed[index] = changed[index] == UInt8(ascii: "7") ? UInt8(ascii: "8") : UInt8(ascii: "7")
            if let event = SyncJournalLine.decode(changed), event != weighIn { accepted.append(index) }
        }
        #expect(accepted.isEmpty, "changes at \(accepted) were read as other events")
        for cut in [1, line.count / 2, line.count - 1] {
            #expect(SyncJournalLine.decode(line.prefix(cut)) == nil)
        }
    }

    @Test func aLastLineWithoutItsNewlineWaitsForTheNextMerge() {
        let first = SyncJournalLine.encode(weighIn) + "\n"
        var second = weighIn
        second.sequence = 13
        let secondLine = SyncJournalLine.encode(second) + "\n"
        let half = Array((first + secondLine.prefix(40)).utf8)
        let chunk = SyncJournalLine.read(half)
        #expect(chunk.events == [weighIn])
        #expect(chunk.consumed == first.utf8.count)
        #expect(chunk.waiting)
        // Completed by the next scan: read from where the last merge stopped.
        let whole = Array((first + secondLine).utf8)
        let rest = SyncJournalLine.read(whole[chunk.consumed...])
        #expect(rest.events == [second])
        #expect(chunk.consumed + rest.consumed == whole.count)
        #expect(!rest.waiting)
    }

    @Test func aDamagedLineWaitsAtTheEndAndIsSkippedInTheMiddle() {
        let good = SyncJournalLine.encode(weighIn) + "\n"
        var later = weighIn
        later.sequence = 14
        let damaged = SyncJournalLine.encode(later).replacingOccurrences(of: "182.4", with: "182.5") + "\n"
        let atEnd = SyncJournalLine.read(Array((good + damaged).utf8))
        #expect(atEnd.events == [weighIn])
        #expect(atEnd.consumed == good.utf8.count, "a bad last line is left for the next merge")
        #expect(atEnd.waiting)
        let inMiddle = SyncJournalLine.read(Array((good + damaged + SyncJournalLine.encode(later) + "\n").utf8))
        #expect(inMiddle.events == [weighIn, later])
        #expect(inMiddle.badLines == [good.utf8.count])
        #expect(!inMiddle.waiting)
    }

    @Test(arguments: [
        ("2026-12.jsonl", true, false),
        ("2026-12.sync-conflict-20261201-120000-ABCDEFG.jsonl", true, true),
        ("2026-12 (conflicted copy 2026-12-01 120000).jsonl", true, true),
        (".syncthing.2026-12.jsonl.tmp", false, false),
        ("~syncthing~2026-12.jsonl.tmp", false, false),
        (".2026-12.jsonl", false, false),
        ("meta.json", false, false),
        ("notes.jsonl", false, false),
    ])
    func theNamesTheEngineMakes(name: String, input: Bool, conflict: Bool) {
        #expect(SyncFileName.isJournalInput(name) == input)
        #expect(SyncFileName.isConflictCopy(name) == conflict)
    }
}
