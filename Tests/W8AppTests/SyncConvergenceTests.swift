import Foundation
import Testing
import W8App
import W8Core
import W8Formats
import W8Store
import W8TestSupport

/// Sync through a folder converges: replicas (real database files, their own config files and their OWN copies of
/// the folder) that change data in any order, with skewed clocks, while a simulated sync engine moves the journals
/// between the folder copies late, torn, twice or as conflict copies, end with the same data, and that data is the
/// last-writer-wins of every event in every journal.
///
/// The property test runs `W8_SYNC_PROPERTY_RUNS` seeded runs (300 by default: 50 to 70 s on two cores, most of it
/// the product's fsyncs and config parsing; raise it to thousands for a soak), each from a fresh seed; a failure names
/// its seed, and `W8_SYNC_PROPERTY_SEED=N` runs that one seed again, printing every action it takes.
@Suite struct SyncConvergenceTests {
    // MARK: The property

    @Test("Three replicas with random changes, skewed clocks and a late, torn, duplicating engine end the same")
    func replicasConverge() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seeds: [UInt64]
        let replay = environment["W8_SYNC_PROPERTY_SEED"].flatMap { UInt64($0) }
        if let replay {
            seeds = [replay]
        } else {
            let runs = environment["W8_SYNC_PROPERTY_RUNS"].flatMap { Int($0) } ?? 300
            var seeder = SeededRandom(seed: UInt64(Date().timeIntervalSince1970 * 1000))
            seeds = (0..<max(1, runs)).map { _ in seeder.next() >> 1 }
        }
        let started = Date()
        let (done, failures) = await Self.run(seeds, verbose: replay != nil)
        print(
            "SyncConvergence: \(done) runs (seeds from \(seeds[0])) in "
                + String(format: "%.1f", Date().timeIntervalSince(started)) + " s, \(failures.count) failed")
        for failure in failures.prefix(3) { Issue.record(Comment(rawValue: failure)) }
    }

    /// Runs the seeds, twice as many at once as there are processors (a pass waits on fsync often), and stops starting
    /// new ones after a failure.
    static func run(_ seeds: [UInt64], verbose: Bool) async -> (done: Int, failures: [String]) {
        await withTaskGroup(of: String?.self) { group in
            var next = 0
            var done = 0
            var failures: [String] = []
            let width = max(2, min(2 * ProcessInfo.processInfo.activeProcessorCount, 16))
            while next < min(width, seeds.count) {
                let seed = seeds[next]
                group.addTask { ConvergenceRun.outcome(seed: seed, verbose: verbose) }
                next += 1
            }
            while let result = await group.next() {
                done += 1
                if let result { failures.append(result) }
                if failures.isEmpty, next < seeds.count {
                    let seed = seeds[next]
                    group.addTask { ConvergenceRun.outcome(seed: seed, verbose: verbose) }
                    next += 1
                }
            }
            return (done, failures)
        }
    }

    // MARK: Focused cases

    @Test("Merging the same events twice changes nothing")
    func mergeIsIdempotent() throws {
        // r0 writes; r1 merges through its folder copy; r2 merges the events directly (`mergeSync`, no pass after).
        let lab = try SyncLab(seed: 1, replicas: 3)
        defer { lab.close() }
        try lab.addHistory(0, weighIns: [0, 1, 2])
        for index in 0..<3 { try lab.start(index) }
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(80.5, .kg), date: now)) }
        try lab.act(0) { r, now in
            _ = try r.tracker(at: now).edit(id: try need(r.database.entries().last?.id)) {
                $0.note = "edited \"twice\""
            }
        }
        try lab.act(0) { r, now in
            _ = try r.tracker(at: now).remove(id: try need(r.database.entries().first?.id))
        }
        try lab.act(0) { r, now in _ = try r.tracker(at: now).setGoal(Weight(75, .kg), at: now) }
        try lab.act(0) { r, now in _ = try r.intakeLog(at: now).drink(330, at: now, note: "café") }
        try lab.act(0) { r, now in
            _ = try r.activityLog(at: now).record(steps: 9000, on: CalendarDay(now, calendar: lab.calendar))
        }
        try lab.act(0) { r, _ in try r.set(.unit, to: "kg") }

        let events = try lab.ownEvents(0)
        #expect(events.count >= 9)
        let first = try lab.replicas[2].database.mergeSync(events, now: lab.now(2))
        let once = try lab.snapshot(2)
        let again = try lab.replicas[2].database.mergeSync(events, now: lab.now(2))
        #expect(first.applied > 0)
        #expect(again.applied == 0, "every event was merged before")
        #expect(try lab.snapshot(2) == once)
        #expect(once.withoutConfig == (try lab.snapshot(0)).withoutConfig)
        // Through the folder: the journal, a conflict copy of it (every line twice), a pass, then the same bytes
        // again as a new file.
        for name in try lab.ownJournalNames(0) {
            try lab.deliver(owner: 0, name: name, to: 1)
            try lab.deliver(
                owner: 0, name: name, to: 1, as: "\(name.prefix(7)).sync-conflict-20261201-120000-ABC1234.jsonl")
        }
        try lab.pass(1)
        let merged = try lab.snapshot(1)
        #expect(merged == (try lab.snapshot(0)))
        for name in try lab.ownJournalNames(0) {
            try FileManager.default.removeItem(atPath: lab.path(in: 1, device: try need(lab.replicas[0].device), name))
            try lab.deliver(
                owner: 0, name: name, to: 1, as: "\(name.prefix(7)) (conflicted copy 2026-12-01 120500).jsonl")
            try lab.deliver(owner: 0, name: name, to: 1)
        }
        #expect(try lab.pass(1).applied == 0)
        #expect(try lab.snapshot(1) == merged)
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("Two replicas' conflicting events merged in different orders give the same state")
    func mergeIsOrderIndependent() throws {
        // Replicas 0 and 1 share a history, then change the same things without hearing of each other; 2, 3 and 4
        // merge all their events directly, each in another order.
        let lab = try SyncLab(seed: 2, replicas: 5)
        defer { lab.close() }
        try lab.addHistory(0, weighIns: [0, 1, 2, 3])
        try lab.addHistory(1, weighIns: [1, 2, 3, 4])
        for index in lab.replicas.indices { try lab.start(index) }
        let day = CalendarDay(lab.now(0), calendar: lab.calendar)
        for (index, weight) in [(0, 81.0), (1, 79.5)] {
            try lab.act(index) { r, now in
                let id = try need(try r.database.entries().first { $0.date == SyncLab.historyDate(2) }?.id)
                _ = try r.tracker(at: now).edit(id: id) { $0.weight = Weight(weight, .kg) }
                _ = try r.tracker(at: now).setGoal(Weight(70 + weight / 10, .kg), at: now)
                try r.set(.waterGoal, to: index == 0 ? "2500" : "3000")
                try r.set(.summaryDay, to: index == 0 ? "fri" : "sun")
                _ = try r.activityLog(at: now).record(steps: 1000 * (index + 4), on: day)
            }
            lab.advance(seconds: 90)
        }
        try lab.act(0) { r, now in
            let id = try need(try r.database.entries().first { $0.date == SyncLab.historyDate(3) }?.id)
            _ = try r.tracker(at: now).remove(id: id)
        }
        lab.advance(seconds: 30)
        try lab.act(1) { r, now in
            let id = try need(try r.database.entries().first { $0.date == SyncLab.historyDate(3) }?.id)
            _ = try r.tracker(at: now).edit(id: id) { $0.note = "kept?" }
            _ = try r.tracker(at: now).clearGoal()
        }
        let events = try lab.ownEvents(0) + lab.ownEvents(1)
        var shuffler = SeededRandom(seed: 99)
        let orders: [[SyncEvent]] = [events, events.reversed(), events.shuffled(using: &shuffler)]
        for (order, replica) in zip(orders, [2, 3, 4]) {
            if replica == 4 {
                for event in order { _ = try lab.replicas[replica].database.mergeSync([event], now: lab.now(replica)) }
            } else {
                _ = try lab.replicas[replica].database.mergeSync(order, now: lab.now(replica))
            }
        }
        let merged = try [2, 3, 4].map { try lab.snapshot($0).withoutConfig }
        #expect(merged[0] == merged[1])
        #expect(merged[0] == merged[2])
        #expect(merged[0] == SyncLab.lastWriterWins(events).withoutConfig)
        #expect(merged[0].goal == nil, "the later clear wins")
        // And the two writers themselves, once each has the other's journal.
        try lab.settle(among: [0, 1])
        #expect(try lab.snapshot(0) == lab.snapshot(1))
        #expect(try lab.snapshot(0).withoutConfig == merged[0])
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("A removal racing an edit on another replica ends as the higher stamp on both", arguments: [true, false])
    func deleteRacingPut(editIsLater: Bool) throws {
        let lab = try SyncLab(seed: 3, replicas: 2)
        defer { lab.close() }
        try lab.start(0)
        try lab.start(1)
        let date = lab.calendar.date(2026, 11, 28, 7)
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(80.2, .kg), date: date)) }
        try lab.settle()
        #expect(try lab.replicas[1].database.entries().count == 1)
        let remove = {
            try lab.act(0) { r, now in _ = try r.tracker(at: now).remove(id: try need(r.database.entries()[0].id)) }
        }
        let edit = {
            try lab.act(1) { r, now in
                _ = try r.tracker(at: now).edit(id: try need(r.database.entries()[0].id)) { $0.note = "edited" }
            }
        }
        lab.advance(seconds: 60)
        try editIsLater ? remove() : edit()
        lab.advance(seconds: 60)
        try editIsLater ? edit() : remove()
        // The removal and the edit, as the journals hold them: the higher stamp decides.
        let events = try lab.ownEvents(0) + lab.ownEvents(1)
        let put = try need(events.last { $0.kind == .weight && $0.operation == .put })
        let del = try need(events.last { $0.kind == .weight && $0.operation == .del })
        #expect(put.entity == del.entity)
        #expect((put.stamp > del.stamp) == editIsLater)
        try lab.settle()
        for index in 0..<2 {
            let notes = try lab.replicas[index].database.entries().map(\.note)
            #expect(notes == (put.stamp > del.stamp ? ["edited"] : []), "replica \(index)")
        }
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("A half-written last line is not merged until it is complete")
    func halfWrittenLineWaits() throws {
        let lab = try SyncLab(seed: 4, replicas: 2)
        defer { lab.close() }
        try lab.start(0)
        try lab.start(1)
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(80.2, .kg), date: now)) }
        lab.advance(seconds: 10)
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(80.4, .kg), date: now)) }
        let name = try need(try lab.ownJournalNames(0).first)
        let whole = try lab.ownBytes(0, name)
        let lastLineStart = try need(whole.dropLast().lastIndex(of: 10)) + 1
        // Cut inside the last line, then right before its newline: neither is merged.
        for cut in [lastLineStart + (whole.count - lastLineStart) / 2, whole.count - 1] {
            try lab.deliver(owner: 0, name: name, to: 1, bytes: Array(whole.prefix(cut)))
            try lab.pass(1)
            #expect(try lab.replicas[1].database.entries().map(\.weight.value) == [80.2])
            let status = try lab.replicas[1].syncFolder(at: lab.now(1)).status()
            #expect(status.waiting.map(\.bytes) == [Int64(cut - lastLineStart)])
            #expect(status.problems.isEmpty, "\(status.problems)")
        }
        try lab.deliver(owner: 0, name: name, to: 1)
        try lab.pass(1)
        #expect(try lab.replicas[1].database.entries().map(\.weight.value) == [80.4, 80.2])
        #expect(try lab.replicas[1].syncFolder(at: lab.now(1)).status().waiting.isEmpty)
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("A journal that shrank, emptied or vanished deletes nothing")
    func shrunkFileDeletesNothing() throws {
        let lab = try SyncLab(seed: 5, replicas: 2)
        defer { lab.close() }
        try lab.start(0)
        try lab.start(1)
        for weight in [80.0, 80.5, 81.0] {
            try lab.act(0) { r, now in
                _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(weight, .kg), date: now))
            }
            lab.advance(seconds: 5)
        }
        try lab.settle()
        let before = try lab.snapshot(1)
        #expect(before.entries.count == 3)
        let name = try need(try lab.ownJournalNames(0).first)
        let whole = try lab.ownBytes(0, name)
        let firstLine = try need(whole.firstIndex(of: 10)) + 1
        for bytes in [Array(whole.prefix(firstLine)), Array(whole.prefix(firstLine + 7)), []] {
            try lab.deliver(owner: 0, name: name, to: 1, bytes: bytes)
            try lab.pass(1)
            #expect(try lab.snapshot(1) == before)
        }
        try FileManager.default.removeItem(atPath: lab.path(in: 1, device: try need(lab.replicas[0].device), name))
        try lab.pass(1)
        #expect(try lab.snapshot(1) == before)
        // What follows still arrives.
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(79.0, .kg), date: now)) }
        try lab.settle()
        #expect(try lab.snapshot(1).entries.count == 4)
        #expect(try lab.snapshot(1) == lab.snapshot(0))
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("A goal set while the clock was ahead, then cleared or changed once it was put right, is so everywhere")
    func goalSetAheadThenChanged() throws {
        // Found by the property test: a goal from before the replica joined enters the journal at the moment it
        // was set, and the clock did not pass it, so a change or a clear made after the clock was put right had
        // the lower stamp: the goal stayed as it was on every other replica.
        let lab = try SyncLab(seed: 7, replicas: 2)
        defer { lab.close() }
        lab.replicas[0].skew = 3 * 3600
        _ = try lab.replicas[0].tracker(at: lab.now(0)).setGoal(Weight(75, .kg), at: lab.now(0))
        lab.replicas[0].skew = 0
        try lab.start(0)
        try lab.start(1)
        try lab.settle()
        #expect(try lab.replicas[1].database.goal()?.weight == Weight(75, .kg))
        lab.advance(seconds: 60)
        try lab.act(0) { r, now in _ = try r.tracker(at: now).setGoal(Weight(74, .kg), at: now) }
        try lab.settle()
        #expect(try lab.replicas[1].database.goal()?.weight == Weight(74, .kg))
        lab.advance(seconds: 60)
        try lab.act(0) { r, now in _ = try r.tracker(at: now).clearGoal() }
        try lab.settle()
        #expect(try lab.replicas[0].database.goal() == nil)
        #expect(try lab.replicas[1].database.goal() == nil)
        #expect(try lab.snapshot(0) == lab.snapshot(1))
    }

    @Test("One weigh-in logged twice on a replica, and again on another that has both, is three entries everywhere")
    func sameWeighInThreeTimes() throws {
        // A second copy of a weigh-in on one machine takes an id made with its row id. When that id had arrived
        // from another machine (its own second copy, at the same row id), the UPDATE failed on the unique index:
        // the pass threw, and so did every pass after it, the change never journaled.
        let lab = try SyncLab(seed: 8, replicas: 2)
        defer { lab.close() }
        try lab.start(0)
        try lab.start(1)
        let date = lab.calendar.date(2026, 11, 29, 7)
        let same = WeightEntry(weight: Weight(80.5, .kg), date: date)
        // r1: two other weigh-ins (rows 1 and 2, in November's journal), then the same one twice (rows 3 and 4,
        // in December's): the second gets the fallback id made with its row id, 4.
        for weight in [81.0, 81.5] {
            try lab.act(1) { r, now in
                _ = try r.tracker(at: now).add(
                    WeightEntry(weight: Weight(weight, .kg), date: date.addingTimeInterval(-86_400)))
            }
        }
        lab.advance(seconds: 3 * 3600)
        try lab.act(1) { r, now in _ = try r.tracker(at: now).add(same) }
        try lab.act(1) { r, now in _ = try r.tracker(at: now).add(same) }
        // r0 has one weigh-in of its own (row 1) and gets December's journal first: the two (rows 2 and 3).
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(WeightEntry(weight: Weight(79.0, .kg), date: date)) }
        try lab.deliver(owner: 1, name: "2026-12.jsonl", to: 0)
        try lab.pass(0)
        #expect(try lab.replicas[0].database.entries().count == 3)
        // Then the same weigh-in once more on r0, at row 4.
        try lab.act(0) { r, now in _ = try r.tracker(at: now).add(same) }
        try lab.settle()
        for index in 0..<2 {
            let entries = try lab.replicas[index].database.entries()
            #expect(entries.count == 6, "replica \(index)")
            #expect(entries.filter { $0.date == date && $0.weight == same.weight }.count == 3, "replica \(index)")
        }
        #expect(try lab.snapshot(0) == lab.snapshot(1))
        #expect(lab.problems.isEmpty, "\(lab.problems)")
    }

    @Test("The same weigh-ins imported on two replicas before they joined become one entry each")
    func sameHistoryBecomesOneEntry() throws {
        let lab = try SyncLab(seed: 6, replicas: 3)
        defer { lab.close() }
        try lab.addHistory(0, weighIns: [0, 1, 2, 3])
        try lab.addHistory(1, weighIns: [2, 3, 4, 5])
        try lab.addHistory(2, weighIns: [0, 5])
        for index in lab.replicas.indices { try lab.start(index) }
        try lab.settle()
        for index in lab.replicas.indices {
            #expect(try lab.replicas[index].database.entries().count == 6, "replica \(index)")
        }
        #expect(try lab.snapshot(0) == lab.snapshot(1))
        #expect(try lab.snapshot(0) == lab.snapshot(2))
    }
}

