import Foundation
import Synchronization
import W8TestSupport

/// Two real Syncthing instances on loopback that share one folder, for tests that check that two w8 homes stay in
/// step through it: A sees the shared folder as `folderA`, B as `folderB`.
///
/// Each instance has its own home (`syncthing generate`), its own `HOME` and XDG directories inside one temporary
/// directory, and a configuration that stays on 127.0.0.1: no discovery, relays, NAT, upgrades, usage reports or
/// crash reports, and a reconnection interval of 1 s (the default 60 s made a resumed peer take about 35 s). The
/// folder, id `w8`, watches for changes with a delay of 1 s and retries a failed pull after 1 s; Syncthing keeps
/// its marker `.stfolder` in it. Nothing here sleeps blindly: every wait polls the REST API until a condition holds,
/// and a timeout (times `testTimeScale`) throws with both instances' logs.
///
/// A dials B; B never dials A (see `init`). Each instance is Syncthing's monitor process and its child
/// (`--no-restart` keeps the monitor); `stop()` ends both by their pids.
public final class SyncthingPair: @unchecked Sendable {
    /// One of the two instances.
    public enum Side: Sendable, CaseIterable, CustomStringConvertible {
        case a
        case b

        public var description: String { self == .a ? "A" : "B" }
    }

    /// The id of the shared folder in both instances.
    public static let folderID = "w8"

    /// The shared folder as instance A sees it: the directory the test's w8 "A" uses.
    public let folderA: URL
    /// The shared folder as instance B sees it.
    public let folderB: URL
    /// Who runs both instances and owns their directories and the shared folders.
    public let owner: SessionUser

    private let directory: TemporaryDirectory
    private let a: SyncthingInstance
    private let b: SyncthingInstance
    private let stopped = Mutex(false)
    /// The sides that have paused their peer.
    private let paused = Mutex<Set<Side>>([])

    /// Generates both homes, starts both instances on free loopback ports, introduces them to each other, shares
    /// the folder `w8` (path `folderA` in A, `folderB` in B), and waits until they are connected and the (empty)
    /// folder is in sync (about 1.6 s here); throws with the instances' logs if the API does not answer or they do
    /// not connect within 30 s each, or the folder is not in sync within 60 s (all times `testTimeScale`).
    ///
    /// - Parameter owner: who runs the instances and owns their directories (see `SessionUser`).
    public init(owner: SessionUser = .current) throws {
        let syncthing = try requireExecutable("syncthing", debianPackage: "syncthing")
        self.owner = owner
        directory = try TemporaryDirectory(prefix: "w8-sync", owner: owner)
        do {
            let ports = try freeLoopbackPorts(4)
            a = try SyncthingInstance(
                name: "A", executable: syncthing, directory: directory.subdirectory("a"), guiPort: ports[0],
                listenPort: ports[1], owner: owner)
            b = try SyncthingInstance(
                name: "B", executable: syncthing, directory: directory.subdirectory("b"), guiPort: ports[2],
                listenPort: ports[3], owner: owner)
        } catch {
            directory.remove()
            throw error
        }
        folderA = a.folder
        folderB = b.folder
        do {
            try a.start()
            try b.start()
            for instance in [a, b] {
                try poll("syncthing \(instance.name)'s REST API", timeout: 30) { instance.readDeviceID() }
            }
            // Only A dials: when both did, they met half-way now and then, and one side then waited 20 s for a
            // Hello that never came ("Failed to exchange Hello messages … i/o timeout") before they connected.
            // B knows A as "dynamic", which with discovery off means it never dials. B learns A first: A dials a
            // device the moment it is added, and had B rejected that as unknown, A's next try would have come
            // only after its start-up back-off (dials 1, 2, 4 … 32 s apart in its first minute).
            try b.post(
                "/rest/config/devices", json: ["deviceID": a.deviceID, "name": a.name, "addresses": ["dynamic"]])
            try a.post(
                "/rest/config/devices",
                json: ["deviceID": b.deviceID, "name": b.name, "addresses": ["tcp://127.0.0.1:\(b.listenPort)"]])
            for instance in [a, b] {
                try instance.post(
                    "/rest/config/folders",
                    json: [
                        "id": Self.folderID, "label": Self.folderID, "path": instance.folder.path,
                        "type": "sendreceive", "fsWatcherEnabled": true, "fsWatcherDelayS": 1, "pullerPauseS": 1,
                        "devices": [["deviceID": a.deviceID], ["deviceID": b.deviceID]],
                    ])
            }
            try waitUntil("A and B to connect", timeout: 30) { try self.bothConnected() }
            try waitInSync()
        } catch {
            stop()
            directory.remove()
            throw failure(error)
        }
    }

