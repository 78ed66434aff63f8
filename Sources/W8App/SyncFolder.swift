import Foundation
import W8Core
import W8Formats
import W8Store
import W8System
import W8Text

/// A device in the folder, as `w8 sync status` shows it.
public struct SyncDeviceStatus: Sendable, Equatable {
    public var id: String
    public var name: String?
    public var isThisMachine: Bool
    /// Events merged from it (or written by it, for this machine).
    public var events: Int64
    /// Its latest event's clock, as a date.
    public var lastEvent: Date?
    /// When it last wrote, by its own meta.json.
    public var lastActive: Date?
    /// Its clock runs ahead of this machine's by more than `SyncFolder.clockAheadLimit`.
    public var clockAhead: Bool
}

/// What `w8 sync status` reports.
public struct SyncStatus: Sendable {
    public var folder: String?
    public var device: String?
    public var devices: [SyncDeviceStatus] = []
    /// Bytes left for the next merge: a last line without its newline, or one whose checksum fails.
    public var waiting: [(file: String, bytes: Int64)] = []
    /// Conflict copies the sync engine made, read as more input.
    public var conflictCopies: [String] = []
    /// What is wrong, one line each.
    public var problems: [String] = []
}

/// What one pass over the folder did.
public struct SyncPass: Sendable {
    /// This machine's events appended to its journal.
    public var written = 0
    /// Other machines' events read, and those that changed something here.
    public var read = 0
    public var applied = 0
    /// Journal months of this machine rewritten from its database, after they went missing.
    public var rewritten: [String] = []
    /// Set when another machine wrote under this machine's id: the new id this machine took.
    public var renewedDevice: String?
    public var problems: [String] = []
}

/// One history on every machine: this machine's journal in a folder a sync engine (Syncthing, Nextcloud) keeps in
/// step, and the other machines' journals merged into this database. The database never goes into the folder.
///
///     FOLDER/w8trackr/devices/DEVICE/YYYY-MM.jsonl   one writer per file: its device
///     FOLDER/w8trackr/devices/DEVICE/meta.json       its name and when it was last active
public struct SyncFolder: Sendable {
    public let database: AppDatabase
    public let config: ConfigFile
    public let now: Date
    public let calendar: Calendar
    /// This machine's name, for meta.json.
    public let hostName: String
    /// Random bits, for a new device id.
    public let random: @Sendable () -> UInt64
    /// Runs after a merge changed data: the milestone rules (silent), the weigh-in reminder, the status bar.
    public let afterMerge: @Sendable (SyncMergeResult) -> Void
    /// Runs inside the merge's transaction when it changed data: the milestone rules, silent
    /// (`Tracker.recordMergedMilestones`), committed with the merge.
    public var inMerge: @Sendable (StoreTransaction) throws -> Void = { _ in }

    public init(
        database: AppDatabase, config: ConfigFile, now: Date, calendar: Calendar, hostName: String,
        random: @escaping @Sendable () -> UInt64, afterMerge: @escaping @Sendable (SyncMergeResult) -> Void
    ) {
        self.database = database
        self.config = config
        self.now = now
        self.calendar = calendar
        self.hostName = hostName
        self.random = random
        self.afterMerge = afterMerge
    }

    /// How long after its hour this machine sends the weekly summary: 0 on the first device of the folder (by id),
    /// 30 s more on each next one. Its claim reaches the others within seconds through the sync engine, and they
    /// post nothing (`Schedule.summaryDelay`).
    /// The devices are the folder's device directories: a machine that joined has one, even before it wrote an
    /// event.
    public static func summaryDelay(_ database: AppDatabase) -> TimeInterval {
        guard let me = try? database.syncSelf(), let folder = me.folder else { return 0 }
        let ahead = deviceDirectories(folder).map { ($0 as NSString).lastPathComponent }.filter { $0 < me.device }
        return Double(ahead.count) * 30
    }

    /// A clock further ahead of this machine's than this is flagged in `w8 sync status`.
    public static let clockAheadLimit: TimeInterval = 300

    /// Every device directory in `folder`.
    public static func deviceDirectories(_ folder: String) -> [String] {
        (JournalFiles.list(devices(folder)) ?? []).filter { SyncIdentity.isDevice($0[...]) }.map {
            (devices(folder) as NSString).appendingPathComponent($0)
        }
    }

    static func root(_ folder: String) -> String { (folder as NSString).appendingPathComponent("w8trackr") }
    public static func devices(_ folder: String) -> String {
        (root(folder) as NSString).appendingPathComponent("devices")
    }
    static func directory(_ folder: String, device: String) -> String {
        (devices(folder) as NSString).appendingPathComponent(device)
    }

    // MARK: Commands

