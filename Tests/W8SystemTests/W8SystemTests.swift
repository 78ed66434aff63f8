import Foundation
import Glibc
import Testing
import W8System
import W8TestSupport

/// The POSIX layer: errors that name the call, path and errno; the EINTR retry; the atomic file writer.
@Suite struct SystemCallTests {
    @Test("An error names the call, the path and the errno")
    func errorDescription() {
        let error = SystemCallError("open", path: "/nowhere/w8.sqlite", errno: Errno(rawValue: ENOENT))
        #expect(error.description == "open('/nowhere/w8.sqlite') failed: No such file or directory (errno 2)")
        #expect(error.reason == "No such file or directory")
        #expect(
            SystemCallError("eventfd", errno: Errno(rawValue: EMFILE)).description
                == "eventfd failed: Too many open files (errno 24)")
    }

    @Test("A call failing with EINTR is made again; any other failure is returned at once")
    func retriesOnlyInterruptions() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)

        calls = 0
        let failed = retryingOnInterrupt { () -> Int32 in
            calls += 1
            errno = EACCES
            return -1
        }
        #expect(failed == -1 && calls == 1 && errno == EACCES)
    }

    @Test("systemCall throws the errno of a real failure")
    func realFailure() {
        #expect(throws: SystemCallError("open", path: "/proc/nonexistent/x", errno: Errno(rawValue: ENOENT))) {
            try systemCall("open", path: "/proc/nonexistent/x") { open("/proc/nonexistent/x", O_RDONLY) }
        }
    }
}

@Suite struct AtomicFileWriterTests {
    let temporary: TemporaryDirectory
    var directory: URL { temporary.url }

    init() throws {
        temporary = try TemporaryDirectory(prefix: "w8system")
    }

    func contents() throws -> [String] { temporary.contents }

    @Test("commit replaces the target whole, mode 0600, and leaves no temporary file")
    func commitReplaces() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.csv").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)

        let writer = try AtomicFileWriter(replacing: path)
        try writer.write(Array("new,".utf8))
        // Until commit, the target is the old file.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        try writer.write(Array("data\n".utf8))
        try writer.commit()

        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new,data\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try contents() == ["out.csv"])
    }

    @Test("A writer dropped before commit leaves the target as it was and removes its temporary file")
    func abandonKeepsTheTarget() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        try "kept".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let writer = try AtomicFileWriter(replacing: path)
            try writer.write(Array("half".utf8))
            #expect(try contents().count == 2)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept")
        #expect(try contents() == ["config.toml"])
    }

    @Test("commit gives the file the mode it was asked for", arguments: [0o600, 0o640, 0o644] as [mode_t])
    func commitKeepsTheMode(mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("kept-mode.csv").path
        let writer = try AtomicFileWriter(replacing: path, mode: mode)
        try writer.write(Array("x\n".utf8))
        try writer.commit()
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == mode)
        #expect(try contents() == ["kept-mode.csv"])
    }

    /// Given a reader that reads the target over and over, when writers replace it 200 times with 64 KiB files of
    /// one repeated byte each, then every read is one whole file: never empty, short, or two files mixed.
    @Test("A reader never sees a partial file while writers replace it")
    func neverPartial() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("whole.bin").path
        let size = 64 * 1024
        func replace(with byte: UInt8) throws {
            let writer = try AtomicFileWriter(replacing: path)
            // In 4 KiB pieces, so that a target written in place would be seen half done.
            for _ in 0..<(size / 4096) { try writer.write([UInt8](repeating: byte, count: 4096)) }
            try writer.commit()
        }
        try replace(with: 0)
        final class Reads: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            var torn: [String] = []
            var done = false
        }
        let reads = Reads()
        let reader = Thread {
            while !reads.lock.withLock({ reads.done }) {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let whole = data.count == size && data.allSatisfy { $0 == data.first }
                reads.lock.withLock {
                    reads.count += 1
                    if !whole, reads.torn.count < 5 { reads.torn.append("\(data.count) bytes: \(Set(data).sorted())") }
                }
            }
        }
        reader.start()
        for round in 1...200 { try replace(with: UInt8(round % 251)) }
        reads.lock.withLock { reads.done = true }
        while !reader.isFinished { usleep(1_000) }
        #expect(reads.lock.withLock { reads.torn } == [])
        #expect(reads.lock.withLock { reads.count } > 0)
        #expect(try contents() == ["whole.bin"])
    }

    @Test("A directory that does not exist: the error names mkstemp and the path")
    func missingDirectory() {
        let path = directory.appendingPathComponent("missing/out.csv").path
        #expect(throws: SystemCallError("mkstemp", path: path, errno: Errno(rawValue: ENOENT))) {
            _ = try AtomicFileWriter(replacing: path)
        }
    }

    @Test("A rename over a directory fails, the directory is untouched and the temporary file is gone")
    func renameFailure() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("taken").path
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        let writer = try AtomicFileWriter(replacing: path)
        try writer.write(Array("x".utf8))
        #expect {
            try writer.commit()
        } throws: { error in
            (error as? SystemCallError)?.call == "rename"
        }
        #expect(try contents() == ["taken"])
        #expect(FileManager.default.fileExists(atPath: path + "/inside"))
    }
}