    deinit {
        stop()
        directory.remove()
    }

    /// The shared folder as `side` sees it.
    public func folder(_ side: Side) -> URL { side == .a ? folderA : folderB }

    /// The device ID of `side`.
    public func deviceID(_ side: Side) -> String { instance(side).deviceID }

    /// Both instances' stdout and stderr so far, for failure messages.
    public var log: String { [a, b].map(\.log).joined(separator: "\n") }

    /// Rescans `side`'s folder now, returning once the scan is done (`POST /rest/db/scan`).
    public func scan(_ side: Side) throws {
        try withLogs { try instance(side).post("/rest/db/scan?folder=\(Self.folderID)") }
    }

    /// Waits until every change made so far on either side has arrived on the other.
    ///
    /// It rescans both folders (a change written just before the call is in the index when that returns), then
    /// waits until the peers are connected and, on each side, the folder is idle with nothing needed, no pull
    /// errors, every global file in sync, the same global counts as the other side, and the peer's completion 100
    /// with nothing needed. Then it rescans both again and accepts only if the same still holds and no sequence
    /// moved: Syncthing goes idle after a pull before it indexes the conflict copies the pull made, and the second
    /// scan indexes them.
    ///
    /// - Parameter timeout: seconds, times `testTimeScale`.
    public func waitInSync(timeout: TimeInterval = 60) throws {
        try withLogs { try waitForSync(timeout: timeout) }
    }

