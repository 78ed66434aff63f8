import Foundation
import W8TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// How long the fault tests run: the figures for `make test`, or with `W8_SOAK=1` (`make soak`) the long ones.
public enum FaultBudget {
    public static var isSoak: Bool { ProcessInfo.processInfo.environment["W8_SOAK"] == "1" }

    public static func pick(test: Int, soak: Int) -> Int { isSoak ? soak : test }

    /// One line of figures for `make soak` to report.
    public static func report(_ line: String) { print("soak figures: \(line)") }

    /// A line appended at once to the file `$W8_SOAK_LOG` names (`make soak` shows it as the run goes), or else
    /// written to stderr. `swift test` holds back what the tests print until they end.
    public static func progress(_ line: String) {
        let data = Data("soak progress: \(line)\n".utf8)
        guard let path = ProcessInfo.processInfo.environment["W8_SOAK_LOG"] else {
            FileHandle.standardError.write(data)
            return
        }
        // One write(2) of a whole line with O_APPEND: lines from tests running at once stay whole.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return FileHandle.standardError.write(data) }
        defer { close(fd) }
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
    }
}

/// How far a fault test has come and how fast it goes: a progress line every `every` rounds (and after the last),
/// and at the end one line of figures: rounds, rows, seconds, `w8` runs and rows per second, and the seed.
public final class SoakMeter: @unchecked Sendable {
    public let name: String
    public let rounds: Int
    public let seed: UInt64?
    let every: Int
    let start = Date()
    private let lock = NSLock()
    private var runs = 0

    public init(_ name: String, rounds: Int, seed: UInt64? = nil, every: Int = 10) {
        self.name = name
        self.rounds = rounds
        self.seed = seed
        self.every = every
    }

    public var seconds: Double { Date().timeIntervalSince(start) }

    /// Counts `count` runs of `w8`.
    public func ran(_ count: Int = 1) { lock.withLock { runs += count } }

    public var executions: Int { lock.withLock { runs } }

    /// After round `index` (from 0): a progress line every `every` rounds and after the last one.
    public func finished(round index: Int, _ detail: @autoclosure () -> String) {
        let done = index + 1
        guard done % every == 0 || done == rounds else { return }
        FaultBudget.progress(
            "\(name): round \(done)/\(rounds), \(String(format: "%.0f", seconds)) s, \(executions) w8 runs; \(detail())"
        )
    }

    /// The figures: `rows` is what the test wrote (and checked) in all.
    public func report(rows: Int, _ detail: String) {
        let time = max(seconds, 0.001)
        let rates = String(
            format: "%.1f s, %d w8 runs (%.1f/s), %.1f rows/s", time, executions, Double(executions) / time,
            Double(rows) / time)
        let figures = "\(name): \(rounds) rounds, \(rows) rows, " + rates
        FaultBudget.report(figures + (seed.map { ", seed \($0)" } ?? "") + "; " + detail)
    }
}

/// Whether the tests run as root, which mounting a tmpfs and owning files for another user need.
public let runningAsRoot = getuid() == 0

/// Whether `scripts/install-deps` made the unprivileged user the permission tests run as.
public let unprivilegedUserExists = getpwnam(SessionUser.unprivilegedName) != nil

/// SIGKILL to `pid` and every process under it (`env` or `runuser` runs `w8` as its child).
public func killTree(_ pid: pid_t) {
    for child in childPIDs(of: pid) { killTree(child) }
    kill(pid, SIGKILL)
}

/// `w8` started in the background with its output kept, for tests that kill it or race it.
public final class BackgroundRun: @unchecked Sendable {
    public let process = Process()
    private let directory: TemporaryDirectory
    private let started = Date()

    init(executable: String, arguments: [String], environment: [String: String], user: SessionUser) throws {
        directory = try TemporaryDirectory(prefix: "w8-bg")
        _ = try prepare(process, executable, arguments, environment: environment, user: user, outputIn: directory)
        try launchWithEmptySignalMask(process)
    }

