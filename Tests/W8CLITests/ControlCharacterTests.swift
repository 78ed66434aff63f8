import Foundation
import Testing
import W8TestHarness

/// Notes and quoted values reach a terminal with their control characters shown, not run (issue 26); the data
/// keeps them exactly.
@Suite(.ownThread) struct ControlCharacterTests {
    /// Sets the window title, rings the bell, clears the screen, returns to column 0 and starts a new row.
    static let note = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\rover\nrow\u{7F}\u{9B}2J"
    static let shown = "x\\e]0;pwned\\a\\e[2J\\rover\\nrow\\x7F\\u009B2J"

    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("w8 log shows a note's controls escaped, on its own row; --json and CSV keep the note exactly")
    func logAndExports() throws {
        let w8 = try W8Sandbox()
        #expect(try w8.run("add", "180", "--note", Self.note).status == 0)

        let log = try w8.run("log")
        #expect(log.status == 0)
        #expect(!Self.hasControls(log.stdout), "\(log.stdout.debugDescription)")
        #expect(log.stdout.split(separator: "\n").count == 1)
        #expect(log.stdout.contains(Self.shown), "\(log.stdout)")

        let json = try #require(try w8.json("log") as? [[String: Any]])
        #expect(json.first?["note"] as? String == Self.note)

        let csv = try w8.run("export")
        #expect(csv.stdout.contains(Self.note.replacingOccurrences(of: "\"", with: "\"\"")))

        let backup = w8.root.appendingPathComponent("backup.json").path
        #expect(try w8.run("export", "--format", "json", "-o", backup).status == 0)
        let restored = try W8Sandbox()
        let restore = try restored.run("import", backup)
        #expect(restore.status == 0, "\(restore.stderr)")
        let restoredLog = try #require(try restored.json("log") as? [[String: Any]])
        #expect(restoredLog.first?["note"] as? String == Self.note)
    }

    @Test("w8 intake shows a note's controls escaped")
    func intakeNote() throws {
        let w8 = try W8Sandbox()
        #expect(try w8.run("drink", "250", "--note", Self.note).status == 0)

        let intake = try w8.run("intake")

        #expect(!Self.hasControls(intake.stdout), "\(intake.stdout.debugDescription)")
        #expect(intake.stdout.contains(Self.shown), "\(intake.stdout)")
    }

    @Test("a note that came through w8 import is shown escaped in w8 log")
    func importedNote() throws {
        let w8 = try W8Sandbox()
        let file = w8.root.appendingPathComponent("in.csv")
        try Data(
            "id,date,weight,unit,note,body_fat_percent\n1,2026-01-05T07:00:00+01:00,180.0,lb,\"tea\u{1B}]0;pwned\u{07}\",\n"
                .utf8
        ).write(to: file)
        let run = try w8.run("import", file.path)
        #expect(run.status == 0, "\(run.stderr)")

        let log = try w8.run("log")

        #expect(!Self.hasControls(log.stdout), "\(log.stdout.debugDescription)")
        #expect(log.stdout.contains("tea\\e]0;pwned\\a"), "\(log.stdout)")
    }

    @Test("an error that quotes a bad value shows its controls escaped, on one line")
    func errorMessage() throws {
        let w8 = try W8Sandbox()

        let run = try w8.run("add", "18\u{1B}[2J0")

        #expect(run.status == 65)
        #expect(!Self.hasControls(run.stderr), "\(run.stderr.debugDescription)")
        #expect(run.stderr.contains("18\\e[2J0"), "\(run.stderr)")
    }
}
