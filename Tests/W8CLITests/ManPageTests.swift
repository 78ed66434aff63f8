import Foundation
import Testing
import W8TestHarness

/// The man page says what the binary does: the backup it writes, the keys it prints, its exit statuses.
@Suite(.ownThread) struct CLIManPageTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("doc/w8.1")

    func page() throws -> String { try String(contentsOf: CLIManPageTests.manPage, encoding: .utf8) }

    /// Whether the page names `key` in bold, as it names every JSON key: `.B key` or `.BR key ,`.
    func names(_ page: String, _ key: String) -> Bool {
        let roff = key.replacingOccurrences(of: "-", with: "\\-")
        return page.contains("\n.B \(roff)\n") || page.contains("\n.BR \(roff) ")
    }

    @Test func theBackupVersionAndKeysAreTheOnesTheBinaryWrites() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        let backup = try #require(try w8.run("export", "--format", "json").json() as? [String: Any])
        let version = try #require(backup["version"] as? Int)
        let page = try page()
        #expect(page.contains(".B version\n(\(version);"), "the man page's backup version is not \(version)")
        #expect(page.contains("A backup whose version is newer than \(version),"))
        for key in backup.keys { #expect(names(page, key), "backup key \(key) is not in the man page") }
    }

    @Test func everyKeyOfImportJSONIsDocumented() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        let backup = w8.root.appendingPathComponent("backup.json").path
        try w8.run("export", "--format", "json", "--output", backup)
        let report = try #require(try w8.run("import", backup, "--json").json() as? [String: Any])
        let page = try page()
        for key in report.keys { #expect(names(page, key), "import --json key \(key) is not in the man page") }
    }

    @Test func aNewerDatabaseExitsWithTheStatusTheManPageGives() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180", "--date", "2026-11-01")
        _ = try w8.sqlite("INSERT INTO grdb_migrations VALUES ('v999')")
        let refused = try w8.run("status")
        #expect(refused.stderr.contains("newer version of w8"))
        // The EXIT STATUS entry of that status: from `.B <status>` to the next `.TP`.
        let page = try page()
        let section = try #require(page.range(of: ".SH \"EXIT STATUS\"")).upperBound
        let entry = try #require(page.range(of: "\n.B \(refused.status)\n", range: section..<page.endIndex))
        let end = page.range(of: "\n.TP", range: entry.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
        #expect(
            page[entry.upperBound..<end].replacingOccurrences(of: "\n", with: " ").contains(
                "a database written by a newer version of w8"), "exit \(refused.status) does not list a newer database")
    }
}