// MARK: - The replicas

private struct LabError: Error, CustomStringConvertible {
    let description: String
}

/// The value, or an error naming where it was missing (usable outside a test's own body, unlike `#require`).
private func need<T>(_ value: T?, _ file: String = #fileID, _ line: Int = #line) throws -> T {
    guard let value else { throw LabError(description: "missing value at \(file):\(line)") }
    return value
}

/// Random bits for new device ids, from the run's seed, so that a replayed run has the same device ids.
private final class DeviceBits: @unchecked Sendable {
    private let lock = NSLock()
    private var random: SeededRandom
    init(seed: UInt64) { random = SeededRandom(seed: seed) }
    func next() -> UInt64 { lock.withLock { random.next() } }
}

/// The settings last read from a replica's config file; nil once it may have changed.
private final class SettingsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Settings?
    var value: Settings? {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}

private struct SilentStatusBar: StatusBar {
    func refresh() {}
}

/// One machine: its database file, its config file, its own copy of the synced folder and its clock's skew.
private final class Replica {
    let name: String
    let directory: String
    /// This machine's copy of the folder the sync engine keeps in step.
    let folder: String
    let databasePath: String
    let database: AppDatabase
    let config: ConfigFile
    let calendar: Calendar
    let sink = InMemoryNotificationSink()
    let bits: DeviceBits
    /// How far this machine's clock is from the true time; it changes, and goes back sometimes.
    var skew: TimeInterval = 0
    /// The machine's own settings (those that do not travel) set here, as `key.value(in:).description`.
    var localSettings: [String: String] = [:]

