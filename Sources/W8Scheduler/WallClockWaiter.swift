import CW8Linux
import Foundation
import Glibc
import Synchronization
import W8System

/// What the scheduler waits with: until a wall-clock moment, or until something changes the plan.
/// ``WallClockWaiter`` is the real one; tests drive the scheduler's loop with their own.
public protocol Waiting: Sendable {
    func wait(until date: Date?) -> WaiterWake
}

/// Why ``Waiting/wait(until:)`` returned.
public enum WaiterWake: Equatable, Sendable {
    /// The wall clock reached the date.
    case deadline
    /// Someone set `CLOCK_REALTIME` while the timer was armed (`read()` on the timerfd failed with
    /// ECANCELED). A date computed before may now be wrong; compute it again.
    case clockChanged
    /// A watched file was written, replaced, created, deleted, or had its attributes changed; or the mount table
    /// changed, which can put another file at a watched path (a bind mount over `/etc/localtime`).
    case fileChanged
    /// ``WallClockWaiter/stop()`` was called.
    case stopped
    /// One of the signals the waiter was made with arrived; the associated value is its number.
    case signal(Int32)
    /// ``WallClockWaiter/wake()`` was called: something was handed to the waiting thread.
    case woken
}

/// Blocks a thread until a wall-clock moment, with no polling, and wakes early for the things that must
/// change the plan: the clock was set, a watched file changed, a stop was requested, a signal arrived.
///
/// One thread waits; any thread may call ``stop()``. Concurrent calls to ``wait(until:)`` take turns.
/// Underneath are a `timerfd` on `CLOCK_REALTIME`, an `inotify` instance, an `eventfd`, a `signalfd` and
/// `/proc/self/mountinfo` (which `poll()` reports with `POLLPRI` when the mount table changes), all read by one
/// `poll()` without a timeout.
public final class WallClockWaiter: Waiting {
    public typealias Wake = WaiterWake

    private let timerFD: Int32
    private let stopFD: Int32
    private let wakeFD: Int32
    /// -1 when no signals are handled; `poll()` skips negative descriptors.
    private let signalFD: Int32
    /// -1 when no files are watched.
    private let inotifyFD: Int32
    /// `/proc/self/mountinfo`, polled for `POLLPRI`: inotify does not see a mount over a watched path. -1 when no
    /// files are watched, or without `/proc`.
    private let mountsFD: Int32
    private let watches: Mutex<DirectoryWatches>

    /// Blocks `signals` in the calling thread with `pthread_sigmask(SIG_BLOCK)`, so that they stay pending for
    /// a `signalfd` instead of running their default action.
    ///
    /// A process-directed signal (`kill`) goes to any thread that does not block it. Call this in the main
    /// thread before starting any other thread, so that every thread inherits the mask and the signals reach
    /// only the waiter.
    public static func blockSignals(_ signals: [Int32]) throws {
        let result = signals.withUnsafeBufferPointer { cw8_block_signals($0.baseAddress, $0.count) }
        if result < 0 { throw SystemCallError("pthread_sigmask") }
    }

    /// Opens the descriptors the waiter reads and starts watching.
    ///
    /// - Parameters:
    ///   - paths: files whose changes matter, for example the config file and `/etc/localtime` (a name `*`: every
    ///     file of its directory). The waiter
    ///     watches their parent directories (`inotify_add_watch`), because editors and `timedatectl` replace a
    ///     file by renaming another over it. A directory that does not exist yet is found once it is created:
    ///     until then the nearest existing ancestor is watched. Symbolic links are not followed to their
    ///     targets, and moving a directory above a file's parent goes unnoticed.
    ///   - signals: signals to report, for example `[SIGTERM, SIGINT, SIGHUP]`, read through `signalfd`. They
    ///     are blocked in the calling thread; see ``blockSignals(_:)`` for the other threads.
    /// - Throws: ``SystemCallError`` naming the call that failed.
    public init(watching paths: [String], signals: [Int32]) throws {
        // Descriptors opened so far, closed again if a later step throws.
        var opened: [Int32] = []
        var complete = false
        defer {
            if !complete {
                for fd in opened { _ = close(fd) }
            }
        }
        func open(_ call: String, _ result: Int32) throws -> Int32 {
            guard result >= 0 else { throw SystemCallError(call) }
            opened.append(result)
            return result
        }

        timerFD = try open("timerfd_create", cw8_timerfd_create_realtime())
        stopFD = try open("eventfd", cw8_eventfd_create())
        wakeFD = try open("eventfd", cw8_eventfd_create())
        if signals.isEmpty {
            signalFD = -1
        } else {
            try Self.blockSignals(signals)
            signalFD = try open(
                "signalfd", signals.withUnsafeBufferPointer { cw8_signalfd_create($0.baseAddress, $0.count) })
        }
        var directoryWatches = DirectoryWatches(files: paths.compactMap(WatchedFile.init(path:)))
        if directoryWatches.files.isEmpty {
            inotifyFD = -1
            mountsFD = -1
        } else {
            inotifyFD = try open("inotify_init1", cw8_inotify_create())
            if let error = directoryWatches.rearm(inotify: inotifyFD).error { throw error }
            let mounts = Glibc.open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
            mountsFD = mounts
            if mounts >= 0 { opened.append(mounts) }
        }
        watches = Mutex(directoryWatches)
        complete = true
    }