    /// SIGKILL to its process group (Foundation starts each child as the leader of one), which holds every
    /// process it started, even one `faketime` forked a moment ago, and to whatever is still under it.
    public func kill() {
        Glibc.kill(-process.processIdentifier, SIGKILL)
        killTree(process.processIdentifier)
    }

    /// Waits for the exit and returns what it printed; a killed run has status 9 and `killed` set.
    public func wait() -> W8Run {
        process.waitUntilExit()
        func read(_ name: String) -> String {
            (try? String(contentsOf: directory.url.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        return W8Run(
            status: process.terminationStatus, stdout: read("out"), stderr: read("err"),
            seconds: Date().timeIntervalSince(started))
    }

    /// Whether it ended by a signal (the kill) rather than by exiting.
    public var wasKilled: Bool { process.terminationReason == .uncaughtSignal }
}

extension W8Sandbox {
    /// Starts `w8 arguments` (or `through + [w8] + arguments`, such as `faketime -f …`) without waiting.
    public func background(_ arguments: [String], through: [String] = [], environment extra: [String: String] = [:])
        throws -> BackgroundRun
    {
        let command = through.isEmpty ? [executable] + arguments : through + [executable] + arguments
        let program =
            command[0].hasPrefix("/") ? command[0] : try requireExecutable(command[0], debianPackage: command[0])
        return try BackgroundRun(
            executable: program, arguments: Array(command.dropFirst()),
            environment: environment.merging(extra) { $1 }, user: user)
    }

    /// What `sqlite3` prints for `sql` on the database: checks from outside w8.
    public func sqlite(_ sql: String) throws -> String {
        let sqlite3 = try requireExecutable("sqlite3", debianPackage: "sqlite3")
        // sqlite3 reads ~/.sqliterc: the sandbox's HOME has none.
        let output = try runCommand(sqlite3, [databasePath, sql], environment: childEnvironment(in: root))
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "sqlite3 \(sql)", status: output.status, stderr: output.stderr)
        }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The database's bytes and those of its WAL, to show that a command wrote nothing.
    public func databaseBytes() -> [Data?] {
        [databasePath, databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// The number of weight entries, through `w8 log --json`.
    public func entryCount() throws -> Int {
        try (try json("log") as? [[String: Any]] ?? []).count
    }

    /// The number of weight entries, counted by `sqlite3`: `entryCount` reads every row through `w8 log --json`,
    /// which took 62 s at 303,000 rows (the debug build), where this takes milliseconds.
    public func rowCount() throws -> Int {
        let count = try sqlite("SELECT count(*) FROM entry")
        guard let rows = Int(count) else {
            throw NotificationServerFixtureError.unreadableOutput("sqlite3 SELECT count(*)", output: count)
        }
        return rows
    }
}

/// A tmpfs of `size` bytes mounted on `directory` (root only), unmounted by `unmount()` or deinit.
public final class TmpfsMount {
    public let directory: URL

    public init(at directory: URL, size: Int) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mount = try requireExecutable("mount", debianPackage: "mount")
        let output = try runCommand(
            mount, ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "w8-test-tmpfs", directory.path],
            environment: baseChildEnvironment())
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "mount -t tmpfs", status: output.status, stderr: output.stderr)
        }
    }

    /// Writes one file until the file system is full; returns it, to remove when space is to be freed.
    public func fill() throws -> URL {
        let url = directory.appendingPathComponent("filler")
        let fd = open(url.path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw NotificationServerFixtureError.commandFailed("open \(url.path)", status: errno, stderr: "")
        }
        defer { close(fd) }
        for size in [65536, 4096, 512, 1] {
            let chunk = [UInt8](repeating: 0x55, count: size)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) == size {}
        }
        fsync(fd)
        return url
    }

    public func unmount() {
        guard let umount = try? requireExecutable("umount", debianPackage: "mount") else { return }
        _ = try? runCommand(umount, ["-l", directory.path], environment: baseChildEnvironment())
    }

    deinit { unmount() }
}