/// `runProgram`: posix_spawn and waitpid, the output read to its end, and how the program ended.
@Suite struct ProgramRunTests {
    @Test func itsOutputAndExitStatus() throws {
        let script = "echo out; echo err >&2; exit 3"
        let quiet = try runProgram("/bin/sh", ["-c", script], environment: [:], errorsToo: false)
        #expect(quiet == ProgramRun(exitStatus: 3, signal: nil, output: "out\n"))
        #expect(!quiet.succeeded)
        let both = try runProgram("/bin/sh", ["-c", script], environment: [:], errorsToo: true)
        #expect(both.output == "out\nerr\n")
    }

    @Test func exactlyTheEnvironmentGiven() throws {
        let run = try runProgram("/usr/bin/env", [], environment: ["W8_ONE": "1"], errorsToo: false)
        #expect(run == ProgramRun(exitStatus: 0, signal: nil, output: "W8_ONE=1\n"))
    }

    /// The child starts with no signal blocked, whatever the calling thread blocks (the daemon's blocks SIGTERM).
    @Test func theChildBlocksNoSignalThoughTheCallerDoes() throws {
        var term = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &term, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let run = try runProgram("/bin/grep", ["SigBlk", "/proc/self/status"], environment: [:], errorsToo: false)
        #expect(run.output == "SigBlk:\t0000000000000000\n", "\(run)")
    }

    @Test func aSignalThatEndsItIsReported() throws {
        let run = try runProgram("/bin/sh", ["-c", "kill -TERM $$"], environment: [:], errorsToo: false)
        #expect(run.signal == SIGTERM && run.exitStatus == nil, "\(run)")
    }

    @Test func aProgramThatIsNotThereIsTheSpawnsError() {
        #expect(throws: SystemCallError("posix_spawn", path: "/nonexistent/w8", errno: Errno(rawValue: ENOENT))) {
            try runProgram("/nonexistent/w8", [], environment: [:], errorsToo: false)
        }
    }
}

@Suite struct BoundedFileReaderTests {
    /// Sizes about the buffer's first page and its doublings, and about the limit, under each limit.
    @Test(
        "A file is read whole up to the limit, and one past it is too large with the limit's prefix",
        arguments: [10, 4095, 4096, 10_000, 1 << 20])
    func wholeUpToTheLimit(limit: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("file")
        let sizes = [0, 1, 9, 10, 11, 4095, 4096, 4097, 8192, 8193, limit - 1, limit, limit + 1, 3 * limit]
        for size in Set(sizes.filter { $0 >= 0 }).sorted() {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let expected: BoundedFileContents =
                size <= limit ? .bytes(bytes) : .tooLarge(prefix: Array(bytes[..<limit]))
            // Compared apart, so that a failure names the sizes rather than printing megabytes.
            let same = try readFile(path, limit: limit) == expected
            #expect(same, "size \(size), limit \(limit)")
        }
    }

    @Test("/dev/zero is too large at once, and a file that is not there is missing")
    func endlessAndMissing() throws {
        #expect(try readFile("/dev/zero", limit: 5000) == .tooLarge(prefix: [UInt8](repeating: 0, count: 5000)))
        #expect(try readFile("/nonexistent/w8-\(getpid())", limit: 5000) == .missing)
    }
}