    private func waitForSync(timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout * testTimeScale)
        var last = ""
        while true {
            try scan(.a)
            try scan(.b)
            let remaining = deadline.timeIntervalSinceNow / testTimeScale
            let inSync = {
                let snapshot = try self.syncSnapshot()
                last = snapshot.description
                return snapshot.inSync
            }
            try waitUntil("A and B to be in sync", timeout: max(remaining, 0.1), details: { last }, inSync)
            let before = try syncSnapshot()
            try scan(.a)
            try scan(.b)
            let after = try syncSnapshot()
            last = after.description
            if after.inSync, after.sequences == before.sequences { return }
            guard Date() < deadline else {
                throw failure("timed out waiting for A and B to be in sync (they kept changing)\n\(last)")
            }
        }
    }

    /// Polls `condition` every 100 ms until it is true; throws naming `what`, with both logs, after `timeout`
    /// seconds (times `testTimeScale`), or at once if an instance exits. An error `condition` throws is rethrown.
    public func waitUntil(_ what: String, timeout: TimeInterval = 60, _ condition: () throws -> Bool) throws {
        try waitUntil(what, timeout: timeout, details: { "" }, condition)
    }

    /// Makes `side` pause its peer (`POST /rest/system/pause`), which stops syncing both ways, and waits until
    /// neither side sees the other connected.
    public func pause(_ side: Side) throws {
        try withLogs { try instance(side).post("/rest/system/pause?device=\(peer(side).deviceID)") }
        paused.withLock { _ = $0.insert(side) }
        try waitUntil("A and B to disconnect after \(side) paused its peer", timeout: 30) {
            try !self.a.isConnected(to: self.b) && !self.b.isConnected(to: self.a)
        }
    }

    /// Makes `side` resume the peer it paused (`POST /rest/system/resume`) and, unless the other side has paused
    /// it too, waits until both sides see each other connected.
    ///
    /// Only A dials (see `init`), and Syncthing dials at once only a device it has just added or resumed: when B
    /// resumes, A's next try could be 30 s away (its start-up back-off), so A pauses and resumes B to dial now.
    public func resume(_ side: Side) throws {
        try withLogs { try instance(side).post("/rest/system/resume?device=\(peer(side).deviceID)") }
        let stillPaused = paused.withLock { sides in
            sides.remove(side)
            return !sides.isEmpty
        }
        guard !stillPaused else { return }
        if side == .b {
            try withLogs {
                try a.post("/rest/system/pause?device=\(b.deviceID)")
                try a.post("/rest/system/resume?device=\(b.deviceID)")
            }
        }
        try waitUntil("A and B to reconnect after \(side) resumed its peer", timeout: 30) { try self.bothConnected() }
    }

    /// Stops both instances: SIGTERM to each monitor (which passes it on), then SIGKILL to whatever of the
    /// processes it started is left after 5 s. Idempotent; also runs on deinit. The directories stay until deinit.
    public func stop() {
        let wasStopped = stopped.withLock { done in
            defer { done = true }
            return done
        }
        guard !wasStopped else { return }
        a.terminate()
        b.terminate()
        let deadline = Date().addingTimeInterval(5 * testTimeScale)
        a.waitStopped(until: deadline)
        b.waitStopped(until: deadline)
    }

    private func instance(_ side: Side) -> SyncthingInstance { side == .a ? a : b }
    private func peer(_ side: Side) -> SyncthingInstance { side == .a ? b : a }

    private func bothConnected() throws -> Bool { try a.isConnected(to: b) && b.isConnected(to: a) }

    private func waitUntil(
        _ what: String, timeout: TimeInterval, details: () -> String, _ condition: () throws -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout * testTimeScale)
        while try withLogs(condition) == false {
            for instance in [a, b] where !instance.isRunning {
                throw failure("syncthing \(instance.name) exited while waiting for \(what)")
            }
            guard Date() < deadline else {
                let more = details()
                throw failure("timed out waiting for \(what)" + (more.isEmpty ? "" : "\n" + more))
            }
            usleep(100_000)
        }
    }

    /// Both sides' folder status and their view of each other, read now.
    private func syncSnapshot() throws -> SyncSnapshot {
        SyncSnapshot(
            connected: try bothConnected(),
            statusA: try a.get("/rest/db/status?folder=\(Self.folderID)"),
            statusB: try b.get("/rest/db/status?folder=\(Self.folderID)"),
            completionOfB: try a.get("/rest/db/completion?folder=\(Self.folderID)&device=\(b.deviceID)"),
            completionOfA: try b.get("/rest/db/completion?folder=\(Self.folderID)&device=\(a.deviceID)"))
    }

    /// Polls `value` every 100 ms (an error counts as not yet) until it is true; throws after `timeout` seconds
    /// (times `testTimeScale`), or at once if an instance exits.
    private func poll(_ what: String, timeout: TimeInterval, _ value: () -> Bool) throws {
        try waitUntil(what, timeout: timeout) { value() }
    }

    private func failure(_ message: String) -> SyncthingPairError { SyncthingPairError(message: message, log: log) }

    /// `error` with both logs: an instance's REST errors come without them.
    private func failure(_ error: any Error) -> any Error {
        guard let error = error as? SyncthingPairError else { return failure("\(error)") }
        return error.log.isEmpty ? failure(error.message) : error
    }

    /// Runs `body`, adding both logs to the `SyncthingPairError`s it throws (an instance's REST errors come
    /// without them); other errors pass unchanged.
    private func withLogs<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SyncthingPairError {
            throw failure(error)
        }
    }
}

/// Why a `SyncthingPair` could not be set up or did not reach what a test waited for, with both instances' logs.
public struct SyncthingPairError: Error, CustomStringConvertible {
    public let message: String
    public let log: String

    public var description: String { "\(message)\nThe Syncthing logs:\n\(log)" }
}

/// What `waitInSync` reads from both sides at once.
private struct SyncSnapshot: CustomStringConvertible {
    var connected: Bool
    var statusA: [String: Any]
    var statusB: [String: Any]
    /// A's view of B (`/rest/db/completion` on A for device B), and B's of A.
    var completionOfB: [String: Any]
    var completionOfA: [String: Any]

    static let globalCounts = ["globalFiles", "globalDirectories", "globalSymlinks", "globalBytes"]

