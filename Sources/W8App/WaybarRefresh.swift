import CW8Linux
import Foundation

/// Tells the person's status bar that the data changed, as the iOS app's `reloadTimelines` on save did: sends
/// SIGRTMIN+`offset` to every waybar process of this user in this session, the signal a waybar custom module with
/// `"signal": offset` re-runs its command on. Best effort: a process that is gone or not ours is skipped.
public struct WaybarRefresh: StatusBar {
    /// The setting `widget.signal`; 0 sends nothing.
    public var offset: Int
    /// Where processes are listed; `/proc` but for tests.
    public var processRoot: String
    /// This process's `$XDG_RUNTIME_DIR`: a waybar whose environment names another one belongs to another session
    /// (a Wayland client finds its compositor's socket there) and is left alone. Every process of a login shares
    /// one (`/run/user/UID`); nil signals every waybar of this user.
    public var runtimeDirectory: String?

    /// The names a waybar process goes by: its own, and that of NixOS's wrapped binary (`.waybar-wrapped`, whose
    /// wrapper script `exec`s it, so `comm` is the wrapped name while argv[0] may still say `waybar`).
    public static let executableNames: Set<String> = ["waybar", ".waybar-wrapped"]

    public init(offset: Int, processRoot: String = "/proc", runtimeDirectory: String? = nil) {
        self.offset = offset
        self.processRoot = processRoot
        self.runtimeDirectory = runtimeDirectory
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

    /// This user's processes that are waybar by any of their names (see `names(ofProcessIn:)`), in this session.
    func waybarProcesses() -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: processRoot) else { return [] }
        let uid = getuid()
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid > 0 else { return nil }
            let directory = processRoot + "/" + entry
            var info = stat()
            guard stat(directory, &info) == 0, info.st_uid == uid,
                !Self.executableNames.isDisjoint(with: Self.names(ofProcessIn: directory)),
                inThisSession(directory)
            else { return nil }
            return pid
        }
    }

    /// Whether the process's `XDG_RUNTIME_DIR` (from `environ`) is ours; true when either is unknown.
    func inThisSession(_ directory: String) -> Bool {
        guard let runtimeDirectory, let environ = FileManager.default.contents(atPath: directory + "/environ") else {
            return true
        }
        let prefix = Array("XDG_RUNTIME_DIR=".utf8)
        guard let entry = environ.split(separator: 0).first(where: { $0.starts(with: prefix) }) else { return true }
        return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self) == runtimeDirectory
    }

    /// A process's names: its command name (`comm`, at most 15 bytes), and the base names of its executable
    /// (the `exe` link) and of argv[0] (`cmdline` up to the first NUL).
    static func names(ofProcessIn directory: String) -> Set<String> {
        var names: Set<String> = []
        if let comm = try? String(contentsOfFile: directory + "/comm", encoding: .utf8) {
            names.insert(comm.trimmingCharacters(in: .newlines))
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/exe") {
            // A binary replaced on disk since it started reads "/path (deleted)".
            let path = exe.hasSuffix(" (deleted)") ? String(exe.dropLast(10)) : exe
            names.insert(URL(fileURLWithPath: path).lastPathComponent)
        }
        if let cmdline = FileManager.default.contents(atPath: directory + "/cmdline"),
            let argv0 = cmdline.split(separator: 0, omittingEmptySubsequences: false).first, !argv0.isEmpty
        {
            names.insert(URL(fileURLWithPath: String(decoding: argv0, as: UTF8.self)).lastPathComponent)
        }
        return names
    }
}
