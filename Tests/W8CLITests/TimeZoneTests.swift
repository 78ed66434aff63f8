import Foundation
import Testing
import W8TestHarness

/// `TZ` read as glibc reads it (issue 26): w8 shows the times `date` shows, whatever form the zone takes, and says
/// so when it cannot follow it exactly; it never falls back to UTC in silence.
@Suite(.ownThread) struct TimeZoneTests {
    /// What `date` prints for 2026-01-10 12:00 local time under `tz`, as ISO 8601 with the offset.
    func date(_ w8: W8Sandbox, _ tz: String) throws -> String {
        var environment = w8.environment
        environment["TZ"] = tz
        let result = try W8Sandbox.running(
            w8, through: ["date", "-d", "2026-01-10 12:00", "--iso-8601=seconds"], environment: environment)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [
        "UTC+14", ":Europe/Berlin", "<+1345>-13:45", "Asia/Tokyo", ":/usr/share/zoneinfo/America/New_York",
    ])
    func timesAreTheOnesDateShows(tz: String) throws {
        let w8 = try W8Sandbox()
        w8.environment["TZ"] = tz
        let add = try w8.run("add", "180", "--date", "2026-01-10T12:00")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.isEmpty, "\(add.stderr)")
        let log = try #require(try w8.json("log") as? [[String: Any]])
        #expect(log.first?["date"] as? String == (try date(w8, tz)), "\(log)")
    }

    @Test func rulesW8CannotFollowAndNoZoneAreSaid() throws {
        let w8 = try W8Sandbox()
        w8.environment["TZ"] = "EST5EDT,M3.2.0,M11.1.0"
        let rules = try w8.run("status")
        #expect(rules.status == 0)
        #expect(rules.stderrLines.count == 1 && rules.stderr.contains("TZ 'EST5EDT,M3.2.0,M11.1.0'"), "\(rules.stderr)")
        w8.environment["TZ"] = "garbage"
        let none = try w8.run("add", "180", "--date", "2026-01-10T12:00")
        #expect(none.status == 0)
        #expect(none.stderr.contains("TZ 'garbage' names no time zone"), "\(none.stderr)")
        let log = try #require(try w8.json("log") as? [[String: Any]])
        #expect(log.first?["date"] as? String == (try date(w8, "garbage")), "\(log)")
    }
}
