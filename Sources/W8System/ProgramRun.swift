import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a program run to its end printed, and how it ended.
public struct ProgramRun: Sendable, Equatable {
    /// Its exit status, or nil when a signal ended it.
    public var exitStatus: Int32?
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// What it wrote to standard output (and standard error, when asked for).
    public var output: String

    public var succeeded: Bool { exitStatus == 0 }

    public init(exitStatus: Int32?, signal: Int32?, output: String) {
        self.exitStatus = exitStatus
        self.signal = signal
        self.output = output
    }
}

/// Runs the program at `path` with `arguments` (its `argv[1...]`) and exactly `environment`, its standard input
/// `/dev/null` and its standard output (with standard error when `errorsToo`, else `/dev/null`) read until it
/// closes; then reaps it.
///
/// `posix_spawn` and `waitpid`, where Foundation's `Process` had a thread of its own and waited through its run
/// loop's timers on the wall clock: a clock set ahead (or libfaketime's, in the tests) left `waitUntilExit` asleep
/// long after the child was gone. The child starts with no signal blocked and every signal at its default, whatever
/// the calling thread blocks (the daemon blocks SIGTERM, SIGINT and SIGHUP for its waiter).
public func runProgram(
    _ path: String, _ arguments: [String], environment: [String: String], errorsToo: Bool
) throws(SystemCallError) -> ProgramRun {
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { throw SystemCallError("pipe") }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    // Neither end leaks into a child another thread spawns meanwhile (the child's own copy is its dup2).
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { if readEnd >= 0 { close(readEnd) } }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    if errorsToo {
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for string in argv + envp { free(string) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    close(writeEnd)
    guard spawned == 0 else { throw SystemCallError("posix_spawn", path: path, errno: Errno(rawValue: spawned)) }

    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = retryingOnInterrupt { read(readEnd, &buffer, buffer.count) }
        guard count > 0 else { break }
        output.append(contentsOf: buffer[0..<count])
    }
    var status: Int32 = 0
    guard retryingOnInterrupt({ waitpid(pid, &status, 0) }) == pid else {
        throw SystemCallError("waitpid", path: path)
    }
    // WIFEXITED and WTERMSIG, which Swift does not import: the low 7 bits are the signal, 0 for an exit.
    let signal = status & 0x7F
    return ProgramRun(
        exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
        output: String(decoding: output, as: UTF8.self))
}
