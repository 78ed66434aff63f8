import Foundation
import Testing
import W8Core
import W8Formats
import W8TestHarness
import W8TestSupport

/// Two machines, each a w8 home beside its own real Syncthing (Debian's 1.19.2, on loopback), sharing one folder:
/// the built `w8` keeps one history on both. Every wait names what it waits for (`SyncthingPair.waitInSync`, which
/// rescans both sides and waits until each has everything the other has); nothing sleeps blindly.
@Suite(.serialized, .ownThread) struct SyncCLITests {
    /// Machine A and machine B, joined to the pair's folder.
    struct Machines {
        let pair: SyncthingPair
        let a: W8Sandbox
        let b: W8Sandbox

        init(
            a: W8Sandbox? = nil, b: W8Sandbox? = nil,
            history: (W8Sandbox, W8Sandbox) throws -> Void = { _, _ in }
        ) throws {
            pair = try SyncthingPair()
            let a = try a ?? W8Sandbox()
            let b = try b ?? W8Sandbox()
            self.a = a
            self.b = b
            try history(a, b)
            let startA = try a.run("sync", "start", pair.folderA.path)
            try #require(startA.status == 0, "\(startA.stderr)")
            try pair.waitInSync()
            let startB = try b.run("sync", "start", pair.folderB.path)
            try #require(startB.status == 0, "\(startB.stderr)")
            try settle()
        }

        /// Lets each side's journal reach the other and each side merge it, twice: what B writes while merging A's
        /// (its own changes, a rewritten journal) reaches A too.
        func settle() throws {
            for _ in 0..<2 {
                try pair.waitInSync()
                for w8 in [a, b] {
                    let run = try w8.run("sync", "now")
                    try #require(run.status == 0, "\(run.stderr)")
                }
            }
            try pair.waitInSync()
        }

        func stop() { pair.stop() }
    }

    /// The weigh-ins as `w8 log --json` lists them, less the local ids: (date, weight, unit, note).
    static func weighIns(_ w8: W8Sandbox) throws -> [String] {
        let entries = try #require(try w8.json("log", "--limit", "1000") as? [[String: Any]])
        return entries.map {
            "\($0["date"] ?? "") \($0["entered_weight"] ?? "") \($0["entered_unit"] ?? "") \($0["note"] ?? "")"
        }.sorted()
    }

    /// `w8 export --format json` less what is each machine's own: ids, when rows were created, the export's moment,
    /// and the milestones (each machine records what it saw, and notifications it showed).
    static func portable(_ w8: W8Sandbox) throws -> String {
        let run = try w8.run("export", "--format", "json")
        try #require(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter {
                    !["id", "created_at", "updated_at", "exported_at", "achievements", "milestone_state"].contains(
                        $0.key)
                }
                .mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let data = try JSONSerialization.data(withJSONObject: strip(object), options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func journal(_ folder: URL) throws -> [URL] {
        let devices = folder.appendingPathComponent("w8trackr/devices")
        return try FileManager.default.contentsOfDirectory(at: devices, includingPropertiesForKeys: nil).flatMap {
            try FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)
        }.filter { $0.pathExtension == "jsonl" }
    }

    static func device(_ w8: W8Sandbox) throws -> String {
        let status = try #require(try w8.json("sync", "status") as? [String: Any])
        return try #require(status["device"] as? String)
    }

