import Foundation
import Testing
import W8TestHarness

/// The harness's two real Syncthing instances on loopback (`SyncthingPair`), checked with plain files, no w8: what
/// one side writes reaches the other byte for byte, and edits made on both sides while one paused the other end
/// in Syncthing's conflict copy once it resumes.
@Suite(.serialized, .ownThread) struct SyncthingPairTests {
    @Test func aFileReachesTheOtherSideAndAnAppendedLineComesBack() throws {
        let pair = try SyncthingPair()
        defer { pair.stop() }
        let name = "weights.csv"
        let threeLines = Data("date,kg\n2026-11-01,80.1\n2026-11-02,80.0\n".utf8)
        try threeLines.write(to: pair.folderA.appendingPathComponent(name))

        try pair.waitInSync()
        #expect(try Data(contentsOf: pair.folderB.appendingPathComponent(name)) == threeLines, "\(pair.log)")

        let fourthLine = Data("2026-11-03,79.8\n".utf8)
        try append(fourthLine, to: pair.folderB.appendingPathComponent(name))
        try pair.waitInSync()
        #expect(
            try Data(contentsOf: pair.folderA.appendingPathComponent(name)) == threeLines + fourthLine, "\(pair.log)")
    }

    @Test func editsOnBothSidesDuringAPauseGiveAConflictCopyAndTheRestArrives() throws {
        let pair = try SyncthingPair()
        defer { pair.stop() }
        let name = "shared.txt"
        try Data("base\n".utf8).write(to: pair.folderA.appendingPathComponent(name))
        try pair.waitInSync()

        try pair.pause(.b)
        try append(Data("from A\n".utf8), to: pair.folderA.appendingPathComponent(name))
        try append(Data("from B, longer\n".utf8), to: pair.folderB.appendingPathComponent(name))
        let onlyA = Data("written on A during the pause\n".utf8)
        try onlyA.write(to: pair.folderA.appendingPathComponent("only-a.txt"))
        try pair.resume(.b)
        try pair.waitInSync()

        let versions: Set = ["base\nfrom A\n", "base\nfrom B, longer\n"]
        for side in SyncthingPair.Side.allCases {
            let folder = pair.folder(side)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let conflicts = names.filter { $0.hasPrefix("shared.sync-conflict-") && $0.hasSuffix(".txt") }
            try #require(conflicts.count == 1, "\(side): \(names.sorted())\n\(pair.log)")
            let kept = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let copy = try String(contentsOf: folder.appendingPathComponent(conflicts[0]), encoding: .utf8)
            #expect(Set([kept, copy]) == versions, "\(side)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("only-a.txt")) == onlyA, "\(side)")
        }
        #expect(
            try Data(contentsOf: pair.folderA.appendingPathComponent(name))
                == Data(contentsOf: pair.folderB.appendingPathComponent(name)))
    }

    private func append(_ data: Data, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }
}