    init(name: String, root: String, seed: UInt64, calendar: Calendar) throws {
        self.name = name
        directory = (root as NSString).appendingPathComponent(name)
        folder = (directory as NSString).appendingPathComponent("Sync")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        databasePath = (directory as NSString).appendingPathComponent("data/w8trackr.sqlite")
        database = try AppDatabase.open(at: databasePath)
        config = ConfigFile(path: (directory as NSString).appendingPathComponent("config/config.toml"))
        self.calendar = calendar
        bits = DeviceBits(seed: seed)
    }

    var device: String? { (try? database.syncSelf())??.device }

    /// The settings in the config file, read again only after it changed (here, or by a pass that merged a
    /// setting): parsing the file is most of a pass's time in a debug build.
    let cachedSettings = SettingsCache()

    func settings() throws -> Settings {
        if let settings = cachedSettings.value { return settings }
        let settings = try config.load()
        cachedSettings.value = settings
        return settings
    }

    /// `w8 config KEY VALUE`.
    @discardableResult
    func set(_ key: SettingKey, to text: String) throws -> Settings {
        cachedSettings.value = nil
        let settings = try config.set(key, to: text)
        cachedSettings.value = settings
        return settings
    }

    func configMayHaveChanged() { cachedSettings.value = nil }

    /// The sync workflow as `Runtime.syncFolder(database:)` composes it: a merge that changed data is absorbed by
    /// the tracker (milestones silently, the weigh-in reminder, the status bar).
    func syncFolder(at now: Date) -> SyncFolder {
        let (database, config, sink, calendar, cache) = (database, config, sink, calendar, cachedSettings)
        return SyncFolder(
            database: database, config: config, now: now, calendar: calendar, hostName: name,
            random: { [bits] in bits.next() },
            afterMerge: { result in
                // The config file as it is now: read again when the merge changed a setting in it.
                if !result.settings.isEmpty { cache.value = nil }
                let settings = cache.value ?? (try? config.load()) ?? Settings()
                cache.value = settings
                Tracker(
                    database: database, sink: sink,
                    context: EvaluationContext(now: now, calendar: calendar, settings: settings),
                    statusBar: SilentStatusBar()
                ).absorbMerge(result)
            })
    }