    /// `w8 sync start DIR`: joins the folder, creating `DIR/w8trackr` if needed, and writes this machine's history
    /// into its journal; then merges what the folder already holds.
    public func start(folder: String) throws -> SyncPass {
        let folder = (folder as NSString).standardizingPath
        guard folder.hasPrefix("/") else {
            // TRANSLATORS: `w8 sync start DIR` with a relative DIR; {path} is it.
            throw AppError.badInput(tr("{path}: give the folder's full path", ["path": folder]))
        }
        guard JournalFiles.isDirectory(folder) else {
            throw AppError.badInput(
                tr(
                    // TRANSLATORS: `w8 sync start DIR` with a DIR that is no directory; {path} is it.
                    "{path}: no such directory (create it, or give the folder your sync engine shares)",
                    ["path": folder]))
        }
        let settings = try config.load()
        let values = SettingKey.allCases.filter(\.travels).compactMap { key -> (String, String)? in
            let value = key.value(in: settings).description
            return value == key.value(in: Settings()).description ? nil : (key.rawValue, value)
        }
        let me = try database.joinSync(
            folder: folder, newDevice: SyncIdentity.device(random: random()), name: hostName, settings: values)
        try prepareDirectory(folder, device: me.device)
        _ = try database.drainSync(now: now, history: true, encode: SyncJournalLine.encodeWithSum)
        var pass = try self.pass(settings: settings)
        try writeMeta(folder, device: me.device)
        pass.written += 0
        return pass
    }

    /// `w8 sync stop`: leaves the folder. The data here and the journal there stay.
    public func stop() throws -> String? {
        guard let me = try database.syncSelf(), let folder = me.folder else { return nil }
        _ = try flush(me: me, folder: folder)
        try database.leaveSync()
        return folder
    }

    func prepareDirectory(_ folder: String, device: String) throws {
        for path in [Self.root(folder), Self.devices(folder)] {
            do throws(SystemCallError) { try JournalFiles.ensureDirectory(path, mode: 0o755) } catch {
                throw AppError.cannotWrite(error.localizedDescription)
            }
        }
        do throws(SystemCallError) {
            try JournalFiles.ensureDirectory(Self.directory(folder, device: device), mode: 0o700)
        } catch {
            throw AppError.cannotWrite(error.localizedDescription)
        }
    }

    func writeMeta(_ folder: String, device: String) throws {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let text = "{\"name\":\(SyncJournalLine.quoted(hostName)),\"active\":\(millis)}\n"
        let path = (Self.directory(folder, device: device) as NSString).appendingPathComponent("meta.json")
        do throws(SystemCallError) { try JournalFiles.replace(path, with: text) } catch {
            throw AppError.cannotWrite(error.localizedDescription)
        }
    }

    // MARK: The pass

    /// Merges what has arrived and writes what this machine changed: the person's changed settings and every
    /// changed row become events, appended to this machine's journal; a journal month of this machine's that went
    /// missing is written again from the database; then every device's new bytes are read and merged. Nothing when
    /// this machine is in no folder.
    @discardableResult
    public func pass(settings: Settings? = nil) throws -> SyncPass {
        guard var me = try database.syncSelf(), let folder = me.folder else { return SyncPass() }
        var pass = SyncPass()
        let settings = try settings ?? config.load()
        try recordSettingChanges(settings)
        _ = try database.drainSync(now: now, encode: SyncJournalLine.encodeWithSum)
        me = try database.syncSelf() ?? me
        guard JournalFiles.isDirectory(folder) else {
            // TRANSLATORS: a problem `w8 sync status` and `w8 doctor` show; {path} is the sync folder.
            pass.problems.append(tr("{path}: the sync folder is missing; nothing was merged", ["path": folder]))
            return pass
        }
        try prepareDirectory(folder, device: me.device)
        pass.written = try flush(me: me, folder: folder)
        pass.rewritten = try rewriteMissing(me: me, folder: folder)
        var (events, problems, clone, cursors) = try readNew(me: me, folder: folder)
        pass.problems += problems
        if clone {
            let device = SyncIdentity.device(random: random())
            try database.renewSyncDevice(device)
            pass.renewedDevice = device
            me = try database.syncSelf() ?? me
            try prepareDirectory(folder, device: device)
            try writeMeta(folder, device: device)

        }
        pass.read = events.count
        if !events.isEmpty || !cursors.isEmpty {
            // One commit: the cursors, the events and the milestone rules they call for.
            let result = try database.mergeSync(events, now: now, cursors: cursors, within: inMerge)
            pass.applied = result.applied
            // Each setting another machine changed, into config.toml; one this version cannot hold (unknown, or out
            // of its range) is named and left as it is here, and is not journaled back (`recordSettingChanges`).
            for (key, value) in result.settings {
                do {
                    guard let setting = SettingKey(rawValue: key) else { throw W8CoreError.unknownSetting(key) }
                    try config.set(setting, to: value)
                } catch {
                    // TRANSLATORS: a problem `w8 sync status` shows; {key} and {value} are a setting another machine
                    // changed, {reason} why this machine cannot take it.
                    pass.problems.append(
                        tr(
                            "setting {key} = {value} from another machine was not taken: {reason}",
                            ["key": key, "value": value, "reason": error.localizedDescription]))
                }
            }
            if result.changedData { afterMerge(result) }
        }
        if pass.written > 0 { try writeMeta(folder, device: me.device) }
        return pass
    }

