import Foundation
import W8TestSupport

/// Two real Syncthing instances (Debian's `syncthing`) on loopback, sharing one folder: the sync engine of the sync
/// tests, set up as `../shared/NOTES.md` measured it. Each instance has its own home (keys, `config.xml`, database)
/// in a temporary directory, listens on 127.0.0.1 only, and has discovery, relays, NAT traversal, crash reports,
/// usage reports and upgrades off. Nothing waits blindly: `waitInSync` asks both instances over REST.
public final class SyncthingLoopback: @unchecked Sendable {
    public enum Side: Sendable { case a, b }

    /// The shared folder as instance A sees it, and as B sees it.
    public let folderA: URL
    public let folderB: URL
    let directory: TemporaryDirectory
    let instances: [Instance]

    /// One instance: its home, its ports, its key and its process.
    final class Instance: @unchecked Sendable {
        let name: String
        let home: URL
        let guiPort: Int
        let listenPort: Int
        let apiKey: String
        var deviceID = ""
        var child: ChildProcess?

        init(name: String, home: URL) throws {
            self.name = name
            self.home = home
            (guiPort, listenPort) = (try loopbackFreePort(), try loopbackFreePort())
            apiKey = "w8-test-\(UUID().uuidString)"
        }

        /// GET or POST `path` on the REST API; the body's JSON, or nil for an empty body.
        @discardableResult
        func rest(_ method: String, _ path: String, body: Any? = nil) throws -> Any? {
            let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
            let (status, response) = try loopbackHTTPRequest(
                port: guiPort, method: method, path: path, headers: ["X-API-Key": apiKey], body: payload)
            guard (200..<300).contains(status) else {
                throw NotificationServerFixtureError.commandFailed(
                    "syncthing \(name) \(method) \(path)", status: Int32(status),
                    stderr: String(decoding: response, as: UTF8.self))
            }
            let trimmed = response.drop { $0 == 32 || $0 == 10 || $0 == 13 }
            return trimmed.isEmpty
                ? nil : try JSONSerialization.jsonObject(with: Data(trimmed), options: .fragmentsAllowed)
        }

        func object(_ path: String) throws -> [String: Any] {
            (try rest("GET", path) as? [String: Any]) ?? [:]
        }

        var log: String { child?.log ?? "" }
    }

    /// Generates both instances, starts them, introduces them to each other and shares the folder; returns once
    /// they are connected.
    public init() throws {
        let syncthing = try requireExecutable("syncthing", debianPackage: "syncthing")
        directory = try TemporaryDirectory(prefix: "w8-syncthing")
        folderA = try directory.subdirectory("folder-a")
        folderB = try directory.subdirectory("folder-b")
        let directory = self.directory
        instances = try ["a", "b"].map { try Instance(name: $0, home: try directory.subdirectory("home-\($0)")) }
        do {
            for instance in instances {
                let generated = try runCommand(
                    syncthing,
                    ["generate", "--home=\(instance.home.path)", "--no-default-folder", "--skip-port-probing"],
                    environment: environment(instance), timeout: 60 * testTimeScale)
                guard generated.status == 0 else {
                    throw NotificationServerFixtureError.didNotStart("syncthing generate", log: generated.stderr)
                }
                try loopbackOnly(instance)
                instance.child = try ChildProcess(
                    name: "syncthing-\(instance.name)", executable: syncthing,
                    arguments: [
                        "serve", "--home=\(instance.home.path)", "--no-browser", "--no-restart", "--no-upgrade",
                        "--logflags=0",
                    ],
                    environment: environment(instance), logDirectory: directory.url,
                    outputFile: directory.url.appendingPathComponent("syncthing-\(instance.name).out"))
            }
            for instance in instances {
                try waitUntil("syncthing \(instance.name)'s REST API answers", timeout: 30) {
                    guard let status = try? instance.object("/rest/system/status"), let id = status["myID"] as? String
                    else { return false }
                    instance.deviceID = id
                    return true
                }
            }
            let (a, b) = (instances[0], instances[1])
            for (me, peer) in [(a, b), (b, a)] {
                try me.rest(
                    "POST", "/rest/config/devices",
                    body: ["deviceID": peer.deviceID, "addresses": ["tcp://127.0.0.1:\(peer.listenPort)"]])
            }
            for (me, folder) in [(a, folderA), (b, folderB)] {
                try me.rest(
                    "POST", "/rest/config/folders",
                    body: [
                        "id": "w8", "label": "w8", "path": folder.path, "type": "sendreceive", "fsWatcherEnabled": true,
                        "fsWatcherDelayS": 1, "rescanIntervalS": 3600,
                        "devices": [["deviceID": a.deviceID], ["deviceID": b.deviceID]],
                    ])
            }
            try waitConnected(true)
        } catch {
            let log = self.log
            stop()
            throw NotificationServerFixtureError.didNotStart("two Syncthing instances", log: "\(error)\n\(log)")
        }
    }