    func tracker(at now: Date) throws -> Tracker {
        Tracker(
            database: database, sink: sink,
            context: EvaluationContext(now: now, calendar: calendar, settings: try settings()),
            statusBar: SilentStatusBar())
    }

    func intakeLog(at now: Date) throws -> IntakeLog {
        IntakeLog(
            database: database, sink: sink, settings: try settings(), now: now, calendar: calendar,
            statusBar: SilentStatusBar())
    }

    func activityLog(at now: Date) throws -> ActivityLog {
        ActivityLog(
            database: database, context: EvaluationContext(now: now, calendar: calendar, settings: try settings()),
            statusBar: SilentStatusBar())
    }

    func close() { try? database.close() }
}

/// What a replica holds of what travels, each row as one line of text, sorted: weigh-ins, intake, days of steps,
/// the goal, the travelling settings in its config file and the settings as last journaled or merged.
private struct ReplicaState: Equatable, CustomStringConvertible {
    var entries: [String] = []
    var intake: [String] = []
    var steps: [String] = []
    var goal: String?
    var settings: [String] = []
    var synced: [String] = []

    /// Without the config file, for a database merged into directly (`mergeSync` alone writes no config file).
    var withoutConfig: ReplicaState {
        var copy = self
        copy.settings = []
        return copy
    }

    var description: String {
        "entries \(entries)\nintake \(intake)\nsteps \(steps)\ngoal \(goal ?? "none")\nsettings \(settings)\n"
            + "synced \(synced)"
    }

    /// What differs between `self` and `other`, row by row.
    func difference(_ other: ReplicaState, _ names: (String, String)) -> String {
        var lines: [String] = []
        func compare(_ field: String, _ a: [String], _ b: [String]) {
            let onlyA = a.filter { !b.contains($0) }
            let onlyB = b.filter { !a.contains($0) }
            if !onlyA.isEmpty || !onlyB.isEmpty || a != b {
                lines.append("  \(field): only in \(names.0) \(onlyA), only in \(names.1) \(onlyB)")
            }
        }
        compare("entries", entries, other.entries)
        compare("intake", intake, other.intake)
        compare("steps", steps, other.steps)
        compare("goal", goal.map { [$0] } ?? [], other.goal.map { [$0] } ?? [])
        compare("settings", settings, other.settings)
        compare("synced settings", synced, other.synced)
        return lines.joined(separator: "\n")
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down))
    }

    static func entry(ms: Int64, weight: String?, unit: String?, note: String?, fat: String?) -> String {
        "\(ms) \(weight ?? "?") \(unit ?? "?") note=\(note.map(SyncJournalLine.quoted) ?? "none") fat=\(fat ?? "none")"
    }

    static func intake(kind: String?, ms: Int64, volume: Int64?, calories: Int64?, note: String?) -> String {
        "\(kind ?? "?") \(ms) ml=\(volume.map(String.init) ?? "none") kcal=\(calories.map(String.init) ?? "?") "
            + "note=\(note.map(SyncJournalLine.quoted) ?? "none")"
    }

    static func steps(_ entity: String, steps: Int64?, metres: Int64?) -> String {
        "\(entity) steps=\(steps.map(String.init) ?? "?") m=\(metres.map(String.init) ?? "?")"
    }

    static func goal(weight: String?, unit: String?, set: Int64?, start: Int64?) -> String {
        "\(weight ?? "?") \(unit ?? "?") set=\(set.map(String.init) ?? "?") start=\(start.map(String.init) ?? "?")"
    }
}

// MARK: - The lab: replicas, a clock and a sync engine

/// Replicas in one temporary directory, the true time, and the simulated sync engine that copies files between
/// the replicas' folder copies.
private final class SyncLab {
    let calendar = PinnedCalendar.berlin
    let root: TemporaryDirectory
    var replicas: [Replica] = []
    var random: SeededRandom
    /// The true time; each replica's clock reads it with its skew.
    var time: Date
    /// Every action, for a failure's message.
    var trace: [String] = []
    /// The problems passes reported, and device ids renewed (no replica here is a clone of another).
    var problems: [String] = []

    /// A Monday evening in Berlin, two hours before the journals' months change (they are UTC).
    static let origin = PinnedCalendar.berlin.date(2026, 11, 30, 22)
    /// The history every replica may have imported before it joined: weigh-ins a month back.
    static let historyWeighIns: [(day: Int, weight: Weight, note: String?)] = [
        (-30, Weight(82.0, .kg), nil), (-28, Weight(81.6, .kg), "après le \"run\""), (-26, Weight(181.0, .lb), nil),
        (-24, Weight(81.1, .kg), nil), (-22, Weight(80.9, .kg), "line\nbreak\tand tab"), (-21, Weight(180.2, .lb), nil),
    ]
    static var historyEnd: Date { origin.addingTimeInterval(-19 * 86_400) }

    /// The moment of history weigh-in `index`: 07:00 on its day.
    static func historyDate(_ index: Int) -> Date {
        origin.addingTimeInterval(Double(historyWeighIns[index].day) * 86_400 - 15 * 3600)
    }

    init(seed: UInt64, replicas count: Int) throws {
        root = try TemporaryDirectory(prefix: "w8-sync")
        random = SeededRandom(seed: seed)
        time = Self.origin
        for index in 0..<count {
            replicas.append(
                try Replica(name: "r\(index)", root: root.path, seed: seed &+ UInt64(index) &* 7919, calendar: calendar)
            )
        }
    }

    func close() {
        for replica in replicas { replica.close() }
        root.remove()
    }

    func now(_ index: Int) -> Date { time.addingTimeInterval(replicas[index].skew) }

    func advance(seconds: TimeInterval) { time.addTimeInterval(seconds) }

    func note(_ text: String) {
        trace.append(String(format: "%8.3f ", time.timeIntervalSince(Self.origin)) + text)
    }

    // MARK: Replicas

