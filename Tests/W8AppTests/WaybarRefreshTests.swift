import Foundation
import Testing

@testable import W8App

/// Which processes `widget.signal` reaches, read from a fake `/proc`.
@Suite struct WaybarRefreshTests {
    /// A directory laid out like `/proc`, owned by this user, removed at the end.
    final class FakeProc {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("w8-proc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        /// A process `pid` with `comm` (newline-terminated, as the kernel writes it), an `exe` link and argv.
        func add(_ pid: Int, comm: String, exe: String? = nil, argv: [String] = [], environ: [String]? = nil) throws {
            let directory = root.appendingPathComponent(String(pid))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((comm + "\n").utf8).write(to: directory.appendingPathComponent("comm"))
            if let exe {
                try FileManager.default.createSymbolicLink(
                    atPath: directory.appendingPathComponent("exe").path, withDestinationPath: exe)
            }
            let cmdline = argv.map { Data($0.utf8) + Data([0]) }.reduce(Data(), +)
            try cmdline.write(to: directory.appendingPathComponent("cmdline"))
            if let environ {
                try environ.map { Data($0.utf8) + Data([0]) }.reduce(Data(), +)
                    .write(to: directory.appendingPathComponent("environ"))
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test("waybar is found by its command name, its executable or argv[0], wrapped by NixOS or not")
    func findsWaybarUnderEveryName() throws {
        let proc = try FakeProc()
        try proc.add(100, comm: "waybar", exe: "/usr/bin/waybar", argv: ["waybar"])
        // NixOS: the wrapper script execs the real binary with argv[0] kept as the wrapper's path.
        try proc.add(
            101, comm: ".waybar-wrapped", exe: "/nix/store/abc-waybar-0.9.24/bin/.waybar-wrapped",
            argv: ["/run/current-system/sw/bin/waybar", "-c", "config"])
        try proc.add(102, comm: "waybar-worker", exe: "/nix/store/abc-waybar-0.9.24/bin/.waybar-wrapped")
        try proc.add(103, comm: "gtk-thread", argv: ["/usr/local/bin/waybar"])
        // Not waybar: similar names, waybar as an argument, and a kernel thread (no exe, empty cmdline).
        try proc.add(200, comm: "waybar-helper", exe: "/usr/bin/waybar-helper", argv: ["waybar-helper"])
        try proc.add(201, comm: "vim", exe: "/usr/bin/vim", argv: ["vim", "waybar"])
        try proc.add(202, comm: "python3", exe: "/usr/bin/python3.11", argv: ["python3", "/tmp/waybar"])
        try proc.add(203, comm: "kworker/0:1")
        try proc.add(204, comm: "notwaybar", exe: "/usr/bin/notwaybar.waybar-wrapped")
        try Data().write(to: proc.root.appendingPathComponent("self-not-a-pid"))

        let found = WaybarRefresh(offset: 8, processRoot: proc.root.path).waybarProcesses()

        #expect(Set(found) == [100, 101, 102, 103])
    }

    @Test("Only the waybar of this session: another XDG_RUNTIME_DIR is another login's (or another test's) bar")
    func onlyThisSession() throws {
        let proc = try FakeProc()
        try proc.add(100, comm: "waybar", environ: ["WAYLAND_DISPLAY=wayland-1", "XDG_RUNTIME_DIR=/run/user/1000"])
        try proc.add(101, comm: "waybar", environ: ["XDG_RUNTIME_DIR=/tmp/w8-bus-other/run"])
        try proc.add(102, comm: "waybar", environ: ["WAYLAND_DISPLAY=/run/user/1000/wayland-1"])
        try proc.add(103, comm: "waybar")  // environ unreadable: kept
        let mine = WaybarRefresh(offset: 8, processRoot: proc.root.path, runtimeDirectory: "/run/user/1000")
        #expect(Set(mine.waybarProcesses()) == [100, 102, 103])
        // Without a runtime directory of its own, w8 cannot tell sessions apart: every waybar of the user.
        let anywhere = WaybarRefresh(offset: 8, processRoot: proc.root.path)
        #expect(Set(anywhere.waybarProcesses()) == [100, 101, 102, 103])
    }

    @Test("The names of a real process: the test binary's own, through /proc")
    func namesOfARealProcess() throws {
        let names = WaybarRefresh.names(ofProcessIn: "/proc/self")
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().lastPathComponent
        #expect(names.contains(executable), "\(names)")
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        #expect(names.contains(argv0), "\(names)")
    }

    @Test("Signal 0 turns refreshing off; N means SIGRTMIN+N")
    func signalNumber() {
        #expect(WaybarRefresh(offset: 0).signal == nil)
        #expect(WaybarRefresh(offset: 8).signal == sigrtmin + 8)
        #expect(WaybarRefresh(offset: 0, processRoot: "/nonexistent").send() == [])
    }

    /// glibc's SIGRTMIN on Linux (the kernel's 32 plus the two glibc keeps for threads).
    let sigrtmin: Int32 = 34
}