    var inSync: Bool {
        guard connected else { return false }
        for status in [statusA, statusB] {
            guard status["state"] as? String == "idle", number(status, "needTotalItems") == 0,
                number(status, "pullErrors") == 0, number(status, "inSyncFiles") == number(status, "globalFiles"),
                number(status, "inSyncBytes") == number(status, "globalBytes")
            else { return false }
        }
        for key in Self.globalCounts where number(statusA, key) != number(statusB, key) { return false }
        for completion in [completionOfA, completionOfB] {
            guard number(completion, "completion") == 100, number(completion, "needItems") == 0,
                number(completion, "needDeletes") == 0,
                (completion["remoteState"] as? String).map({ $0 == "valid" }) ?? true
            else { return false }
        }
        return true
    }

    /// A's and B's local sequences and each one's view of the other's.
    var sequences: [Double?] {
        [
            number(statusA, "sequence"), number(statusB, "sequence"), number(completionOfA, "sequence"),
            number(completionOfB, "sequence"),
        ]
    }

    var description: String {
        func text(_ object: [String: Any]) -> String {
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(object)"
        }
        return """
            connected: \(connected)
            A's folder: \(text(statusA))
            B's folder: \(text(statusB))
            A's view of B: \(text(completionOfB))
            B's view of A: \(text(completionOfA))
            """
    }

    private func number(_ object: [String: Any], _ key: String) -> Double? {
        (object[key] as? NSNumber)?.doubleValue
    }
}

/// One Syncthing instance of a pair: its directories, ports, API key and processes.
private final class SyncthingInstance {
    let name: String
    let executable: String
    let directory: URL
    /// Syncthing's `--home`: keys, `config.xml`, the database.
    let home: URL
    /// The shared folder as this instance sees it.
    let folder: URL
    let guiPort: UInt16
    let listenPort: UInt16
    let apiKey: String
    let owner: SessionUser
    let environment: [String: String]
    let stdoutURL: URL
    private(set) var deviceID = ""
    private var child: ChildProcess?
    /// The pids under the one `Process` started (monitor, its child), as last seen.
    private var seenPIDs: Set<pid_t> = []