    deinit { stop() }

    func environment(_ instance: Instance) -> [String: String] {
        [
            "HOME": instance.home.path, "XDG_CONFIG_HOME": instance.home.path, "STNOUPGRADE": "1",
            "STNODEFAULTFOLDER": "1", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
        ]
    }

    /// Rewrites the generated `config.xml` before the first start: loopback only, no announcements, relays, NAT,
    /// browser, crash or usage reports or upgrades, and a reconnection every second.
    func loopbackOnly(_ instance: Instance) throws {
        let url = instance.home.appendingPathComponent("config.xml")
        var xml = try String(contentsOf: url, encoding: .utf8)
        func replace(_ pattern: String, _ template: String) {
            xml = xml.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        replace("<address>[^<]*</address>(\\s*<apikey>)", "<address>127.0.0.1:\(instance.guiPort)</address>$1")
        replace("<apikey>[^<]*</apikey>", "<apikey>\(instance.apiKey)</apikey>")
        replace(
            "<listenAddress>[^<]*</listenAddress>",
            "<listenAddress>tcp://127.0.0.1:\(instance.listenPort)</listenAddress>")
        for flag in [
            "globalAnnounceEnabled", "localAnnounceEnabled", "relaysEnabled", "natEnabled", "startBrowser",
            "crashReportingEnabled",
        ] {
            replace("<\(flag)>[^<]*</\(flag)>", "<\(flag)>false</\(flag)>")
        }
        replace("<urAccepted>[^<]*</urAccepted>", "<urAccepted>-1</urAccepted>")
        replace("<autoUpgradeIntervalH>[^<]*</autoUpgradeIntervalH>", "<autoUpgradeIntervalH>0</autoUpgradeIntervalH>")
        replace(
            "<reconnectionIntervalS>[^<]*</reconnectionIntervalS>", "<reconnectionIntervalS>1</reconnectionIntervalS>")
        guard xml.contains("127.0.0.1:\(instance.listenPort)"), xml.contains(instance.apiKey) else {
            throw NotificationServerFixtureError.didNotStart("syncthing config", log: xml)
        }
        try xml.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Whether each instance sees the other connected (or, with `false`, disconnected), waited for.
    func waitConnected(_ connected: Bool) throws {
        let (a, b) = (instances[0], instances[1])
        try waitUntil("the two instances \(connected ? "connected" : "disconnected")", timeout: 60) {
            try [(a, b), (b, a)].allSatisfy { me, peer in
                let connections = try me.object("/rest/system/connections")["connections"] as? [String: Any]
                let state = connections?[peer.deviceID] as? [String: Any]
                return (state?["connected"] as? Bool ?? false) == connected
            }
        }
    }

    /// Rescans both sides now, then waits until each side's folder is idle with nothing needed, each side knows
    /// the other has everything (completion 100), and both agree on the global state: every change made on
    /// either side so far has arrived on the other.
    public func waitInSync(timeout: TimeInterval = 60) throws {
        for instance in instances { try instance.rest("POST", "/rest/db/scan?folder=w8") }
        let (a, b) = (instances[0], instances[1])
        var stable = 0
        try waitUntil("the folder in step on both sides", timeout: timeout) {
            let statusA = try a.object("/rest/db/status?folder=w8")
            let statusB = try b.object("/rest/db/status?folder=w8")
            let idle = [statusA, statusB].allSatisfy {
                $0["state"] as? String == "idle" && ($0["needTotalItems"] as? Int ?? 1) == 0
            }
            let complete = try [(a, b), (b, a)].allSatisfy { me, peer in
                let completion = try me.object("/rest/db/completion?folder=w8&device=\(peer.deviceID)")
                return (completion["completion"] as? Double ?? 0) >= 100 && (completion["needItems"] as? Int ?? 1) == 0
            }
            let agree =
                statusA["globalFiles"] as? Int == statusB["globalFiles"] as? Int
                && statusA["globalBytes"] as? Int == statusB["globalBytes"] as? Int
                && statusA["inSyncBytes"] as? Int == statusA["globalBytes"] as? Int
                && statusB["inSyncBytes"] as? Int == statusB["globalBytes"] as? Int
            // Twice in a row: a change the watcher saw but has not scanned yet makes one look idle.
            stable = idle && complete && agree ? stable + 1 : 0
            return stable >= 2
        }
    }

    /// Polls `condition` every 100 ms until it holds; throws naming `what` after `timeout` seconds (scaled).
    public func waitUntil(_ what: String, timeout: TimeInterval = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout * testTimeScale)
        while true {
            if (try? condition()) == true { return }
            guard Date() < deadline else {
                throw NotificationServerFixtureError.timedOut(
                    "waiting for \(what); syncthing logs:\n\(log.suffix(4000))")
            }
            usleep(100_000)
        }
    }

    /// Takes the other side offline from `side`'s point of view (both directions stop), and waits until it is.
    public func pause(_ side: Side) throws {
        let (me, peer) = side == .a ? (instances[0], instances[1]) : (instances[1], instances[0])
        try me.rest("POST", "/rest/system/pause?device=\(peer.deviceID)")
        try waitConnected(false)
    }

    /// Brings the other side back, and waits until the two are connected again.
    public func resume(_ side: Side) throws {
        let (me, peer) = side == .a ? (instances[0], instances[1]) : (instances[1], instances[0])
        try me.rest("POST", "/rest/system/resume?device=\(peer.deviceID)")
        try waitConnected(true)
    }

    /// Stops both instances (SIGTERM, then SIGKILL), and the children the monitor started.
    public func stop() {
        for instance in instances {
            guard let child = instance.child else { continue }
            let children = childPIDs(of: child.process.processIdentifier)
            child.stop(grace: 5)
            for pid in children where kill(pid, 0) == 0 { kill(pid, SIGKILL) }
            instance.child = nil
        }
    }

    /// Both instances' logs, for failure messages.
    public var log: String { instances.map { "--- syncthing \($0.name)\n\($0.log)" }.joined(separator: "\n") }
}

/// A TCP port on 127.0.0.1 that nothing listens on now: bound to port 0, read, closed.
func loopbackFreePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else {
        throw NotificationServerFixtureError.didNotStart("socket", log: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw NotificationServerFixtureError.didNotStart("bind", log: String(cString: strerror(errno))) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// One HTTP/1.0 request to 127.0.0.1:`port` (the server closes the connection, and sends no chunked body): the
/// status code and the body.
func loopbackHTTPRequest(port: Int, method: String, path: String, headers: [String: String], body: Data) throws -> (Int, Data) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else {
        throw NotificationServerFixtureError.didNotStart("socket", log: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else {
        throw NotificationServerFixtureError.didNotStart(
            "connect to 127.0.0.1:\(port)", log: String(cString: strerror(errno)))
    }
    var head = "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
    if !body.isEmpty { head += "Content-Type: application/json\r\n" }
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let request = Data((head + "\r\n").utf8) + body
    try request.withUnsafeBytes { raw in
        var sent = 0
        while sent < raw.count {
            let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            guard n > 0 else {
                throw NotificationServerFixtureError.didNotStart("send", log: String(cString: strerror(errno)))
            }
            sent += n
        }
    }
    var response = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        response.append(contentsOf: buffer[..<n])
    }
    guard let end = response.range(of: Data("\r\n\r\n".utf8)) else {
        throw NotificationServerFixtureError.didNotStart(
            "HTTP from 127.0.0.1:\(port)", log: String(decoding: response, as: UTF8.self))
    }
    let statusLine = String(decoding: response[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first ?? ""
    let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, Data(response[end.upperBound...]))
}