    /// The person's settings that changed here since they were last journaled or merged: each becomes an event.
    func recordSettingChanges(_ settings: Settings) throws {
        let known = try database.syncedSettings()
        let defaults = Settings()
        let changed = SettingKey.allCases.filter(\.travels).compactMap { key -> (String, String)? in
            let value = key.value(in: settings).description
            if let was = known[key.rawValue] {
                // A value merged from another machine that this one cannot hold is not overwritten with this
                // machine's: the two would undo each other's change for ever.
                guard Self.holds(key, was) else { return nil }
                return was == value ? nil : (key.rawValue, value)
            }
            return value == key.value(in: defaults).description ? nil : (key.rawValue, value)
        }
        try database.recordSettings(changed)
    }

    /// Whether this version takes `text` as `key`'s value.
    static func holds(_ key: SettingKey, _ text: String) -> Bool {
        var settings = Settings()
        return (try? key.apply(try key.parse(text), to: &settings)) != nil
    }

    /// Appends the outbox to this machine's journal months, durably, then forgets it. Returns the lines written.
    func flush(me: SyncSelf, folder: String) throws -> Int {
        let outbox = try database.syncOutbox()
        guard let last = outbox.last?.sequence else { return 0 }
        let directory = Self.directory(folder, device: me.device)
        var months: [String: [String]] = [:]
        for line in outbox { months[line.month, default: []].append(line.line) }
        for (month, lines) in months.sorted(by: { $0.key < $1.key }) {
            let path = (directory as NSString).appendingPathComponent(month + ".jsonl")
            do throws(SystemCallError) { try JournalFiles.append(path, lines: lines) } catch {
                throw AppError.cannotWrite(error.localizedDescription)
            }
        }
        try database.clearSyncOutbox(through: last)
        return outbox.count
    }

    /// Writes again, from the database, the months of this machine's journal that are no longer in the folder
    /// (deleted there, or on another machine): the events that still hold their entity's state.
    func rewriteMissing(me: SyncSelf, folder: String) throws -> [String] {
        let directory = Self.directory(folder, device: me.device)
        let present = Set(JournalFiles.list(directory) ?? [])
        let missing = me.months.filter { !present.contains($0 + ".jsonl") }
        guard !missing.isEmpty else { return [] }
        let lines = try database.ownSyncLines(encode: SyncJournalLine.encode)
        for month in missing.sorted() {
            let path = (directory as NSString).appendingPathComponent(month + ".jsonl")
            do throws(SystemCallError) {
                try JournalFiles.append(path, lines: lines.filter { $0.month == month }.map(\.line))
            } catch {
                throw AppError.cannotWrite(error.localizedDescription)
            }
        }
        return missing.sorted()
    }

