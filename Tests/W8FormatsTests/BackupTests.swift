import Foundation
import Testing
import W8Core
import W8Formats
import W8TestSupport

@Suite struct BackupTests {
    static let options = ImportOptions(
        preferredUnit: .lb, now: PinnedCalendar.berlin.date(2026, 11, 23, 12), calendar: PinnedCalendar.berlin)

    /// The backup and its entries, fed to the stream `chunk` bytes at a time.
    static func read(_ text: String, chunk: Int = 7) throws -> (backup: Backup, rows: [ImportRow]) {
        var stream = BackupStream(options: options)
        let bytes = Array(text.utf8)
        var rows: [ImportRow] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            rows += try stream.feed(Array(bytes[start..<min(start + chunk, bytes.count)]))
        }
        return (try stream.finish(), rows)
    }

    @Test func entriesAreValidatedOneByOne() throws {
        let (backup, rows) = try Self.read(
            """
            {"format": "w8trackr-backup", "version": 1, "settings": {"unit": "kg", "summary.hour": 8,
             "notifications.enabled": false, "future.key": 1},
             "entries": [{"date": "2026-11-01T07:30:00+01:00", "weight": 81.5, "unit": "kg", "note": null},
                         {"date": "2026-11-02T07:30:00+01:00", "weight": 5, "unit": "kg"}]}
            """)
        #expect(rows.count == 2)
        #expect(
            rows[1] == .invalid(line: 2, reason: W8CoreError.weightOutOfRange("5.0", .kg).localizedDescription))
        #expect(backup.settings.map(\.0) == [.notificationsEnabled, .summaryHour, .unit])
        #expect(backup.settings.map(\.1) == [.bool(false), .integer(8), .string("kg")])
        #expect(backup.unknownSettings == ["future.key"])
        #expect(backup.journey == JourneyBackup(goal: nil, milestonesAchieved: [], achievements: [], intake: []))
    }

    @Test(arguments: [
        ("[1, 2]", "not a W8Trackr backup"), ("{\"format\": \"other\", \"version\": 1, \"entries\": []}", "\"format\""),
        ("{\"format\": \"w8trackr-backup\", \"version\": 4, \"entries\": []}", "version 4"),
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
            _ = try Self.read(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription)")
        }
    }

    /// A version 2 backup as `w8 export` writes it: the header, then the entries one a line.
    static let version2 = """
        {"format": "w8trackr-backup", "version": 2, "w8_version": "0.1.0", "exported_at": "2026-11-23T08:00:00+01:00",
         "settings": {"unit": "kg"}, "goal": {"weight": 75, "unit": "kg", "set_at": "2026-11-01T08:00:00+01:00",
         "journey_started_at": "2026-11-01T08:00:00+01:00"}, "milestones_achieved": ["25"], "achievements": [],
         "intake": [{"kind": "water", "date": "2026-11-02T09:00:00+01:00", "volume_ml": 250, "calories": 0,
         "note": null}],
         "entries": [
        {"id": 1, "date": "2026-11-01T07:30:00+01:00", "weight": 81.5, "unit": "kg", "note": "a, \\"quoted\\" ]} note"},
        {"id": 2, "date": "2026-11-02T07:30:00+01:00", "weight": 80.9, "unit": "kg", "note": null}
        ]}

        """

    @Test(arguments: [1, 2, 64, 100_000])
    func anyChunkingReadsTheSameBackup(chunk: Int) throws {
        let (backup, rows) = try Self.read(Self.version2, chunk: chunk)
        #expect(rows.count == 2)
        guard case .entry(line: 1, let first) = rows[0] else { return #expect(Bool(false), "\(rows[0])") }
        #expect(first.note == "a, \"quoted\" ]} note")
        #expect(backup.journey.goal?.weight == Weight(75, .kg))
        #expect(backup.journey.milestonesAchieved == [.quarter])
        #expect(backup.journey.intake.count == 1)
        #expect(backup.settings.map(\.0) == [.unit])
    }

    /// A wrong header is refused as soon as `entries` opens, before any entry is read.
    @Test func aWrongHeaderIsRefusedBeforeTheEntries() throws {
        var stream = BackupStream(options: Self.options)
        let head = "{\"format\": \"w8trackr-backup\", \"version\": 9, \"entries\": ["
        #expect(throws: W8FormatsError.documentInvalid(.backup, "its version 9 is newer than this w8 reads (3)")) {
            try stream.feed(Array(head.utf8))
        }
    }

    @Test(arguments: [
        (String(version2.dropLast(40)), "it is not valid JSON"),
        (version2.replacingOccurrences(of: "\"weight\": 80.9,", with: "\"weight\": 80.9,,"), "it is not valid JSON"),
        (version2.replacingOccurrences(of: "\"weight\": 80.9", with: "\"weight\": true"), "entries[1].weight"),
        (version2 + "{", "it is not valid JSON"), ("[1, 2]", "it is not a JSON object"),
    ])
    func malformedOrTruncatedBackupsNameTheProblem(text: String, fragment: String) {
        do {
            _ = try Self.read(text, chunk: 64)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("\n"))
        }
    }
}