    /// Generates the home and edits its `config.xml` for loopback only; starts nothing.
    init(
        name: String, executable: String, directory: URL, guiPort: UInt16, listenPort: UInt16, owner: SessionUser
    ) throws {
        self.name = name
        self.executable = executable
        self.directory = directory
        self.guiPort = guiPort
        self.listenPort = listenPort
        self.owner = owner
        apiKey = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        home = directory.appendingPathComponent("syncthing")
        folder = directory.appendingPathComponent("shared")
        stdoutURL = directory.appendingPathComponent("syncthing-\(name).out")
        for path in ["home", "config", "data", "cache", "state", "syncthing", "shared"] {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try owner.own(url)
        }
        var environment = childEnvironment(in: directory)
        environment["STNOUPGRADE"] = "1"
        environment["STNODEFAULTFOLDER"] = "1"
        self.environment = environment

        let generated = try runCommand(
            executable, ["generate", "--home=\(home.path)", "--no-default-folder", "--skip-port-probing"],
            environment: environment, timeout: 30 * testTimeScale, user: owner)
        guard generated.status == 0 else {
            throw SyncthingPairError(
                message: "syncthing generate for \(name) exited with status \(generated.status)",
                log: generated.stdout + generated.stderr)
        }
        let config = home.appendingPathComponent("config.xml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try loopbackConfiguration(text).write(to: config, atomically: false, encoding: .utf8)
        try owner.own(config)
    }

    /// `config.xml` as generated, with the GUI and the listener on 127.0.0.1 and everything that reaches further
    /// (discovery, relays, NAT, upgrades, reports) off.
    func loopbackConfiguration(_ text: String) throws -> String {
        var text = text
        try replaceElement("address", in: "gui", of: &text, with: "127.0.0.1:\(guiPort)")
        try replaceElement("apikey", in: "gui", of: &text, with: apiKey)
        let options = [
            "listenAddress": "tcp://127.0.0.1:\(listenPort)", "globalAnnounceEnabled": "false",
            "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
            "startBrowser": "false", "crashReportingEnabled": "false", "urAccepted": "-1",
            "autoUpgradeIntervalH": "0", "reconnectionIntervalS": "1", "announceLANAddresses": "false",
            "setLowPriority": "false",
        ]
        for (element, value) in options.sorted(by: { $0.key < $1.key }) {
            try replaceElement(element, in: "options", of: &text, with: value)
        }
        return text
    }

    /// Replaces the text of the first `<element>` inside the first `<section …>` of `text`.
    private func replaceElement(_ element: String, in section: String, of text: inout String, with value: String)
        throws
    {
        guard let sectionStart = text.range(of: "<\(section)>") ?? text.range(of: "<\(section) "),
            let sectionEnd = text.range(of: "</\(section)>", range: sectionStart.upperBound..<text.endIndex),
            let open = text.range(of: "<\(element)>", range: sectionStart.upperBound..<sectionEnd.lowerBound),
            let close = text.range(of: "</\(element)>", range: open.upperBound..<sectionEnd.lowerBound)
        else {
            throw SyncthingPairError(
                message: "config.xml of \(name) has no <\(section)><\(element)> to set", log: text)
        }
        text.replaceSubrange(open.upperBound..<close.lowerBound, with: value)
    }

    /// Starts `syncthing serve`, stdout to `syncthing-NAME.out` and stderr to `syncthing-NAME.log`.
    func start() throws {
        child = try ChildProcess(
            name: "syncthing-\(name)", executable: executable,
            arguments: ["serve", "--home=\(home.path)", "--no-browser", "--no-restart", "--no-upgrade"],
            environment: environment, logDirectory: directory, user: owner, outputFile: stdoutURL)
    }

    var isRunning: Bool { child?.process.isRunning ?? false }

    /// Reads `myID` from `/rest/system/status` into `deviceID`; false while the API does not answer yet.
    func readDeviceID() -> Bool {
        guard let id = (try? get("/rest/system/status"))?["myID"] as? String, !id.isEmpty else { return false }
        deviceID = id
        rememberPIDs()
        return true
    }

    /// Whether `/rest/system/connections` shows `peer` connected.
    func isConnected(to peer: SyncthingInstance) throws -> Bool {
        let connections = try get("/rest/system/connections")["connections"] as? [String: Any]
        return (connections?[peer.deviceID] as? [String: Any])?["connected"] as? Bool ?? false
    }

    /// `GET path`, its JSON object.
    func get(_ path: String) throws -> [String: Any] {
        let body = try request("GET", path)
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw SyncthingPairError(
                message: "GET \(path) on \(name) answered no JSON object: \(String(decoding: body, as: UTF8.self))",
                log: "")
        }
        return object
    }

    /// `POST path`, with `json` as its body if given.
    func post(_ path: String, json: [String: Any]? = nil) throws {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        _ = try request("POST", path, body: body)
    }

    /// One request to this instance's REST API; throws unless it answers 2xx.
    private func request(_ method: String, _ path: String, body: Data? = nil) throws -> Data {
        let response = try httpExchange(
            port: guiPort, method: method, path: path, headers: ["X-API-Key": apiKey], body: body,
            timeout: 30 * testTimeScale)
        guard (200..<300).contains(response.status) else {
            throw SyncthingPairError(
                message: "\(method) \(path) on \(name) answered \(response.status): "
                    + String(decoding: response.body, as: UTF8.self), log: "")
        }
        return response.body
    }

    /// Its stdout and stderr so far.
    var log: String {
        let stdout = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        return "--- syncthing \(name) (GUI 127.0.0.1:\(guiPort), listening on \(listenPort)) ---\n"
            + stdout + (child?.log ?? "")
    }

    /// Adds the processes now under the started one (monitor, child; under `runuser` one level deeper).
    private func rememberPIDs() {
        guard let child, child.process.isRunning else { return }
        seenPIDs.formUnion(descendants(of: child.process.processIdentifier))
    }

    /// SIGTERM to the monitor, which passes it to its child; `waitStopped` waits for both.
    func terminate() {
        guard let child else { return }
        rememberPIDs()
        if child.process.isRunning { kill(child.programPID ?? child.process.processIdentifier, SIGTERM) }
    }