    /// The events in every journal's bytes not read yet (each file from its cursor), the problems found, and whether
    /// another machine writes under this machine's id.
    func readNew(me: SyncSelf, folder: String) throws -> (
        events: [SyncEvent], problems: [String], clone: Bool, cursors: [String: SyncCursor]
    ) {
        var moved: [String: SyncCursor] = [:]
        let devicesPath = Self.devices(folder)
        var cursors = try database.syncCursors()
        var own: [Int64: String]?
        var events: [SyncEvent] = []
        var problems: [String] = []
        var clone = false
        for device in JournalFiles.list(devicesPath) ?? [] where SyncIdentity.isDevice(device[...]) {
            let directory = (devicesPath as NSString).appendingPathComponent(device)
            for name in JournalFiles.list(directory) ?? [] where SyncFileName.isJournalInput(name) {
                let relative = "devices/\(device)/\(name)"
                let path = (directory as NSString).appendingPathComponent(name)
                // A file as it was at the last pass has nothing new: one lstat, not an open and a read.
                guard let identity = JournalFiles.identity(path), identity != cursors[relative]?.file else {
                    continue
                }
                var offset = cursors[relative]?.offset ?? 0
                // The bytes before the cursor, read again: when they are no longer what was read (the engine put
                // another version of the file there, as in a conflict), the whole file is read again.
                var back = Int(min(offset, 32))
                var contents: (size: Int64, bytes: [UInt8])
                do throws(SystemCallError) {
                    guard let read = try JournalFiles.read(path, from: offset - Int64(back)) else { continue }
                    contents = read
                    if contents.size < offset || Self.hex(contents.bytes.prefix(back)) != cursors[relative]?.tail ?? ""
                    {
                        offset = 0
                        back = 0
                        guard let again = try JournalFiles.read(path, from: 0) else { continue }
                        contents = again
                    }
                } catch {
                    problems.append(error.localizedDescription)
                    continue
                }
                let before = contents.bytes.prefix(back)
                contents.bytes.removeFirst(back)
                let chunk = SyncJournalLine.read(contents.bytes, startingAt: Int(offset))
                for event in chunk.events {
                    if event.device == me.device {
                        // This machine's own line, or another machine's under the same id (a cloned home).
                        if own == nil { own = try database.ownSyncSums() }
                        if own?[event.sequence] == SyncJournalLine.sum(event) { continue }
                        clone = true
                    }
                    events.append(event)
                }
                let bad = chunk.badLines.map(String.init).joined(separator: ",")
                for line in chunk.badLines {
                    problems.append(
                        tr(
                            // TRANSLATORS: a problem `w8 sync status` shows; {file} is a journal, {offset} a byte offset.
                            "{file}: the line at byte {offset} is damaged; it was skipped",
                            ["file": relative, "offset": line]))
                }
                if device == me.device, chunk.waiting, !clone, contents.bytes.last != 10,
                    !SyncFileName.isConflictCopy(name)
                {
                    // A line of this machine's own that a killed process left without its newline: cut it (this
                    // machine is the file's one writer), so that the engine never copies it.
                    do throws(SystemCallError) { try JournalFiles.append(path, lines: []) } catch {
                        problems.append(error.localizedDescription)
                    }
                }
                let newOffset = offset + Int64(chunk.consumed)
                let read = before + contents.bytes.prefix(chunk.consumed)
                let cursor = SyncCursor(
                    offset: newOffset, waiting: contents.size - newOffset, badLines: bad, file: identity,
                    tail: Self.hex(read.suffix(32)))
                cursors[relative] = cursor
                moved[relative] = cursor
            }
        }
        return (events, problems, clone, moved)
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    // MARK: Status

    /// The folder, the devices, the bytes waiting and the problems, after a pass (none without `merging`: for the
    /// doctor, which changes nothing).
    public func status(merging: Bool = true) throws -> SyncStatus {
        var status = SyncStatus()
        guard let me = try database.syncSelf() else { return status }
        status.device = me.device
        guard let folder = me.folder else { return status }
        status.folder = folder
        if merging { status.problems = try pass().problems }
        let me2 = try database.syncSelf() ?? me
        let records = try database.syncDevices()
        var ids = Set(records.map(\.device))
        ids.insert(me2.device)
        for id in JournalFiles.list(Self.devices(folder)) ?? [] where SyncIdentity.isDevice(id[...]) { ids.insert(id) }
        for id in ids.sorted() {
            let record = records.first { $0.device == id }
            let meta = readMeta(folder, device: id)
            let mine = id == me2.device
            let clock = mine ? me2.clock : record?.lastClock
            let lastEvent = clock.flatMap {
                $0.milliseconds > 0 ? Date(timeIntervalSince1970: Double($0.milliseconds) / 1000) : nil
            }
            status.devices.append(
                SyncDeviceStatus(
                    id: id, name: mine ? hostName : meta.name, isThisMachine: mine,
                    events: mine ? me2.sequence : record?.events ?? 0, lastEvent: lastEvent, lastActive: meta.active,
                    clockAhead: !mine && (lastEvent.map { $0.timeIntervalSince(now) > Self.clockAheadLimit } ?? false)))
        }
        for device in status.devices where device.clockAhead {
            status.problems.append(
                tr(
                    // TRANSLATORS: a problem `w8 sync status` shows; {device} is a device's name or id.
                    "{device}: its clock is ahead of this machine's; check its date and time",
                    ["device": device.name ?? device.id]))
        }
        for (file, cursor) in try database.syncCursors().sorted(by: { $0.key < $1.key }) {
            if cursor.waiting > 0 { status.waiting.append((file, cursor.waiting)) }
            if SyncFileName.isConflictCopy((file as NSString).lastPathComponent) { status.conflictCopies.append(file) }
        }
        return status
    }

    func readMeta(_ folder: String, device: String) -> (name: String?, active: Date?) {
        let path = (Self.directory(folder, device: device) as NSString).appendingPathComponent("meta.json")
        guard let contents = try? JournalFiles.read(path, from: 0), contents.bytes.count < 4096,
            let object = try? JSONSerialization.jsonObject(with: Data(contents.bytes)) as? [String: Any]
        else { return (nil, nil) }
        let active = (object["active"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
        return ((object["name"] as? String).map { String($0.prefix(64)) }, active)
    }
}