    /// Imports history weigh-ins (indexes of `historyWeighIns`) before the replica joins, as `w8 import` does.
    func addHistory(_ index: Int, weighIns: [Int], noteVariant: Bool = false) throws {
        let replica = replicas[index]
        let entries = weighIns.map { i in
            let item = Self.historyWeighIns[i]
            return WeightEntry(
                weight: item.weight, date: Self.historyDate(i),
                note: noteVariant ? "imported elsewhere" : item.note)
        }
        _ = try replica.tracker(at: now(index)).importEntries(dryRun: false) { importer in
            for entry in entries { try importer.add(entry) }
        }
        note("\(replica.name) imports weigh-ins \(weighIns)\(noteVariant ? " (other notes)" : "")")
    }

    func start(_ index: Int) throws {
        let pass = try replicas[index].syncFolder(at: now(index)).start(folder: replicas[index].folder)
        replicas[index].configMayHaveChanged()
        record(index, pass, "start")
    }

    @discardableResult
    func pass(_ index: Int) throws -> SyncPass {
        // As `w8 sync now` does, with the settings just read (`pass()` would read them itself, as the close of
        // every other command does).
        let pass = try replicas[index].syncFolder(at: now(index)).pass(settings: try replicas[index].settings())
        record(index, pass, "pass")
        return pass
    }

    func record(_ index: Int, _ pass: SyncPass, _ what: String) {
        let name = replicas[index].name
        note(
            "\(name) \(what) at \(Self.clockText(now(index))): wrote \(pass.written) read \(pass.read) "
                + "applied \(pass.applied)" + (pass.rewritten.isEmpty ? "" : " rewrote \(pass.rewritten)"))
        problems += pass.problems.map { "\(name): \($0)" }
        if let renewed = pass.renewedDevice { problems.append("\(name) took a new device id \(renewed)") }
    }

    /// Runs `change` on a replica at its clock, then its pass, as a command does when it closes the database.
    func act(_ index: Int, _ change: (Replica, Date) throws -> Void) throws {
        try change(replicas[index], now(index))
        try pass(index)
    }

    static func clockText(_ date: Date) -> String {
        String(format: "%.3f", date.timeIntervalSince1970)
    }

    // MARK: Files

    func devices(_ index: Int) -> String { SyncFolder.devices(replicas[index].folder) }

    func path(in index: Int, device: String, _ name: String) -> String {
        "\(devices(index))/\(device)/\(name)"
    }

    static func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// The month journals the replica writes, in its own copy of the folder.
    func ownJournalNames(_ index: Int) throws -> [String] {
        let device = try need(replicas[index].device)
        return Self.names("\(devices(index))/\(device)").filter {
            SyncFileName.isJournalInput($0) && !SyncFileName.isConflictCopy($0)
        }
    }

    func ownBytes(_ index: Int, _ name: String) throws -> [UInt8] {
        let device = try need(replicas[index].device)
        return try Self.read(path(in: index, device: device, name))
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every event of the replica's own journal (as its own copy of the folder has it: whole lines only).
    func ownEvents(_ index: Int) throws -> [SyncEvent] {
        var events: [SyncEvent] = []
        for name in try ownJournalNames(index) {
            let chunk = SyncJournalLine.read(try ownBytes(index, name))
            if chunk.waiting || !chunk.badLines.isEmpty {
                problems.append("\(replicas[index].name)'s own \(name) has a torn or damaged line")
            }
            events += chunk.events
        }
        return events
    }

    /// The engine writes `bytes` (the owner's whole file by default) into the target's copy of the owner's
    /// directory, as `name` (a conflict copy's name with `as`).
    func deliver(owner: Int, name: String, to target: Int, as targetName: String? = nil, bytes: [UInt8]? = nil) throws {
        let device = try need(replicas[owner].device)
        let content = try bytes ?? ownBytes(owner, name)
        try write(content, to: path(in: target, device: device, targetName ?? name))
        note(
            "engine: \(replicas[owner].name)'s \(name) → \(replicas[target].name) as \(targetName ?? name), "
                + "\(content.count) bytes")
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Every owner's files, whole, into every other copy of the folder.
    func deliverEverything(among: [Int]? = nil) throws {
        let among = among ?? Array(replicas.indices)
        for owner in among {
            guard let device = replicas[owner].device else { continue }
            for name in Self.names("\(devices(owner))/\(device)")
            where SyncFileName.isJournalInput(name) || name == "meta.json" {
                let bytes = try Self.read(path(in: owner, device: device, name))
                for target in among where target != owner {
                    try write(bytes, to: path(in: target, device: device, name))
                }
            }
        }
        note("engine: everything everywhere")
    }

    /// Delivers everything and passes on every replica until a round changes nothing (at least two rounds).
    func settle(among: [Int]? = nil, maxRounds: Int = 6) throws {
        let among = among ?? Array(replicas.indices)
        for round in 1...maxRounds {
            try deliverEverything(among: among)
            var changed = false
            for index in among {
                let pass = try pass(index)
                if pass.written > 0 || pass.applied > 0 || !pass.rewritten.isEmpty || pass.renewedDevice != nil {
                    changed = true
                }
            }
            if !changed, round >= 2 { return }
        }
        problems.append("the replicas still changed after \(maxRounds) rounds of delivering everything")
    }

    // MARK: States

    /// The replica's state; `settings` are its config file's, read again when not given.
    func snapshot(_ index: Int, settings: Settings? = nil) throws -> ReplicaState {
        let replica = replicas[index]
        var state = ReplicaState()
        state.entries = try replica.database.entries().map {
            ReplicaState.entry(
                ms: ReplicaState.milliseconds($0.date), weight: String($0.weight.value), unit: $0.weight.unit.rawValue,
                note: $0.note, fat: $0.bodyFatPercent.map { String($0) })
        }.sorted()
        state.intake = try replica.database.allIntake().map {
            ReplicaState.intake(
                kind: $0.kind.rawValue, ms: ReplicaState.milliseconds($0.date), volume: $0.volume.map { Int64($0) },
                calories: Int64($0.calories), note: $0.note)
        }.sorted()
        let journey = try replica.database.journeyBackup()
        state.steps = journey.activity.map {
            ReplicaState.steps(
                "\($0.day)/\($0.source.rawValue)", steps: Int64($0.steps), metres: Int64($0.distance))
        }.sorted()
        state.goal = journey.goal.map {
            ReplicaState.goal(
                weight: String($0.weight.value), unit: $0.weight.unit.rawValue,
                set: ReplicaState.milliseconds($0.setAt), start: ReplicaState.milliseconds($0.journeyStartedAt))
        }
        let settings = try settings ?? replica.config.load()
        state.settings = SettingKey.allCases.filter(\.travels).map {
            "\($0.rawValue)=\($0.value(in: settings).description)"
        }
        state.synced = try replica.database.syncedSettings().map { "\($0.key)=\($0.value)" }.sorted()
        return state
    }

    /// The state the merge rule defines for `events`: per entity, the event of the highest stamp.
    static func lastWriterWins(_ events: [SyncEvent]) -> ReplicaState {
        var winners: [String: SyncEvent] = [:]
        for event in events {
            let key = "\(event.kind.rawValue)/\(event.entity)"
            if let current = winners[key], current.stamp >= event.stamp { continue }
            winners[key] = event
        }
        var state = ReplicaState()
        var synced: [String: String] = [:]
        for event in winners.values where event.operation == .put {
            let data = event.data
            switch event.kind {
            case .weight:
                state.entries.append(
                    ReplicaState.entry(
                        ms: data["t"]?.integer ?? -1, weight: data["w"]?.text, unit: data["u"]?.text,
                        note: data["n"]?.text, fat: data["f"]?.text))
            case .intake:
                state.intake.append(
                    ReplicaState.intake(
                        kind: data["k"]?.text, ms: data["t"]?.integer ?? -1, volume: data["v"]?.integer,
                        calories: data["c"]?.integer, note: data["n"]?.text))
            case .steps:
                state.steps.append(
                    ReplicaState.steps(event.entity, steps: data["s"]?.integer, metres: data["m"]?.integer))
            case .goal:
                state.goal = ReplicaState.goal(
                    weight: data["w"]?.text, unit: data["u"]?.text, set: data["set"]?.integer,
                    start: data["start"]?.integer)
            case .setting:
                synced[event.entity] = data["v"]?.text ?? "?"
            case .claim:
                break
            }
        }
        state.entries.sort()
        state.intake.sort()
        state.steps.sort()
        state.settings = SettingKey.allCases.filter(\.travels).map {
            "\($0.rawValue)=\(synced[$0.rawValue] ?? $0.value(in: Settings()).description)"
        }
        state.synced = synced.map { "\($0.key)=\($0.value)" }.sorted()
        return state
    }

    /// `w8 export --format json` of a replica, written by the Exporter the CLI uses on a database opened as the CLI
    /// opens it, without what is the machine's own: the export's time, the local row ids of the weigh-ins, the
    /// milestone state and the achievements (each machine evaluates its milestones and notifies, or not, by itself),
    /// and the settings that do not travel. Rows at the same moment come in local id order: the arrays are sorted.
    /// (The export has no created_at or updated_at: those are local too, and never compared.)
    func exportWithoutLocalParts(_ index: Int, settings: Settings? = nil) throws -> String {
        let replica = replicas[index]
        let path = (replica.directory as NSString).appendingPathComponent("export.json")
        let database = try Exporter.database(at: replica.databasePath, warn: { _ in })
        defer { try? database.close() }
        try Exporter(
            database: database, settings: try settings ?? replica.config.load(), calendar: calendar, now: Self.origin,
            w8Version: "test"
        ).export(.json, withTrend: false, to: TextOutput.replacing(path))
        var document = try need(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        for local in ["exported_at", "achievements", "milestones_achieved"] { document[local] = nil }
        let travelling = Set(SettingKey.allCases.filter(\.travels).map(\.rawValue))
        document["settings"] = (document["settings"] as? [String: Any])?.filter { travelling.contains($0.key) }
        func sorted(_ rows: Any?) throws -> [Any] {
            try ((rows as? [Any]) ?? []).map { row -> (String, Any) in
                var row = row
                if var object = row as? [String: Any] {
                    object["id"] = nil
                    row = object
                }
                let text = String(
                    decoding: try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]), as: UTF8.self)
                return (text, row)
            }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        document["entries"] = try sorted(document["entries"])
        document["intake"] = try sorted(document["intake"])
        document["activity"] = try sorted(document["activity"])
        return String(
            decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted]),
            as: UTF8.self)
    }
}

