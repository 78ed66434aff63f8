import CW8Linux
import Foundation
import W8App
import W8Core
import W8Store

// Start-up trick, bench row "w8 add posting a milestone / notify-send"; bench/README.md, "Start-up tricks".
/// The database of a command that changes the data, opened on a second thread (`AppDatabase.openAsItIs`) while
/// the main thread reads the environment, the clock, the calendar, config.toml and the command's input.
///
/// The thread finds the database from the XDG variables, each read with `getenv`, not `ProcessInfo.environment`.
/// `Runtime.database()` takes what it opened only for the path it resolves itself. It opens only a database that
/// exists and needs no change, so a command refused for its settings or its input has still created, migrated and
/// written nothing.
final class DatabasePrefetch: @unchecked Sendable {
    private var thread: UInt64 = 0
    /// Written by the thread before it ends, read after it is joined.
    private var opened: (path: String, database: AppDatabase?)?

    private init() {}

    /// Starts opening the database on another CPU (`cw8_thread_start_elsewhere`); nil where there is none.
    static func start() -> DatabasePrefetch? {
        let prefetch = DatabasePrefetch()
        let retained = Unmanaged.passRetained(prefetch)
        let started = cw8_thread_start_elsewhere(
            { context in
                let prefetch = Unmanaged<DatabasePrefetch>.fromOpaque(context!).takeRetainedValue()
                prefetch.opened = DatabasePrefetch.open()
                return nil
            }, retained.toOpaque(), &prefetch.thread)
        guard started == 0 else {
            retained.release()
            return nil
        }
        return prefetch
    }

    /// What the thread does: the path, and the database there if it opens as it is.
    private static func open() -> (path: String, database: AppDatabase?) {
        let xdg = XDGDirectories(
            variable: { name in getenv(name).map { String(cString: $0) } }, accountHome: NSHomeDirectory())
        let path = Paths(xdg: xdg).database
        // A first run creates the database, under its lock, once the settings and the input are known to be good.
        guard access(path, F_OK) == 0 else { return (path, nil) }
        return (path, AppDatabase.openAsItIs(at: path))
    }

    /// Waits for the thread; the database it opened at `path`. Call once. A database opened at another path
    /// (the environment changed in between) is closed as it was found.
    func database(at path: String) -> AppDatabase? {
        cw8_thread_join(thread)
        guard let opened else { return nil }
        if opened.path == path { return opened.database }
        try? opened.database?.close(checkpoint: false)
        return nil
    }
}
