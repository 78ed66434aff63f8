import Foundation
import Testing
import W8App
import W8Core
import W8TestSupport

@Suite struct BackupTests {
    static let options = ImportOptions(
        preferredUnit: .lb, now: PinnedCalendar.berlin.date(2026, 11, 23, 12), calendar: PinnedCalendar.berlin)

    static func backup(_ text: String) throws -> Backup { try Backup(json: Array(text.utf8), options: options) }

    @Test func entriesAreValidatedOneByOne() throws {
        let backup = try Self.backup(
            """
            {"format": "w8trackr-backup", "version": 1, "settings": {"unit": "kg", "summary.hour": 8,
             "notifications.enabled": false, "future.key": 1},
             "entries": [{"date": "2026-11-01T07:30:00+01:00", "weight": 81.5, "unit": "kg", "note": null},
                         {"date": "2026-11-02T07:30:00+01:00", "weight": 5, "unit": "kg"}]}
            """)
        #expect(backup.rows.count == 2)
        #expect(
            backup.rows[1] == .invalid(line: 2, reason: W8CoreError.weightOutOfRange("5.0", .kg).localizedDescription))
        #expect(backup.settings.map(\.0) == [.notificationsEnabled, .summaryHour, .unit])
        #expect(backup.settings.map(\.1) == [.bool(false), .integer(8), .string("kg")])
        #expect(backup.unknownSettings == ["future.key"])
        #expect(backup.journey == JourneyBackup(goal: nil, milestonesAchieved: [], achievements: [], intake: []))
    }

    @Test(arguments: [
        ("[1, 2]", "not a W8Trackr backup"), ("{\"format\": \"other\", \"version\": 1, \"entries\": []}", "\"format\""),
        ("{\"format\": \"w8trackr-backup\", \"version\": 3, \"entries\": []}", "version 3"),
        ("{\"format\": \"w8trackr-backup\", \"version\": 1}", "entries is missing"),
        (
            "{\"format\": \"w8trackr-backup\", \"version\": 1, \"entries\": [], \"settings\": {\"summary.hour\": 30}}",
            "'30'"
        ),
        (
            "{\"format\": \"w8trackr-backup\", \"version\": 1, \"entries\": [{\"weight\": \"heavy\"}]}",
            "entries[0].weight"
        ),
        ("{not json", "not valid JSON"),
    ])
    func wrongBackupsAreRefusedWithAReason(text: String, fragment: String) {
        do {
            _ = try Self.backup(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription)")
        }
    }
}