    /// Waits until the processes `terminate` signalled are gone; at `deadline`, SIGKILL to any of them still
    /// running. Idempotent.
    func waitStopped(until deadline: Date) {
        guard let child else { return }
        while child.process.isRunning || seenPIDs.contains(where: isOurs), Date() < deadline { usleep(10_000) }
        for pid in seenPIDs where isOurs(pid) { kill(pid, SIGKILL) }
        if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        child.process.waitUntilExit()
        let reaped = Date().addingTimeInterval(5)
        while seenPIDs.contains(where: isOurs), Date() < reaped { usleep(10_000) }
        self.child = nil
    }

    /// Whether `pid` is still one of this instance's running processes (not exited, not reused by another
    /// program): alive, not a zombie, and its command line names this instance's home.
    private func isOurs(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z",
            let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
        else { return false }
        return String(decoding: commandLine, as: UTF8.self).contains("--home=\(home.path)")
    }
}

/// The pids under `pid`, at any depth, from `/proc/PID/task/*/children`.
private func descendants(of pid: pid_t) -> Set<pid_t> {
    var found: Set<pid_t> = []
    var queue = [pid]
    while let next = queue.popLast() {
        for child in childPIDs(of: next) where found.insert(child).inserted { queue.append(child) }
    }
    return found
}

/// `count` distinct TCP ports free on 127.0.0.1 now: each bound with port 0 (the kernel picks), all held until
/// every one is read, then released.
private func freeLoopbackPorts(_ count: Int) throws -> [UInt16] {
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    var ports: [UInt16] = []
    for _ in 0..<count {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        sockets.append(fd)
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        ports.append(UInt16(bigEndian: address.sin_port))
    }
    return ports
}

private func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
}

/// One blocking HTTP/1.1 request to 127.0.0.1:`port` on a connection of its own (`Connection: close`): the status
/// and the body, de-chunked. Throws if it takes longer than `timeout` seconds.
private func httpExchange(
    port: UInt16, method: String, path: String, headers: [String: String], body: Data?, timeout: TimeInterval
) throws -> (status: Int, body: Data) {
    func failure(_ what: String) -> SyncthingPairError {
        SyncthingPairError(message: "\(method) 127.0.0.1:\(port)\(path): \(what)", log: "")
    }
    let deadline = Date().addingTimeInterval(timeout)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw failure("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw failure("connect: \(String(cString: strerror(errno)))") }

    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
    let request = [UInt8]((head + "\r\n").utf8) + [UInt8](body ?? Data())
    var sent = 0
    while sent < request.count {
        let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { throw failure("send: \(String(cString: strerror(errno)))") }
        sent += count
    }

    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw failure("no complete answer within \(timeout) s") }
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollFD, 1, Int32(min(remaining, 1) * 1000) + 1)
        if ready < 0, errno == EINTR { continue }
        guard ready > 0 else { continue }
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { throw failure("read: \(String(cString: strerror(errno)))") }
        if count == 0 { break }
        response += buffer[..<count]
    }

    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let split = response.indices.first(where: { response[$0...].starts(with: separator) }) else {
        throw failure("no header in \(String(decoding: response, as: UTF8.self).prefix(200))")
    }
    let headLines = String(decoding: response[..<split], as: UTF8.self).components(separatedBy: "\r\n")
    let statusWords = headLines.first?.split(separator: " ") ?? []
    guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
        throw failure("no status in \(headLines.first ?? "")")
    }
    var content = Array(response[(split + separator.count)...])
    let chunked = headLines.dropFirst().contains {
        $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked")
    }
    if chunked {
        guard let decoded = dechunked(content) else { throw failure("a chunked body that does not decode") }
        content = decoded
    }
    return (status, Data(content))
}

/// The body of a `Transfer-Encoding: chunked` message; nil if it is cut short or malformed.
private func dechunked(_ bytes: [UInt8]) -> [UInt8]? {
    var body: [UInt8] = []
    var index = 0
    let crlf: [UInt8] = [13, 10]
    while true {
        guard let lineEnd = bytes[index...].indices.first(where: { bytes[$0...].starts(with: crlf) }) else {
            return nil
        }
        let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
        if size == 0 { return body }
        let start = lineEnd + 2
        guard bytes.count >= start + size + 2 else { return nil }
        body += bytes[start..<(start + size)]
        index = start + size + 2
    }
}