// MARK: - One random run

/// One seeded run of the property: history, starts, random changes and deliveries, then everything delivered
/// everywhere, and the checks.
private final class ConvergenceRun {
    let seed: UInt64
    let lab: SyncLab
    /// Distinct history weigh-ins any replica imported (the same one on two replicas is one).
    var historyWeighIns: Set<Int> = []

    init(seed: UInt64) throws {
        self.seed = seed
        lab = try SyncLab(seed: seed, replicas: 3)
    }

    /// Nil when the run passes; else the message, with the seed and how to replay it.
    static func outcome(seed: UInt64, verbose: Bool) -> String? {
        let run: ConvergenceRun
        do { run = try ConvergenceRun(seed: seed) } catch { return "seed \(seed): could not set up: \(error)" }
        defer { run.lab.close() }
        var failures: [String]
        do { failures = try run.execute() } catch { failures = ["an action failed: \(error)"] }
        if verbose { print(run.lab.trace.joined(separator: "\n")) }
        guard !failures.isEmpty else { return nil }
        return """
            seed \(seed): the replicas did not converge. Replay it with
              W8_SYNC_PROPERTY_SEED=\(seed) LANG=C.UTF-8 swift test --skip-build --filter SyncConvergence
            \(failures.joined(separator: "\n"))
            Last actions:
            \(run.lab.trace.suffix(60).joined(separator: "\n"))
            """
    }

    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &lab.random) }
    func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    func execute() throws -> [String] {
        try prepareHistory()
        // 1. Each replica joins its copy of the folder, with the engine at work between the starts.
        for index in [0, 1, 2].shuffled(using: &lab.random) {
            lab.advance(seconds: Double(int(1...600)))
            try lab.start(index)
            for _ in 0..<int(0...2) { try deliverRandom() }
        }
        // 2. and 3. Changes on random replicas, each followed by its pass; the engine; passes; clocks.
        for _ in 0..<int(8...30) {
            advanceClock()
            let roll = int(0...99)
            if roll < 55 {
                try change(int(0...2))
            } else if roll < 85 {
                try deliverRandom()
            } else if roll < 95 {
                try lab.pass(int(0...2))
            } else {
                skewClock()
            }
        }
        // 4. Everything everywhere, and passes until nothing changes.
        advanceClock()
        try lab.settle()
        return try check()
    }

    func advanceClock() {
        // Often not at all (the same millisecond), or by milliseconds, minutes or hours.
        let roll = int(0...99)
        var step: TimeInterval = 0
        if roll >= 80 {
            step = Double(int(1...10_800))
        } else if roll >= 40 {
            step = Double(int(1...900))
        } else if roll >= 10 {
            step = Double(int(1...2000)) / 1000
        }
        lab.advance(seconds: step)
    }

    /// A replica's clock goes back (from a second to a day) or jumps ahead.
    func skewClock() {
        let index = int(0...2)
        let back = chance(70)
        let amount = back ? -Double(int(1...86_400)) : Double(int(1...7_200))
        lab.replicas[index].skew += amount
        lab.note("\(lab.replicas[index].name)'s clock moves \(Int(amount)) s (skew \(Int(lab.replicas[index].skew)) s)")
    }

    // MARK: History

    func prepareHistory() throws {
        for index in 0..<3 {
            let replica = lab.replicas[index]
            replica.skew = chance(50) ? 0 : Double(int(-7_200...7_200))
            if chance(60) {
                let chosen = (0..<SyncLab.historyWeighIns.count).filter { _ in chance(50) }
                if !chosen.isEmpty {
                    try lab.addHistory(index, weighIns: chosen, noteVariant: chance(20))
                    historyWeighIns.formUnion(chosen)
                }
            }
            let now = lab.now(index)
            if chance(30) {
                let weight = pick([Weight(75, .kg), Weight(78, .kg), Weight(165, .lb)])
                // Set days ago, or hours ahead of this clock (one that was ahead then, and was put right since).
                let at = now.addingTimeInterval(chance(30) ? Double(int(600...21_600)) : -Double(int(0...172_800)))
                _ = try replica.tracker(at: now).setGoal(weight, at: at)
                lab.note("\(replica.name) history: goal \(weight.value) \(weight.unit) set at \(SyncLab.clockText(at))")
            }
            if chance(40) {
                let at = SyncLab.origin.addingTimeInterval(-Double(int(3...5)) * 86_400 + 9 * 3600)
                _ = try replica.intakeLog(at: now).drink(500, at: at, note: "history")
                lab.note("\(replica.name) history: 500 ml at \(SyncLab.clockText(at))")
            }
            if chance(40) {
                let day = CalendarDay(SyncLab.origin.addingTimeInterval(-4 * 86_400), calendar: lab.calendar)
                let steps = int(1000...20_000)
                _ = try replica.activityLog(at: now).record(steps: steps, on: day)
                lab.note("\(replica.name) history: \(steps) steps on \(day)")
            }
            if chance(40) {
                let (key, value) = pick([(SettingKey.unit, "kg"), (.waterGoal, "2500"), (.stepGoal, "8000")])
                try replica.set(key, to: value)
                lab.note("\(replica.name) history: config \(key.rawValue) \(value)")
            }
        }
    }

    // MARK: Changes

    /// Few weights and few moments: the same weigh-in is often logged twice, on one replica or on two.
    static let weights = [Weight(80.0, .kg), Weight(80.5, .kg), Weight(176.4, .lb)]
    static let notes: [String?] = [nil, nil, "morning", "café ☕", "a \"quote\" and a \\", "two\nlines"]
    static let travelling: [(SettingKey, [String])] = [
        (.unit, ["kg", "lb"]), (.waterGoal, ["1500", "2000", "2500", "3000"]), (.mealCalories, ["0", "450", "600"]),
        (.weighInTime, ["07:00", "07:30", "08:15"]), (.summaryDay, ["sun", "mon", "fri"]),
        (.stepGoal, ["0", "8000", "10000"]), (.volumeUnit, ["ml", "oz"]),
    ]
    static let local: [(SettingKey, [String])] = [
        (.notificationsEnabled, ["true", "false"]), (.quietHoursStart, ["22:00", "23:30"]),
        (.widgetSignal, ["0", "8"]), (.weighIn, ["true", "false"]),
    ]

    /// A weigh-in: most often one of four (two mornings, two weights), else one of a few more, so that the same
    /// one is logged again on one replica or on another, and again once those arrived.
    func weighIn() -> (date: Date, weight: Weight) {
        let midnight = SyncLab.origin.addingTimeInterval(-22 * 3600)
        if chance(60) {
            return (
                midnight.addingTimeInterval(Double(int(-1...0)) * 86_400 + 7 * 3600),
                pick(Array(Self.weights.prefix(2)))
            )
        }
        let time: [Double] = [7 * 3600, 7 * 3600 + 1800]
        return (midnight.addingTimeInterval(Double(int(-3...1)) * 86_400 + pick(time)), pick(Self.weights))
    }

    func intakeDate(_ now: Date) -> Date {
        guard chance(50) else { return now }
        let day = Double(int(-3...2)) * 86_400 - 22 * 3600
        let hour: [Double] = [8, 12, 19]
        return SyncLab.origin.addingTimeInterval(day + pick(hour) * 3600)
    }

    func change(_ index: Int) throws {
        let replica = lab.replicas[index]
        let now = lab.now(index)
        let name = replica.name
        let entries = try replica.database.entries()
        let intake = try replica.database.allIntake()
        // Config changes are rarer than the rest: parsing the config file is most of a debug build's time.
        var roll = int(0...99)
        if (22..<40).contains(roll), entries.isEmpty { roll = 0 }
        if (69..<76).contains(roll), intake.isEmpty { roll = 49 }
        switch roll {
        case 0..<22:
            let (date, weight) = weighIn()
            let entry = WeightEntry(
                weight: weight, date: date, note: pick(Self.notes),
                bodyFatPercent: chance(20) ? 22.5 : nil)
            _ = try replica.tracker(at: now).add(entry)
            lab.note("\(name) add \(entry.weight.value) \(entry.weight.unit) at \(SyncLab.clockText(entry.date))")
        case 22..<33:
            let target = pick(entries)
            let weight = pick(Self.weights)
            let note = pick(Self.notes)
            let date = chance(20) ? weighIn().date : target.date
            _ = try replica.tracker(at: now).edit(id: try need(target.id)) {
                $0.weight = weight
                $0.note = note
                $0.date = date
            }
            lab.note("\(name) edit #\(target.id ?? 0) to \(weight.value) \(weight.unit)")
        case 33..<40:
            let target = pick(entries)
            _ = try replica.tracker(at: now).remove(id: try need(target.id))
            lab.note("\(name) remove #\(target.id ?? 0) (\(target.weight.value) \(target.weight.unit))")
        case 40..<46:
            let weight = pick([Weight(75, .kg), Weight(74, .kg), Weight(68, .kg), Weight(165, .lb)])
            let anchoring = chance(20)
            _ = try replica.tracker(at: now).setGoal(weight, at: now, anchoring: anchoring)
            lab.note("\(name) goal \(weight.value) \(weight.unit)\(anchoring ? " anchored" : "")")
        case 46..<49:
            let removed = try replica.tracker(at: now).clearGoal()
            lab.note("\(name) clear goal (\(removed ? "removed" : "none"))")
        case 49..<62:
            let millilitres = pick([250, 330, 500])
            let beverage = chance(30)
            let date = intakeDate(now)
            _ = try replica.intakeLog(at: now).drink(
                millilitres, beverage: beverage, calories: beverage ? 120 : 0, at: date, note: pick(Self.notes))
            lab.note("\(name) drink \(millilitres) ml at \(SyncLab.clockText(date))")
        case 62..<69:
            let kind = pick([IntakeKind.meal, .snack])
            let calories = chance(50) ? nil : pick([300, 650])
            _ = try replica.intakeLog(at: now).eat(
                kind, calories: calories, at: intakeDate(now), note: pick(Self.notes))
            lab.note("\(name) eat \(kind.rawValue) \(calories.map(String.init) ?? "default") kcal")
        case 69..<76:
            let target = pick(intake)
            _ = try replica.intakeLog(at: now).remove(id: try need(target.id))
            lab.note("\(name) remove intake #\(target.id ?? 0)")
        case 76..<86:
            let day = CalendarDay(
                SyncLab.origin.addingTimeInterval(Double(int(-3...2)) * 86_400), calendar: lab.calendar)
            let steps = int(0...25_000)
            _ = try replica.activityLog(at: now).record(steps: steps, on: day)
            lab.note("\(name) steps \(steps) on \(day)")
        case 86..<96:
            let (key, values) = pick(Self.travelling)
            let value = pick(values)
            try replica.set(key, to: value)
            lab.note("\(name) config \(key.rawValue) \(value)")
        default:
            let (key, values) = pick(Self.local)
            let settings = try replica.set(key, to: pick(values))
            replica.localSettings[key.rawValue] = key.value(in: settings).description
            lab.note("\(name) config (local) \(key.rawValue) \(key.value(in: settings))")
        }
        try lab.pass(index)
    }

    // MARK: The engine

    /// Copies one device's file from one copy of the folder to another: whole, or cut anywhere (mid-line most
    /// often), twice, as a conflict copy beside the original, or as the engine's temporary file. The owner's own
    /// journal is never overwritten in its own copy (it is the newest); conflict copies of it may land there.
    func deliverRandom() throws {
        var candidates: [(source: Int, device: String, name: String)] = []
        for source in 0..<3 {
            for device in SyncLab.names(lab.devices(source)) where SyncIdentity.isDevice(device[...]) {
                for name in SyncLab.names("\(lab.devices(source))/\(device)")
                where SyncFileName.isJournalInput(name) || name == "meta.json" {
                    candidates.append((source, device, name))
                }
            }
        }
        guard !candidates.isEmpty else { return }
        let (source, device, name) = pick(candidates)
        let target = pick([0, 1, 2].filter { $0 != source })
        let owner = lab.replicas.firstIndex { $0.device == device }
        let bytes = try SyncLab.read(lab.path(in: source, device: device, name))
        let isMonth = SyncFileName.isJournalInput(name) && !SyncFileName.isConflictCopy(name)
        let directory = "\(lab.devices(target))/\(device)"
        let cut = Array(bytes.prefix(int(0...bytes.count)))
        var mode = int(0...99)
        if target == owner {
            // The owner's journal is never replaced in its own directory: only a conflict copy of it lands there.
            if name == "meta.json" { return }
            if isMonth { mode = 70 }
        }
        let route = "engine: \(lab.replicas[source].name)'s \(device)/\(name) → \(lab.replicas[target].name)"
        switch mode {
        case 0..<40:
            try lab.write(bytes, to: "\(directory)/\(name)")
            lab.note("\(route) whole, \(bytes.count) bytes")
        case 40..<60:
            try lab.write(cut, to: "\(directory)/\(name)")
            lab.note("\(route) cut at \(cut.count) of \(bytes.count) bytes")
        case 60..<70:
            try lab.write(bytes, to: "\(directory)/\(name)")
            if chance(50) { try lab.pass(target) }
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
            try lab.write(bytes, to: "\(directory)/\(name)")
            lab.note("\(route) whole, twice, \(bytes.count) bytes")
        case 70..<85 where isMonth:
            let copy = conflictName(month: String(name.prefix(7)))
            let content = chance(70) ? bytes : cut
            try lab.write(content, to: "\(directory)/\(copy)")
            lab.note("\(route) as conflict copy \(copy), \(content.count) of \(bytes.count) bytes")
        default:
            // The engine's temporary file of a transfer in progress, never to be read.
            let temporary = chance(50) ? ".syncthing.\(name).tmp" : "~syncthing~\(name).tmp"
            try lab.write(cut, to: "\(directory)/\(temporary)")
            lab.note("\(route) as \(temporary), \(cut.count) bytes")
        }
    }

    /// A conflict copy's name, Syncthing's or Nextcloud's.
    func conflictName(month: String) -> String {
        let parts = PinnedCalendar.utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: lab.time.addingTimeInterval(Double(int(0...600))))
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let day = "\(parts.year ?? 2026)" + two(parts.month) + two(parts.day)
        let clock = two(parts.hour) + two(parts.minute) + two(parts.second)
        if chance(50) {
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
            let device = String((0..<7).map { _ in pick(letters) })
            return "\(month).sync-conflict-\(day)-\(clock)-\(device).jsonl"
        }
        return "\(month) (conflicted copy \(parts.year ?? 2026)-\(two(parts.month))-\(two(parts.day)) \(clock)).jsonl"
    }

    // MARK: Checks

    func check() throws -> [String] {
        var failures = lab.problems
        let events = try (0..<3).flatMap { try lab.ownEvents($0) }
        failures += lab.problems.filter { !failures.contains($0) }
        let expected = SyncLab.lastWriterWins(events)
        let settings = try lab.replicas.map { try $0.config.load() }
        let states = try (0..<3).map { try lab.snapshot($0, settings: settings[$0]) }
        for (index, state) in states.enumerated() where state != expected {
            failures.append(
                "\(lab.replicas[index].name) is not the last-writer-wins of every journal's events:\n"
                    + expected.difference(state, ("the journals", lab.replicas[index].name)))
        }
        for index in 1..<3 where states[index] != states[0] {
            failures.append(
                "r0 and \(lab.replicas[index].name) differ:\n"
                    + states[0].difference(states[index], ("r0", "r\(index)")))
        }
        let exports = try (0..<3).map { try lab.exportWithoutLocalParts($0, settings: settings[$0]) }
        for index in 1..<3 where exports[index] != exports[0] {
            let a = exports[0].split(separator: "\n")
            let b = exports[index].split(separator: "\n")
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            failures.append(
                "the JSON exports of r0 and \(lab.replicas[index].name) differ from line \(first + 1):\n"
                    + "  r0: \(a.dropFirst(first).prefix(3).joined(separator: " "))\n"
                    + "  r\(index): \(b.dropFirst(first).prefix(3).joined(separator: " "))")
        }
        // The machine's own settings stayed on the machine.
        for (replica, settings) in zip(lab.replicas, settings) {
            for key in SettingKey.allCases where !key.travels {
                let expected = replica.localSettings[key.rawValue] ?? key.value(in: Settings()).description
                if key.value(in: settings).description != expected {
                    failures.append(
                        "\(replica.name)'s own \(key.rawValue) is \(key.value(in: settings)), not \(expected)")
                }
            }
        }
        // The same weigh-in imported on two replicas is one entry: no more entries from the history's days than
        // distinct weigh-ins imported (changes never move an entry there).
        for (index, replica) in lab.replicas.enumerated() {
            let old = try replica.database.entries().filter { $0.date < SyncLab.historyEnd }.count
            if old > historyWeighIns.count {
                failures.append(
                    "\(replica.name) has \(old) entries from the history's days, of \(historyWeighIns.count) "
                        + "distinct weigh-ins imported (replica \(index))")
            }
        }
        return failures
    }
}
