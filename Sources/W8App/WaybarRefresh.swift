import CW8Linux
import Foundation

/// Tells the person's status bar that the data changed, as the iOS app's `reloadTimelines` on save did: sends
/// SIGRTMIN+`offset` to every `waybar` process of this user, the signal a waybar custom module with
/// `"signal": offset` re-runs its command on. Best effort: a process that is gone or not ours is skipped.
public struct WaybarRefresh: StatusBar {
    /// The setting `widget.signal`; 0 sends nothing.
    public var offset: Int
    /// Where processes are listed; `/proc` but for tests.
    public var processRoot: String

    public init(offset: Int, processRoot: String = "/proc") {
        self.offset = offset
        self.processRoot = processRoot
    }

    /// The signal number waybar listens for: SIGRTMIN+offset, or nil when refreshing is off.
    public var signal: Int32? {
        offset > 0 ? cw8_sigrtmin() + Int32(offset) : nil
    }

    public func refresh() { send() }

    /// Signals every waybar process owned by this user and returns their pids.
    @discardableResult
    public func send() -> [pid_t] {
        guard let signal else { return [] }
        return waybarProcesses().filter { kill($0, signal) == 0 }
    }

    /// This user's processes whose command name (`/proc/PID/comm`) is `waybar`.
    func waybarProcesses() -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: processRoot) else { return [] }
        let uid = getuid()
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid > 0 else { return nil }
            let directory = processRoot + "/" + name
            var info = stat()
            guard stat(directory, &info) == 0, info.st_uid == uid,
                let comm = try? String(contentsOfFile: directory + "/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .newlines) == "waybar"
            else { return nil }
            return pid
        }
    }
}