    /// Watches `paths` instead of the files given so far (see `init(watching:signals:)`; a name `*` is every file
    /// of its directory): the daemon follows the sync folder's device directories as they come.
    public func watch(_ paths: [String]) {
        guard inotifyFD >= 0 else { return }
        let inotify = inotifyFD
        watches.withLock { watches in
            watches.files = paths.compactMap(WatchedFile.init(path:))
            _ = watches.rearm(inotify: inotify)
        }
    }

    deinit {
        for fd in [timerFD, stopFD, wakeFD, signalFD, inotifyFD, mountsFD] where fd >= 0 {
            _ = close(fd)
        }
    }

    /// Waits until `CLOCK_REALTIME` reaches `date`, or something that changes the plan happens.
    ///
    /// The deadline is an absolute `timerfd` (`timerfd_settime` with `TFD_TIMER_ABSTIME |
    /// TFD_TIMER_CANCEL_ON_SET`), so it fires at the right wall-clock time after a suspend and ends with
    /// ``Wake/clockChanged`` when the clock is set; a clock set between two waits, while the earlier deadline
    /// was still armed, makes the next wait return ``Wake/clockChanged`` at once. With `date == nil` there is
    /// no deadline. A date already
    /// past (by `clock_gettime(CLOCK_REALTIME)`) returns ``Wake/deadline`` at once, unless a stop or a signal
    /// is pending. The thread sleeps in a single `poll()` with no timeout: nothing wakes it periodically.
    ///
    /// When several things are ready, the first in this order is returned and the others stay pending for the
    /// next wait: ``Wake/stopped``, ``Wake/signal(_:)``, ``Wake/deadline`` or ``Wake/clockChanged``,
    /// ``Wake/fileChanged``. A deadline therefore is never lost to a file change that came at the same time.
    /// After a change of the mount table, every directory is watched again by its path.
    public func wait(until date: Date?) -> Wake {
        watches.withLock { watches in
            // A clock set after the last wait returned, while its timer was still armed, makes this read fail
            // with ECANCELED: the date may have been computed from the old clock.
            var stale: UInt64 = 0
            if read(timerFD, &stale, MemoryLayout<UInt64>.size) < 0, errno == ECANCELED { return .clockChanged }

            let deadline = date.map(RealtimeInstant.init)
            var timerArmed = false
            if let deadline, deadline > RealtimeInstant.now() {
                timerArmed = cw8_timerfd_arm_absolute(timerFD, deadline.seconds, deadline.nanoseconds) == 0
                if !timerArmed, errno == ECANCELED { return .clockChanged }
            } else {
                _ = cw8_timerfd_disarm(timerFD)
            }

            while true {
                // Without an armed timer (none wanted, already past, or timerfd_settime failed) poll() times out.
                let timeout: Int32 =
                    if let deadline, !timerArmed { deadline.milliseconds(after: RealtimeInstant.now()) } else { -1 }
                var fds = [stopFD, signalFD, timerFD, inotifyFD, wakeFD].map {
                    pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
                }
                // mountinfo is always readable; a changed mount table shows as POLLPRI (and POLLERR), once.
                fds.append(pollfd(fd: mountsFD, events: Int16(POLLPRI), revents: 0))
                let ready = poll(&fds, nfds_t(fds.count), timeout)
                if ready < 0 {
                    let code = errno
                    if code == EINTR || code == EAGAIN || code == ENOMEM { continue }
                    fatalError("WallClockWaiter: \(SystemCallError("poll", errno: Errno(rawValue: code)))")
                }
                // The eventfd is never read: once stopped, every wait returns .stopped.
                if fds[0].revents != 0 { return .stopped }
                if fds[1].revents != 0 {
                    let signal = cw8_signalfd_read(signalFD)
                    if signal > 0 { return .signal(signal) }
                }
                if let deadline, !timerArmed, deadline <= RealtimeInstant.now() { return .deadline }
                if fds[2].revents != 0 {
                    var expirations: UInt64 = 0
                    if read(timerFD, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size {
                        return .deadline
                    }
                    if errno == ECANCELED { return .clockChanged }
                }
                if fds[3].revents != 0, watches.readEvents(inotify: inotifyFD) { return .fileChanged }
                if fds[5].revents & Int16(POLLPRI | POLLERR) != 0 {
                    watches.rewatchAll(inotify: inotifyFD)
                    return .fileChanged
                }
                if fds[4].revents != 0 {
                    var count: UInt64 = 0
                    _ = read(wakeFD, &count, MemoryLayout<UInt64>.size)
                    return .woken
                }
            }
        }
    }

    /// Makes the current wait, or the next one, return ``Wake/woken`` once. Safe from any thread.
    ///
    /// Writes to a second `eventfd`, which the wait reads back.
    public func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes the current wait, and every later one, return ``Wake/stopped``. Safe from any thread.
    ///
    /// Writes to an `eventfd` that ``wait(until:)`` polls.
    public func stop() {
        var one: UInt64 = 1
        _ = write(stopFD, &one, MemoryLayout<UInt64>.size)
    }
}

/// A wall-clock moment as the `timespec` that `timerfd_settime` wants.
struct RealtimeInstant: Comparable {
    /// Seconds since 1970, between 0 and about the year 2255 (the kernel refuses times past 2262).
    var seconds: Int64
    var nanoseconds: Int64

