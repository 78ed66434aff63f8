import Foundation
import Testing
import W8Core

@testable import W8Formats

@Suite struct ConfigDocumentTests {
    @Test func defaultsRoundTrip() throws {
        #expect(try ConfigDocument(text: ConfigDocument.defaultText()).settings() == Settings())
        #expect(try ConfigDocument(text: "").settings() == Settings())
    }

    @Test func readsTablesDottedKeysAndComments() throws {
        let text = """
            unit = "kg" # metric
            summary.day = 'mon'
            [notifications]
            approaching = false
            [summary]
            hour = 18
            """
        let s = try ConfigDocument(text: text).settings()
        #expect(s.unit == .kg)
        #expect(s.summary.day == .mon)
        #expect(s.summary.hour == 18)
        #expect(!s.notifications.approaching)
        #expect(s.notifications.milestones)
    }

    @Test(arguments: [
        ("unit = kg", 1, "'kg' is not a value"), ("\n[summary]\nhour = 24", 3, "value '24' for summary.hour"),
        ("units = \"kg\"", 1, "unknown key 'units'"), ("[summary\nday = 1", 1, "table header"),
        ("unit = \"kg", 1, "is not closed"), ("unit = \"kg\"\nunit = \"lb\"", 2, "set twice"),
        ("notifications.enabled = \"yes\"", 1, "expected true or false"), ("hello", 1, "expected 'key = value'"),
    ])
    func malformedFilesNameTheLine(text: String, line: Int, fragment: String) {
        do {
            _ = try ConfigDocument(text: text).settings()
            Issue.record("accepted \(text)")
        } catch let W8FormatsError.configSyntax(number, message) {
            #expect(number == line)
            #expect(message.contains(fragment), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func settingAKeyKeepsCommentsAndLayout() throws {
        let text = "# mine\nunit = \"lb\"  \n\n[summary]\n# when\nday = \"sun\"\n"
        let edited = try ConfigDocument(text: text).setting(.summaryDay, to: .string("fri"))
            .setting(.summaryHour, to: .integer(7)).setting(.unit, to: .string("kg"))
            .setting(.notificationsEnabled, to: .bool(false))
        #expect(edited.text.hasPrefix("# mine\nunit = \"kg\"\n\n[summary]\n# when\nday = \"fri\"\nhour = 7\n"))
        let s = try edited.settings()
        #expect(s.summary.day == .fri && s.summary.hour == 7 && s.unit == .kg && !s.notifications.enabled)
    }

    @Test(arguments: SettingKey.allCases)
    func everyKeyRoundTripsThroughTheFile(key: SettingKey) throws {
        var expected = Settings()
        // The first candidate the key takes that is not its default.
        let current = key.value(in: expected)
        let candidates: [SettingValue] =
            switch current {
            case .bool(let b): [.bool(!b)]
            case .integer: [.integer(21), .integer(1)]
            case .string: ["kg", "06:45", "wed", "oz"].map { .string($0) }
            }
        let value = try #require(
            candidates.first { candidate in
                var probe = Settings()
                return (try? key.apply(candidate, to: &probe)) != nil && candidate != current
            })
        try key.apply(value, to: &expected)
        let edited = try ConfigDocument(text: ConfigDocument.defaultText()).setting(key, to: value)
        #expect(try edited.settings() == expected)
    }

    // fuzz-config's crash: a file of one "\r" was read, and setting a key to its own value wrote "\r\n[...]",
    // which was refused at line 1. CRLF files were one line.
    @Test(arguments: ["\r", "unit = \"lb\"\r", "unit = \"lb\"\r\n[summary]\r\nhour = 7\r\n", "# a\r\n\r\n"])
    func carriageReturnsSurviveARewrite(text: String) throws {
        let settings = try ConfigDocument(text: text).settings()
        #expect(settings.unit == (text.contains("lb") ? .lb : Settings().unit))
        #expect(settings.summary.hour == (text.contains("hour") ? 7 : Settings().summary.hour))
        for key in SettingKey.allCases {
            let rewritten = try ConfigDocument(text: text).setting(key, to: key.value(in: settings))
            #expect(try rewritten.settings() == settings, "\(key) in \(rewritten.text.debugDescription)")
        }
    }

    @Test func commandLineValues() throws {
        #expect(try SettingKey.notificationsEnabled.parse("off") == .bool(false))
        #expect(throws: W8CoreError.self) { try SettingKey.summaryHour.parse("nine") }
        var s = Settings()
        try SettingKey.summaryDay.apply(try SettingKey.summaryDay.parse("Thursday"), to: &s)
        #expect(s.summary.day == .thu)
        #expect(throws: W8CoreError.self) { try SettingKey.summaryDay.apply(.string("thursd4y"), to: &s) }
    }
}
