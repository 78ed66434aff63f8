import Foundation
import Testing
import W8TestHarness

/// Output that did not reach its reader (issue 26): a full device or a closed standard output is exit 74 with one
/// line on stderr; a reader that stops early (`| head`) is no error message.
@Suite(.ownThread) struct StandardOutputTests {
    static func sandbox() throws -> W8Sandbox {
        let w8 = try W8Sandbox()
        for weight in ["181", "180.5", "180"] {
            let add = try w8.run("add", weight)
            #expect(add.status == 0, "\(add.stderr)")
        }
        return w8
    }

    static let commands: [[String]] = [
        ["log", "--json"], ["log"], ["status"], ["summary"], ["chart"], ["widget"], ["intake"], ["export"],
        ["add", "179"],
    ]

    @Test("stdout on /dev/full: exit 74 and one line naming standard output", arguments: commands)
    func fullDevice(_ arguments: [String]) throws {
        let w8 = try Self.sandbox()

        let run = try W8Sandbox.running(
            w8, through: ["sh", "-c", "exec \"$0\" \"$@\" > /dev/full", w8.executable] + arguments)

        #expect(run.status == 74, "\(arguments): \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("standard output") && run.stderr.contains("No space left on device"), "\(run.stderr)")
    }

    @Test("a closed stdout: exit 74 and one line", arguments: [["status"], ["log"], ["widget"]])
    func closedOutput(_ arguments: [String]) throws {
        let w8 = try Self.sandbox()
        // The one w8 of the suite on the real clock: libfaketime's constructor opens its shared memory before w8's
        // main, which takes descriptor 1 when it is closed, and w8 then writes into that. The clock is moot here:
        // what w8 prints reaches no one, and the one line it must say names no day.
        for name in TestClock.preloadVariables { w8.environment[name] = nil }

        let run = try W8Sandbox.running(w8, through: ["sh", "-c", "exec \"$0\" \"$@\" >&-", w8.executable] + arguments)

        #expect(run.status == 74, "\(arguments): \(run.stderr)")
        #expect(run.stderrLines == ["w8: cannot write to standard output: Bad file descriptor"], "\(run.stderr)")
    }

    @Test("a closed stdout does not make a file w8 opens receive the output")
    func closedOutputLeavesFilesAlone() throws {
        let w8 = try Self.sandbox()
        let lock = w8.databasePath + ".lock"
        try FileManager.default.removeItem(atPath: lock)

        _ = try W8Sandbox.running(w8, through: ["sh", "-c", "exec \"$0\" add 178 >&-", w8.executable])

        #expect((try? Data(contentsOf: URL(fileURLWithPath: lock)))?.isEmpty ?? true)
    }

    @Test("a reader that stops early (| head -1) gets no error message")
    func earlyReader() throws {
        let w8 = try Self.sandbox()

        let run = try W8Sandbox.running(w8, through: ["sh", "-c", "\"$0\" log | head -1", w8.executable])

        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
    }
}