    @Test func anAddOnAShowsInBsLogAndStatus() throws {
        let machines = try Machines()
        defer { machines.stop() }
        #expect(try machines.a.run("add", "182.4", "--date", TestClock.moment(-1, "07:00")).status == 0)
        try machines.pair.waitInSync()
        // No `sync now`: `w8 log` merges what has arrived first.
        let log = try #require(try machines.b.json("log") as? [[String: Any]])
        #expect(log.map { $0["entered_weight"] as? Double } == [182.4])
        let status = try #require(try machines.b.json("status") as? [String: Any])
        #expect(status["current_weight"] as? Double == 182.4, "\(status)")
        // Both devices are listed, with their events.
        let sync = try #require(try machines.b.json("sync", "status") as? [String: Any])
        let devices = try #require(sync["devices"] as? [[String: Any]])
        #expect(devices.count == 2)
        #expect(devices.contains { $0["this_machine"] as? Bool == false && ($0["events"] as? Int ?? 0) >= 1 })
        // The journal is private, and a weigh-in costs at most 150 bytes of it.
        for file in try Self.journal(machines.pair.folderA) {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file.lastPathComponent)")
        }
    }

    @Test func anEditRacingARemovalConvergesOnBoth() throws {
        let machines = try Machines()
        defer { machines.stop() }
        #expect(try machines.a.run("add", "180", "--date", TestClock.moment(-2, "07:00")).status == 0)
        #expect(try machines.a.run("add", "179", "--date", TestClock.moment(-1, "07:00")).status == 0)
        try machines.settle()
        #expect(try Self.weighIns(machines.b).count == 2)
        try machines.pair.pause(.b)
        let idA = try #require((try machines.a.json("log") as? [[String: Any]])?.last?["id"] as? Int)
        let idB = try #require((try machines.b.json("log") as? [[String: Any]])?.last?["id"] as? Int)
        #expect(try machines.a.run("edit", String(idA), "--weight", "181").status == 0)
        #expect(try machines.b.run("rm", String(idB)).status == 0)
        try machines.pair.resume(.b)
        try machines.settle()
        let a = try Self.weighIns(machines.a)
        #expect(a == (try Self.weighIns(machines.b)))
        // The removal came after the edit, by the machines' clocks: it wins on both.
        #expect(a.count == 1, "\(a)")
        #expect(try Self.portable(machines.a) == (try Self.portable(machines.b)))
    }

    @Test func theGoalSetOnBothSidesConverges() throws {
        let machines = try Machines()
        defer { machines.stop() }
        #expect(try machines.a.run("add", "200", "--date", TestClock.moment(-3, "07:00")).status == 0)
        try machines.settle()
        try machines.pair.pause(.b)
        #expect(try machines.a.run("goal", "170").status == 0)
        #expect(try machines.b.run("goal", "160").status == 0)
        try machines.pair.resume(.b)
        try machines.settle()
        let goalA = try #require(try machines.a.json("goal") as? [String: Any])
        let goalB = try #require(try machines.b.json("goal") as? [String: Any])
        #expect(goalA["goal_weight"] as? Double == 160, "the later goal, B's: \(goalA)")
        #expect(NSDictionary(dictionary: goalA) == NSDictionary(dictionary: goalB))
        // A setting of the person's travels; one of the machine's stays.
        #expect(try machines.a.run("config", "unit", "kg").status == 0)
        #expect(try machines.a.run("config", "notifications.enabled", "false").status == 0)
        try machines.settle()
        #expect(try machines.b.run("config", "unit").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "kg")
        #expect(
            try machines.b.run("config", "notifications.enabled").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "true")
    }

    @Test func theMilestoneCrossedOnAIsPostedByAOnly() throws {
        let (dunstA, a) = try W8Sandbox.onNewDunst()
        defer { dunstA.stop() }
        let (dunstB, b) = try W8Sandbox.onNewDunst()
        defer { dunstB.stop() }
        let machines = try Machines(a: a, b: b) { a, _ in
            try #require(try a.run("add", "200", "--date", TestClock.moment(-7, "07:00")).status == 0)
            try #require(try a.run("goal", "160", "--date", TestClock.moment(-7, "08:00")).status == 0)
        }
        defer { machines.stop() }
        let added = try a.run("add", "190", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        #expect((try added.json() as? [String: Any])?["notified"] as? String == "25")
        try machines.settle()
        // B marked it achieved, and posted nothing.
        let milestones = try #require(try b.json("milestones") as? [[String: Any]])
        #expect(milestones.map { $0["type"] as? String } == ["25"])
        #expect(milestones.allSatisfy { $0["notification_sent"] as? Bool == false })
        #expect(try dunstA.history().map(\.summary) == ["25% of the way to your goal!"])
        #expect(try dunstB.history().isEmpty)
        // And B's next weigh-in, still past 25%, does not post it either.
        #expect(try b.run("add", "189").status == 0)
        #expect(try dunstB.history().isEmpty)
    }

    // B is offline for a week of entries made on both sides; when it is back, nothing is lost.
    @Test func aWeekApartLosesNothing() throws {
        let machines = try Machines()
        defer { machines.stop() }
        try machines.pair.pause(.b)
        for day in -7 ... -1 {
            #expect(try machines.a.run("add", String(190 + day), "--date", TestClock.moment(day, "07:00")).status == 0)
            #expect(try machines.b.run("drink", "250", "--date", TestClock.moment(day, "10:00")).status == 0)
            #expect(try machines.b.run("steps", String(5000 - day), "--date", TestClock.day(day)).status == 0)
        }
        try machines.pair.resume(.b)
        try machines.settle()
        #expect(try Self.weighIns(machines.b).count == 7)
        let intake = try #require(try machines.a.json("intake", "--days", "30") as? [[String: Any]])
        #expect(intake.count == 7, "\(intake)")
        #expect(try Self.portable(machines.a) == (try Self.portable(machines.b)))
    }

    // `w8 add` killed with SIGKILL at random moments, some inside the journal's append: the next command mends
    // the journal, and B ends with exactly A's weigh-ins.
    @Test func killedDuringTheAppendLosesNothing() throws {
        let machines = try Machines()
        defer { machines.stop() }
        var random = SeededRandom.fromEnvironment("sync kill")
        // One add that completes, so that A's month has its journal whatever the kills below interrupt: on a loaded
        // machine every one of them can die before its append (a clean clone's `make test` saw that once).
        #expect(try machines.a.run("add", "149", "--date", TestClock.moment(-1, "23:30")).status == 0)
        for index in 0..<20 {
            let process = try machines.a.start([
                "add", String(150 + index), "--date", TestClock.moment(-1, String(format: "%02d:00", index)),
            ])
            usleep(UInt32.random(in: 0...40_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // A half line, as a kill in the middle of its write leaves it.
        let own = try #require(
            try Self.journal(machines.pair.folderA).first {
                $0.path.contains(try Self.device(machines.a)) && !$0.lastPathComponent.hasPrefix("1970")
            })
        let handle = try FileHandle(forWritingTo: own)
        handle.seekToEndOfFile()
        handle.write(Data("{\"id\":\"half".utf8))
        try handle.close()
        #expect(try machines.a.run("sync", "now").status == 0)
        let text = try String(contentsOf: own, encoding: .utf8)
        #expect(text.hasSuffix("\n") && !text.contains("half"), "the torn line was cut")
        try machines.settle()
        let a = try Self.weighIns(machines.a)
        #expect(a == (try Self.weighIns(machines.b)))
        let sync = try #require(try machines.b.json("sync", "status") as? [String: Any])
        #expect((sync["problems"] as? [Any])?.isEmpty == true, "\(sync)")
    }

    // Machine C is a copy of A's home (one device id on two machines), joined on B's side: its lines and A's meet in
    // one file, Syncthing makes a conflict copy, both are read, and one machine takes a new id.
    @Test func aClonedHomeAndItsConflictCopy() throws {
        let machines = try Machines()
        defer { machines.stop() }
        #expect(try machines.a.run("add", "181", "--date", TestClock.moment(-2, "07:00")).status == 0)
        try machines.settle()
        let c = try W8Sandbox()
        for directory in ["data", "config"]
        where FileManager.default.fileExists(atPath: machines.a.root.appendingPathComponent(directory).path) {
            let target = c.root.appendingPathComponent(directory)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: machines.a.root.appendingPathComponent(directory), to: target)
        }
        try machines.pair.pause(.b)
        #expect(try machines.a.run("add", "180", "--date", TestClock.moment(-1, "07:00")).status == 0)
        #expect(try c.run("sync", "start", machines.pair.folderB.path).status == 0)
        #expect(try c.run("add", "179", "--date", TestClock.moment(-1, "08:00")).status == 0)
        try machines.pair.resume(.b)
        try machines.pair.waitUntil("a conflict copy on A's side") {
            try Self.journal(machines.pair.folderA).contains { $0.lastPathComponent.contains(".sync-conflict-") }
        }
        for _ in 0..<2 {
            try machines.settle()
            #expect(try c.run("sync", "now").status == 0)
        }
        try machines.settle()
        let all = try Self.weighIns(machines.a)
        #expect(all.count == 3, "\(all)")
        #expect(all == (try Self.weighIns(machines.b)))
        #expect(all == (try Self.weighIns(c)))
        #expect(try Self.device(machines.a) != (try Self.device(c)), "one of the two took a new id")
        let status = try #require(try machines.b.json("sync", "status") as? [String: Any])
        #expect((status["conflict_copies"] as? [Any])?.isEmpty == false, "\(status)")
    }

    @Test func aJournalDeletedOnOneSideDeletesNothingAndIsWrittenAgain() throws {
        let machines = try Machines()
        defer { machines.stop() }
        for day in -3 ... -1 {
            #expect(try machines.a.run("add", String(180 + day), "--date", TestClock.moment(day, "07:00")).status == 0)
        }
        try machines.settle()
        let deviceA = try Self.device(machines.a)
        // Deleted on B's side; Syncthing deletes it on A's too.
        for file in try Self.journal(machines.pair.folderB) where file.path.contains(deviceA) {
            try FileManager.default.removeItem(at: file)
        }
        try machines.pair.waitInSync()
        #expect(try Self.journal(machines.pair.folderA).allSatisfy { !$0.path.contains(deviceA) })
        #expect(try Self.weighIns(machines.b).count == 3, "a vanished journal deletes nothing")
        // A notices and writes it again; a new machine joining later gets the whole history.
        let pass = try #require(try machines.a.json("sync", "now") as? [String: Any])
        #expect((pass["rewritten"] as? [String])?.isEmpty == false, "\(pass)")
        try machines.pair.waitInSync()
        let late = try W8Sandbox()
        #expect(try late.run("sync", "start", machines.pair.folderB.path).status == 0)
        #expect(try Self.weighIns(late).count == 3)
    }

    // B's clock runs a day ahead: its edits are ordered by the logical clock, not by the dates it would give, and
    // `w8 sync status` on A says so.
    @Test func aClockADayAheadIsFlaggedAndOrderedByTheLogicalClock() throws {
        let b = try W8Sandbox()
        b.environment["FAKETIME"] = String(format: "%+ld", TestClock.offset + 86400)
        let machines = try Machines(b: b)
        defer { machines.stop() }
        #expect(try machines.a.run("add", "180", "--date", TestClock.moment(-1, "07:00")).status == 0)
        try machines.settle()
        let idB = try #require((try b.json("log") as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try b.run("edit", String(idB), "--weight", "178").status == 0)
        try machines.settle()
        // A edits after B, by the real order: A's edit wins although A's wall clock is a day behind B's.
        let idA = try #require((try machines.a.json("log") as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try machines.a.run("edit", String(idA), "--weight", "177").status == 0)
        try machines.settle()
        #expect(try Self.weighIns(machines.a) == (try Self.weighIns(b)))
        let weighIns = try Self.weighIns(b)
        #expect(weighIns.first?.contains(" 177") == true, "\(weighIns)")
        let status = try #require(try machines.a.json("sync", "status") as? [String: Any])
        let devices = try #require(status["devices"] as? [[String: Any]])
        #expect(devices.contains { $0["clock_ahead"] as? Bool == true }, "\(devices)")
    }

    // The daemon watches the folder: a weigh-in logged on A reaches B's daemon within seconds, and it closes the
    // weigh-in reminder B's daemon showed that morning.
    @Test func aWeighInOnAClosesTheReminderOnB() throws {
        let (dunst, b) = try W8Sandbox.onNewDunst()
        defer { dunst.stop() }
        let machines = try Machines(b: b)
        defer { machines.stop() }
        try b.configure(["reminders.weigh_in": "true", "summary.enabled": "false"])
        let daemon = try DaemonProcess(b, fakeStart: "\(TestClock.day(sunday)) 07:29:58")
        defer { daemon.stop() }
        try daemon.waitForLog("weigh-in@\(TestClock.day(sunday))T07:30: sent", timeout: 6)
        #expect(try dunst.displayedCount() == 1)
        #expect(try machines.a.run("add", "180", "--date", "\(TestClock.day(sunday)) 07:31").status == 0)
        try machines.pair.waitInSync()
        try daemon.waitForLog("1 read, 1 merged", timeout: 10)
        try machines.pair.waitUntil("B's weigh-in reminder closed") { try dunst.displayedCount() == 0 }
        #expect(try dunst.history().map(\.category) == ["x-w8trackr.reminder"])
    }

    // Both machines' daemons are due to send this week's summary at 09:00: the first device sends it, the other,
    // 30 s later, has its claim and posts nothing.
    @Test func theSummaryOfTwoMachinesInStepIsPostedOnce() throws {
        let (dunstA, a) = try W8Sandbox.onNewDunst()
        defer { dunstA.stop() }
        let (dunstB, b) = try W8Sandbox.onNewDunst()
        defer { dunstB.stop() }
        let machines = try Machines(a: a, b: b) { a, _ in
            try #require(try a.run("add", "180", "--date", TestClock.moment(sunday - 2, "07:00")).status == 0)
        }
        defer { machines.stop() }
        let start = "\(TestClock.day(sunday)) 08:59:58"
        let daemons = [try DaemonProcess(a, fakeStart: start), try DaemonProcess(b, fakeStart: start)]
        defer { for daemon in daemons { daemon.stop() } }
        let key = "summary@\(TestClock.day(sunday))T09:00"
        try machines.pair.waitUntil("one daemon sent the summary and the other found it sent", timeout: 90) {
            daemons.contains { $0.log.contains("\(key): sent") }
                && daemons.contains { $0.log.contains("\(key): already sent by another run") }
        }
        let shown = try dunstA.history().map { "A: \($0.summary)" } + (try dunstB.history().map { "B: \($0.summary)" })
        #expect(shown.count == 1, "\(shown)\n\(daemons.map(\.log))")
    }

    // An imported Apple Health history travels as its days of steps, its weigh-ins and its drinks, not as its raw
    // samples: the fixture's 3 days of steps come from more step samples than that.
    @Test func anImportedHistoryTravelsAsDaysAndWeighIns() throws {
        let w8 = try W8Sandbox()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/import/apple-health/export.xml")
        let xml = try String(contentsOf: fixture, encoding: .utf8)
        let stepSamples = xml.components(separatedBy: "HKQuantityTypeIdentifierStepCount").count - 1
        #expect(try w8.run("import", fixture.path).status == 0)
        let folder = try TemporaryDirectory(prefix: "w8-sync-folder")
        #expect(try w8.run("sync", "start", folder.path).status == 0)
        let lines = try Self.journal(folder.url).flatMap {
            try String(contentsOf: $0, encoding: .utf8).split(separator: "\n")
        }
        func count(_ kind: String) -> Int { lines.filter { $0.contains("\"put\":\"\(kind)\"") }.count }
        let days = try #require(try w8.json("activity", "--days", "100000") as? [[String: Any]])
        #expect(count("steps") == days.count)
        #expect(stepSamples > days.count, "the fixture has more step samples than days")
        #expect(count("weight") == (try Self.weighIns(w8)).count)
        #expect(lines.count == count("steps") + count("weight") + count("intake"))
    }

    @Test func aFolderThatIsNoDirectoryIsRefusedAndNothingIsWritten() throws {
        let w8 = try W8Sandbox()
        for bad in [w8.root.appendingPathComponent("missing").path, "/dev/null"] {
            let run = try w8.run("sync", "start", bad)
            #expect(run.status == 65)
            #expect(run.stderrLines.count == 1 && run.stderr.contains(bad), "\(run.stderr)")
        }
        let status = try #require(try w8.json("sync", "status") as? [String: Any])
        #expect(status["folder"] is NSNull && status["device"] is NSNull, "\(status)")
        let now = try w8.run("sync", "now")
        #expect(now.status == 69 && now.stderrLines.count == 1, "\(now.stderr)")
    }

    // Another machine (a newer version, say) sets a value this one cannot hold: it is named, config.toml keeps this
    // machine's value, and the old value is not journaled back over the other machine's.
    @Test func aSettingThisVersionCannotHoldIsNamedAndNotFoughtOver() throws {
        let w8 = try W8Sandbox()
        let folder = try TemporaryDirectory(prefix: "w8-sync-folder")
        #expect(try w8.run("config", "intake.water_goal_ml", "2500").status == 0)
        #expect(try w8.run("sync", "start", folder.path).status == 0)
        let other = folder.url.appendingPathComponent("w8trackr/devices/zzzzzzzz")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        var journal = ""
        for (index, value) in ["abc", "30000"].enumerated() {
            let event = SyncEvent(
                device: "zzzzzzzz", sequence: Int64(index + 1),
                clock: HybridClock(milliseconds: 4_000_000_000_000 + Int64(index)), operation: .put, kind: .setting,
                entity: "intake.water_goal_ml", data: ["v": .text(value)])
            journal += SyncJournalLine.encode(event) + "\n"
            try journal.write(to: other.appendingPathComponent("2096-10.jsonl"), atomically: true, encoding: .utf8)
            let pass = try #require(try w8.json("sync", "now") as? [String: Any])
            let problems = try #require(pass["problems"] as? [String])
            #expect(problems.count == 1 && problems[0].contains(value), "\(problems)")
            #expect(try w8.run("config", "intake.water_goal_ml").stdout.hasPrefix("2500"))
            #expect(try w8.run("status").status == 0)
        }
        let own = try Self.journal(folder.url).filter { !$0.path.contains("zzzzzzzz") }
        let lines = try own.flatMap { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n") }
        #expect(lines.filter { $0.contains("intake.water_goal_ml") }.count == 1, "only the join's: \(lines)")
    }
}

/// The Sunday on or before the test clock's day.
private let sunday = TestClock.daysBack(to: 1)
