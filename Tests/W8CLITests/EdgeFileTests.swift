import Foundation
import Testing
import W8TestHarness

/// Files at the edges (issue 26): what w8 writes through a symlink, to a device, a FIFO or a directory, and the
/// database or config.toml behind a link. Devices are reached through links inside the sandbox, so that a
/// regression replaces a link of the test, never `/dev/null` of the machine.
@Suite(.ownThread) struct EdgeFileTests {
    static func kind(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Whether `path` itself (`lstat`) is a FIFO; Foundation has no attribute type for one.
    static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    static func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// A sandbox with one weight logged.
    static func sandbox() throws -> W8Sandbox {
        let w8 = try W8Sandbox()
        let add = try w8.run("add", "180.5")
        #expect(add.status == 0, "\(add.stderr)")
        return w8
    }

    @Test("export -o through a symlink writes the link's target, keeps its mode and leaves the link a link")
    func exportThroughSymlink() throws {
        let w8 = try Self.sandbox()
        let real = w8.root.appendingPathComponent("real.csv").path
        let link = w8.root.appendingPathComponent("link.csv").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        chmod(real, 0o644)
        try Self.link(link, to: "real.csv")

        let run = try w8.run("export", "-o", link)

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.csv")
        #expect(try Self.text(real).contains("180.5"))
        #expect(try Self.mode(real) == 0o644)
        // Nothing left beside the link or its target.
        #expect(try FileManager.default.contentsOfDirectory(atPath: w8.root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("export -o to a new file makes it 0600")
    func newFileIsPrivate() throws {
        let w8 = try Self.sandbox()
        let path = w8.root.appendingPathComponent("new.csv").path
        #expect(try w8.run("export", "-o", path).status == 0)
        #expect(try Self.mode(path) == 0o600)
    }

    @Test("export -o to /dev/null, through a link, writes in place: the link and the device stay")
    func exportToNullDevice() throws {
        let w8 = try Self.sandbox()
        let link = w8.root.appendingPathComponent("null.csv").path
        try Self.link(link, to: "/dev/null")

        let run = try w8.run("export", "-o", link)

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        #expect(try Self.kind("/dev/null") == .typeCharacterSpecial)
    }

    @Test("export -o and chart --output to /dev/full fail with ENOSPC: exit 74, one line, the link stays")
    func exportToFullDevice() throws {
        let w8 = try Self.sandbox()
        for (name, arguments) in [("full.csv", ["export", "-o"]), ("full.png", ["chart", "--output"])] {
            let link = w8.root.appendingPathComponent(name).path
            try Self.link(link, to: "/dev/full")

            let run = try w8.run(arguments + [link])

            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains(link) && run.stderr.contains("No space left on device"), "\(run.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/full")
        }
    }

    @Test("export -o to a FIFO writes into it, as '>' does, and leaves it a FIFO")
    func exportToFIFO() throws {
        let w8 = try Self.sandbox()
        let fifo = w8.root.appendingPathComponent("pipe").path
        let copy = w8.root.appendingPathComponent("copy.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)

        let run = try W8Sandbox.running(
            w8,
            through: [
                // The reader gives up after 10 s, and holds no pipe of the test: a w8 that replaced the FIFO
                // must fail the test, not hang it.
                "sh", "-c", "timeout 10 cat \"$1\" > \"$2\" 2>/dev/null & \"$0\" export -o \"$1\"; s=$?; wait; exit $s",
                w8.executable, fifo, copy,
            ])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.isFIFO(fifo))
        #expect(try Self.text(copy).contains("180.5"))
    }

    @Test("export -o to a directory is refused with one line naming it; the directory is untouched")
    func exportToDirectory() throws {
        let w8 = try Self.sandbox()
        let directory = w8.root.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        chmod(directory, 0o755)

        let run = try w8.run("export", "-o", directory)

        #expect(run.status == 73)
        #expect(run.stderrLines == ["w8: cannot write '\(directory)': Is a directory"])
        #expect(try Self.kind(directory) == .typeDirectory)
        #expect(try Self.mode(directory) == 0o755)
    }

    @Test("chart --output through a symlink writes the image at the target")
    func chartThroughSymlink() throws {
        let w8 = try Self.sandbox()
        let real = w8.root.appendingPathComponent("real.png").path
        let link = w8.root.appendingPathComponent("chart.png").path
        try Self.link(link, to: real)

        let run = try w8.run("chart", "--output", link)

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("config.toml as a symlink (a dotfile manager's) is written at its target; the link stays")
    func configThroughSymlink() throws {
        let w8 = try W8Sandbox()
        let dotfiles = w8.root.appendingPathComponent("dotfiles").path
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles + "/config.toml"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o644)
        try FileManager.default.createDirectory(
            atPath: (w8.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.link(w8.configPath, to: target)

        let run = try w8.run("config", "unit", "kg")

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w8.configPath) == target)
        #expect(try Self.text(target).contains("# mine"))
        #expect(try Self.text(target).contains("kg"))
        #expect(try Self.mode(target) == 0o644)
        #expect(try w8.run("config", "unit").stdout.contains("kg"))
    }

    @Test("a database path that is a symlink is refused with one line naming it; the target's mode is kept")
    func databaseSymlinkRefused() throws {
        let w8 = try W8Sandbox()
        let directory = (w8.databasePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let target = w8.root.appendingPathComponent("elsewhere.sqlite").path
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        chmod(target, 0o644)
        try Self.link(w8.databasePath, to: target)

        for arguments in [["add", "180"], ["status"], ["log"]] {
            let run = try w8.run(arguments)

            #expect(run.status == 73, "\(arguments)")
            #expect(
                run.stderrLines == [
                    "w8: the database \(w8.databasePath) is a symbolic link; w8 opens only a regular file there"
                ], "\(run.stderr)")
        }
        #expect(try Self.mode(target) == 0o644)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: w8.databasePath) == target)
    }

    @Test("a database path that is a FIFO or a directory is refused; nothing there is changed")
    func databaseNotRegularRefused() throws {
        for makeFIFO in [true, false] {
            let w8 = try W8Sandbox()
            let directory = (w8.databasePath as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if makeFIFO {
                #expect(mkfifo(w8.databasePath, 0o644) == 0)
            } else {
                try FileManager.default.createDirectory(atPath: w8.databasePath, withIntermediateDirectories: false)
                chmod(w8.databasePath, 0o755)
            }

            let run = try w8.run("status")

            #expect(run.status == 73)
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("\(w8.databasePath) is not a regular file"), "\(run.stderr)")
            #expect(try Self.mode(w8.databasePath) == (makeFIFO ? 0o644 : 0o755))
        }
    }

    @Test("a symlinked data directory is followed, and its target's mode is not changed")
    func symlinkedDataDirectory() throws {
        let w8 = try W8Sandbox()
        let elsewhere = w8.root.appendingPathComponent("disk/w8").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        chmod(elsewhere, 0o755)
        let data = (w8.databasePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: (data as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.link(data, to: elsewhere)

        let run = try w8.run("add", "180")

        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/w8trackr.sqlite"))
        #expect(try Self.mode(elsewhere + "/w8trackr.sqlite") == 0o600)
        #expect(try Self.mode(elsewhere) == 0o755)
    }
}
