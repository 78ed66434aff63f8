import Foundation
import Testing
import W8Core
import W8TestSupport

@Suite struct WeightInputTests {
    @Test(arguments: [
        ("182.4", WeightUnit?.none, Weight(182.4, .lb)), ("82,5", .kg, Weight(82.5, .kg)),
        ("82.5kg", nil, Weight(82.5, .kg)), ("182lb", nil, Weight(182, .lb)), ("182 lbs", nil, Weight(182, .lb)),
        ("82.5KG", .kg, Weight(82.5, .kg)), (" 44 ", nil, Weight(44, .lb)), ("700kg", nil, Weight(700, .kg)),
    ])
    func accepts(text: String, unit: WeightUnit?, expected: Weight) throws {
        #expect(try WeightInput.weight(text, unit: unit, defaultUnit: .lb) == expected)
    }

    @Test(arguments: [
        ("abc", W8CoreError.weightNotANumber("abc")), ("nan", .weightNotANumber("nan")),
        ("inf", .weightNotANumber("inf")),
        ("1e2", .weightNotANumber("1e2")), ("0x10", .weightNotANumber("0x10")), ("", .weightNotANumber("")),
        ("0", .weightNotPositive("0")), ("-5", .weightNotPositive("-5")), ("-182.4kg", .weightNotPositive("-182.4kg")),
        ("43.9", .weightOutOfRange("43.9", .lb)), ("1544", .weightOutOfRange("1544", .lb)),
        ("19.9kg", .weightOutOfRange("19.9kg", .kg)), ("701kg", .weightOutOfRange("701kg", .kg)),
        ("80st", .unknownUnit("st")), ("1.2.3", .weightNotANumber("1.2.3")),
    ])
    func rejects(text: String, error: W8CoreError) {
        #expect(throws: error) { try WeightInput.weight(text, unit: nil, defaultUnit: .lb) }
    }

    @Test func errorMessagesNameTheValue() {
        #expect(
            W8CoreError.weightNotANumber("abc").localizedDescription
                == "weight 'abc' is not a number; try 182.4 or 82,5kg")
        #expect(W8CoreError.weightOutOfRange("5", .kg).localizedDescription.contains("'5'"))
        #expect(W8CoreError.weightOutOfRange("5", .kg).localizedDescription.contains("20–700 kg"))
    }

    @Test func suffixAndOptionMustAgree() {
        #expect(throws: W8CoreError.conflictingUnits("82kg", .lb)) {
            try WeightInput.weight("82kg", unit: .lb, defaultUnit: .lb)
        }
    }

    @Test(arguments: ["2", "75", "22,5", "22.5%"])
    func bodyFatAccepted(text: String) throws { _ = try WeightInput.bodyFat(text) }

    @Test(arguments: ["1.9", "75.1", "abc", "-3", "nan"])
    func bodyFatRejected(text: String) {
        #expect(throws: W8CoreError.bodyFatInvalid(text)) { try WeightInput.bodyFat(text) }
    }

    @Test func notes() throws {
        #expect(try WeightInput.note("") == nil)
        #expect(try WeightInput.note(String(repeating: "é", count: 500))?.count == 500)
        #expect(throws: W8CoreError.noteTooLong(501)) { try WeightInput.note(String(repeating: "x", count: 501)) }
    }

    @Test func goalRange() {
        #expect(throws: W8CoreError.goalOutOfRange("10", .kg)) {
            try WeightInput.goal("10", unit: .kg, defaultUnit: .lb)
        }
    }
}

@Suite struct DateInputTests {
    let calendar = PinnedCalendar.berlin
    var now: Date { calendar.date(2026, 11, 21, 12, 0) }

    @Test(arguments: [
        ("2026-11-20", 2026, 11, 20, 0, 0, 0), ("2026-11-20T07:30", 2026, 11, 20, 7, 30, 0),
        ("2026-11-20 07:30:15", 2026, 11, 20, 7, 30, 15), ("2026-03-29T03:30", 2026, 3, 29, 3, 30, 0),
    ])
    func localTimes(text: String, y: Int, m: Int, d: Int, h: Int, min: Int, s: Int) throws {
        #expect(try DateInput.parse(text, now: now, calendar: calendar) == calendar.date(y, m, d, h, min, s))
    }

    @Test(arguments: [
        ("2026-11-20T07:30:00Z", 1_795_159_800.0), ("2026-11-20T08:30:00+01:00", 1_795_159_800),
        ("2026-11-20T02:30:00-0500", 1_795_159_800),
    ])
    func offsets(text: String, epoch: Double) throws {
        #expect(try DateInput.parse(text, now: now, calendar: calendar) == Date(timeIntervalSince1970: epoch))
    }

    @Test(arguments: [
        "yesterday", "2026-13-01", "2026-02-30", "2026-11-20T25:00", "20.11.2026", "2026-11-20T07:30+25:00",
    ])
    func invalid(text: String) {
        #expect(throws: W8CoreError.dateInvalid(text)) { try DateInput.parse(text, now: now, calendar: calendar) }
    }

    @Test func futureBeyondFiveMinutesIsRejected() throws {
        _ = try DateInput.parse("2026-11-21T12:04:59", now: now, calendar: calendar)
        #expect(throws: W8CoreError.dateInFuture("2026-11-21T12:05:01")) {
            try DateInput.parse("2026-11-21T12:05:01", now: now, calendar: calendar)
        }
    }

    // Before 1900 is a typo, refused like a date in the future; the year is the one written, whatever the offset.
    @Test(arguments: ["1800-01-01", "1899-12-31T23:59:59", "1899-12-31T23:30:00Z", "1899-12-31T23:30:00-05:00"])
    func yearsBefore1900AreRejected(text: String) {
        #expect(throws: W8CoreError.dateTooEarly(text)) { try DateInput.parse(text, now: now, calendar: calendar) }
    }

    @Test func the1stOfJanuary1900IsTheFirstDayAccepted() throws {
        #expect(try DateInput.parse("1900-01-01", now: now, calendar: calendar) == calendar.date(1900, 1, 1, 0, 0))
        #expect(
            W8CoreError.dateTooEarly("1800-01-01").localizedDescription
                == "date '1800-01-01' is before 1900; check the year")
    }

    @Test func jsonDatesCarryTheOffset() {
        let f = DateFormatting(timeZone: TimeZone(identifier: "UTC")!)
        #expect(f.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00+00:00")
        let berlin = DateFormatting(timeZone: calendar.timeZone)
        #expect(berlin.iso8601(calendar.date(2026, 7, 1, 9)) == "2026-07-01T09:00:00+02:00")
    }
}