    init(seconds: Int64, nanoseconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Rounds up to the next nanosecond, so the timer never fires before `date`.
    init(_ date: Date) {
        let interval = min(max(date.timeIntervalSince1970, 0), 9_000_000_000)
        let whole = interval.rounded(.down)
        var nanoseconds = Int64(((interval - whole) * 1_000_000_000).rounded(.up))
        var seconds = Int64(whole)
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        self.init(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// `clock_gettime(CLOCK_REALTIME)`.
    static func now() -> RealtimeInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return RealtimeInstant(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }

    /// Milliseconds from `now` until `self`, rounded up, as a `poll()` timeout (0 when past).
    func milliseconds(after now: RealtimeInstant) -> Int32 {
        let nanoseconds = (seconds - now.seconds) * 1_000_000_000 + (self.nanoseconds - now.nanoseconds)
        guard nanoseconds > 0 else { return 0 }
        return Int32(min((nanoseconds + 999_999) / 1_000_000, Int64(Int32.max)))
    }

    static func < (lhs: RealtimeInstant, rhs: RealtimeInstant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}

/// A file whose changes matter, split into the directory to watch and the name to look for in its events.
struct WatchedFile {
    /// Components of the parent directory, from the root.
    var directory: [String]
    /// The file name as bytes, to compare with inotify's names, which need not be UTF-8.
    var name: [UInt8]
    /// How many components of `directory` the current watch covers; `directory.count` when the parent itself
    /// is watched, fewer while it does not exist yet.
    var watchedDepth: Int = -1

    init?(path: String) {
        let components = URL(fileURLWithPath: path).standardizedFileURL.path.split(separator: "/").map(String.init)
        guard let name = components.last else { return nil }
        directory = Array(components.dropLast())
        self.name = Array(name.utf8)
    }

    /// Whether an event's `name` is this file's; the name `*` stands for every file in the directory (a sync
    /// folder's journals, whose names come and go).
    func matches(_ eventName: [UInt8]) -> Bool { name == [UInt8(ascii: "*")] || eventName == name }

    var parentPath: String { Self.path(directory[...]) }
    var watchedPath: String { Self.path(directory.prefix(watchedDepth)) }

    static func path(_ components: ArraySlice<String>) -> String { "/" + components.joined(separator: "/") }
}

/// The inotify watches on the directories of the watched files, and how to read their events.
struct DirectoryWatches {
    var files: [WatchedFile]
    /// Watch descriptors by directory path. Two paths to the same directory share a descriptor.
    var descriptors: [String: Int32] = [:]

    /// Watches, for every file, the deepest existing directory on the way to it, and drops watches no longer
    /// needed.
    ///
    /// - Returns: whether a file's own directory came into view with the file already in it (it was created
    ///   before the watch was), and the first `inotify_add_watch` failure other than a missing directory.
    mutating func rearm(inotify: Int32) -> (appeared: Bool, error: SystemCallError?) {
        var appeared = false
        var firstError: SystemCallError?
        var needed = Set<String>()
        for index in files.indices {
            let file = files[index]
            var depth = file.directory.count
            while depth >= 0 {
                let path = WatchedFile.path(file.directory.prefix(depth))
                if descriptors[path] != nil { break }
                let wd = cw8_inotify_watch_directory(inotify, path)
                if wd >= 0 {
                    descriptors[path] = wd
                    break
                }
                let code = errno
                if code == ENOENT || code == ENOTDIR || code == EACCES {
                    depth -= 1
                } else {
                    firstError =
                        firstError ?? SystemCallError("inotify_add_watch", path: path, errno: Errno(rawValue: code))
                    depth = -1
                }
            }
            if depth < 0 {
                // Keep the watch the file had, if any.
                if file.watchedDepth >= 0, descriptors[file.watchedPath] != nil { needed.insert(file.watchedPath) }
                continue
            }
            let wasParent = file.watchedDepth == file.directory.count
            files[index].watchedDepth = depth
            needed.insert(files[index].watchedPath)
            if depth == file.directory.count, !wasParent, file.watchedDepth >= 0 {
                var status = stat()
                if lstat(file.parentPath + "/" + String(decoding: file.name, as: UTF8.self), &status) == 0 {
                    appeared = true
                }
            }
        }
        for (path, wd) in descriptors where !needed.contains(path) {
            descriptors[path] = nil
            if !descriptors.values.contains(wd) { _ = cw8_inotify_unwatch(inotify, wd) }
        }
        return (appeared, firstError)
    }

    /// Drops every watch and watches each directory again by its path, which a mount may now lead elsewhere.
    mutating func rewatchAll(inotify: Int32) {
        for wd in Set(descriptors.values) { _ = cw8_inotify_unwatch(inotify, wd) }
        descriptors = [:]
        for index in files.indices { files[index].watchedDepth = -1 }
        _ = rearm(inotify: inotify)
    }

    /// Reads every queued event (`read()` on the inotify descriptor) and follows directories that appear or go.
    ///
    /// - Returns: whether an event concerns a watched file.
    mutating func readEvents(inotify: Int32) -> Bool {
        var changed = false
        var needsRearm = false
        // Room for many events; each is a 16-byte header and a NUL-padded name of up to 256 bytes.
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 16 <= count {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = Array(bytes[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 })
                    offset += 16 + length
                    let event = handle(wd: wd, mask: mask, name: name, inotify: inotify)
                    changed = changed || event.changed
                    needsRearm = needsRearm || event.needsRearm
                }
            }
        }
        if needsRearm, rearm(inotify: inotify).appeared { changed = true }
        return changed
    }

    private mutating func handle(
        wd: Int32, mask: UInt32, name: [UInt8], inotify: Int32
    ) -> (changed: Bool, needsRearm: Bool) {
        if mask & CW8_INOTIFY_OVERFLOW != 0 { return (true, true) }
        let directories = Set(descriptors.filter { $0.value == wd }.keys)
        // Events for a watch already dropped, such as the IN_IGNORED after inotify_rm_watch.
        if directories.isEmpty { return (false, false) }
        if mask & CW8_INOTIFY_GONE_EVENTS != 0 {
            for directory in directories { descriptors[directory] = nil }
            // A moved directory keeps its watch, which would follow it to its new name.
            if mask & CW8_INOTIFY_MOVE_SELF != 0 { _ = cw8_inotify_unwatch(inotify, wd) }
            // The watched file went with its directory.
            let lostParent = files.contains { directories.contains($0.parentPath) }
            return (lostParent, true)
        }
        var result = (changed: false, needsRearm: false)
        for file in files {
            if file.watchedDepth == file.directory.count {
                if mask & CW8_INOTIFY_CHANGE_EVENTS != 0, file.matches(name), directories.contains(file.parentPath) {
                    result.changed = true
                }
            } else if file.watchedDepth >= 0, mask & CW8_INOTIFY_APPEAR_EVENTS != 0,
                directories.contains(file.watchedPath), name == Array(file.directory[file.watchedDepth].utf8)
            {
                result.needsRearm = true
            }
        }
        return result
    }
}
