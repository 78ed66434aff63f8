import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8Formats

/// Apple Health's export.xml (`Tests/Fixtures/import/apple-health/export.xml`): the streamed scanner, the records
/// kept, the duplicates dropped and the steps counted once per stretch of time.
@Suite struct AppleHealthTests {
    static func options() -> ImportOptions {
        ImportOptions(preferredUnit: .lb, now: AppImportTests.now, calendar: PinnedCalendar.berlin)
    }

    static func fixture() throws -> String {
        try String(
            contentsOf: AppExport.fixtures.appendingPathComponent("apple-health/export.xml"), encoding: .utf8)
    }

    /// Every row of `text` fed in chunks of `chunk` bytes, and the stream after its end.
    static func read(_ text: String, chunk: Int = .max) throws -> ([ImportRow], AppleHealthStream) {
        var stream = AppleHealthStream(options: options())
        var rows: [ImportRow] = []
        for piece in pieces(of: text, size: chunk) { rows += try stream.feed(Array(piece)) }
        rows += try stream.finish()
        return (rows, stream)
    }

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    // Given the fixture, when it is read whole, then the weigh-ins come in their units at their instants (offsets
    // +0100 before the clocks changed, +0200 after), the body fat joins its weigh-in, the lone one is skipped,
    // the Correlation's copy and the exact duplicates are left out, and each day's steps count every stretch once.
    @Test func theFixtureGivesTheRowsHealthMeant() throws {
        let (rows, stream) = try Self.read(try Self.fixture())
        let entries = rows.compactMap { row -> String? in
            guard case .entry(let line, let e) = row else { return nil }
            return "\(line) \(e.weight.formatted) \(e.date.timeIntervalSince1970) \(e.bodyFatPercent ?? -1)"
        }
        #expect(
            entries == [
                "1 176.4 lb \(Self.instant("2019-03-09T07:47:05Z").timeIntervalSince1970) -1.0",
                "2 79.5 kg \(Self.instant("2019-04-06T05:30:00Z").timeIntervalSince1970) -1.0",
                "4 79.2 kg \(Self.instant("2019-04-07T05:31:00Z").timeIntervalSince1970) 20.5",
            ])
        #expect(rows.contains(.skipped(line: 6, .bodyFatWithoutWeight)))
        let days = rows.compactMap { row -> String? in
            guard case .activity(let day) = row else { return nil }
            return "\(day.day) \(day.steps) \(day.distance) \(day.source.rawValue)"
        }
        #expect(
            days == [
                "2019-03-09 1000 0 apple-health", "2019-04-06 2500 802 apple-health",
                "2019-04-07 1150 600 apple-health",
            ])
        let intake = rows.compactMap { row -> String? in
            guard case .intake(_, let event) = row else { return nil }
            return "\(event.kind.rawValue) \(event.volume ?? 0) \(event.calories)"
        }
        #expect(intake == ["water 250 0", "water 237 0", "calories 0 650", "calories 0 720"])
        #expect(!rows.contains { if case .invalid = $0 { true } else { false } })
        #expect(stream.duplicates == 2)
        #expect(stream.daysLedBy == ["Anna’s iPhone": 2, "Anna’s Apple Watch": 1])
    }

    // An element split anywhere across chunks is read as when it comes whole.
    @Test(arguments: [1, 2, 7, 64, 4096])
    func chunkBoundariesChangeNothing(size: Int) throws {
        let text = try Self.fixture()
        #expect(try Self.read(text, chunk: size).0 == (try Self.read(text).0))
    }

    // A bad reference in text is named the same however the file was split: up to its ';', or its first 13 bytes
    // (found by fuzz-apple-health, which saw "&am ;B\"p uni" whole and "&am ;B\"p" in pieces).
    @Test(arguments: [("&am ;B\"p unit=\"kg\" and more", "&am ;"), ("&abcdefghijklmnopq;", "&abcdefghijkl")])
    func aBadReferenceIsNamedTheSameInAnyChunks(text: String, shown: String) throws {
        let xml = Self.head + " x \(text)\n</HealthData>\n"
        for size in [1, 3, 5, 4096] {
            #expect {
                try Self.read(xml, chunk: size)
            } throws: {
                $0.localizedDescription.hasSuffix("XML knows: '\(shown)'")
            }
        }
    }

    // Each stretch of time counts once: a later (lower-priority) sample adds only the part no earlier one covers.
    @Test(arguments: [
        (0, 600, [(Int32(0), Int32(600))], 0.0),
        (300, 900, [(Int32(0), Int32(600))], 0.5),
        (700, 800, [(Int32(0), Int32(600))], 1.0),
        (0, 1000, [(Int32(100), Int32(200)), (Int32(500), Int32(600))], 0.8),
        (50, 50, [(Int32(0), Int32(100))], 0.0),
    ])
    func aSampleCountsOnlyItsUncoveredTime(start: Int32, end: Int32, covered: [(Int32, Int32)], share: Double) {
        var taken = covered
        #expect(abs(AppleHealthStream.uncoveredShare(start, end, &taken) - share) < 1e-9)
    }

    static let head = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- a comment with ] and > in it -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST Record value CDATA #IMPLIED>
        ]>
        <HealthData locale="en_US">

        """

    static func record(_ type: String, _ unit: String, _ value: String, date: String = "2019-05-14 18:52:09 -0400")
        -> String
    {
        """
         <Record type="HKQuantityTypeIdentifier\(type)" sourceName="A &amp; B&#8217;s &#x1F3C3; app" unit="\(unit)" \
        creationDate="\(date)" startDate="\(date)" endDate="\(date)" value="\(value)"/>

        """
    }

    // A kept record with a bad value, unit or date is a bad row named by its record number; other types are not
    // looked at, however odd.
    @Test func badRecordsAreNamedByNumber() throws {
        let text =
            Self.head + Self.record("HeartRate", "count/min", "fast") + Self.record("BodyMass", "kg", "79,5")
            + Self.record("DietaryWater", "gallon", "1") + Self.record("BodyMass", "kg", "80", date: "2019-05-14")
            + Self.record("DietaryEnergyConsumed", "kJ", "2092") + "</HealthData>\n"
        let (rows, _) = try Self.read(text)
        #expect(rows.map(\.line) == [2, 3, 4, 5])
        #expect(rows.last.map { if case .intake(_, let e) = $0 { e.calories } else { -1 } } == 500)
        #expect(rows.first == .invalid(line: 2, reason: "value '79,5' is not a number of 0 or more"))
    }

    // Values too large for an integer are bad rows naming them, never a trap: water and energy past any Int, and
    // a step or distance sample past what a day holds (whose sum would then be no Int).
    @Test func valuesNoIntegerHoldsAreBadRows() throws {
        let text =
            Self.head + Self.record("DietaryWater", "L", "1e300") + Self.record("DietaryEnergyConsumed", "kcal", "1e30")
            + Self.record("StepCount", "count", "1e300") + Self.record("DistanceWalkingRunning", "km", "1e40")
            + "</HealthData>\n"
        let (rows, _) = try Self.read(text)
        #expect(
            rows == [
                .invalid(line: 1, reason: "water 1e300 L is 1e+303 ml, not 1–\(IntakeSettings.maxDrink)"),
                .invalid(line: 2, reason: "energy 1e30 kcal is 1e+30 kcal, not 1–\(IntakeSettings.maxCalories)"),
                .invalid(line: 3, reason: "value 1e300 is out of range"),
                .invalid(line: 4, reason: "value 1e40 is out of range"),
            ])
    }

    // Entities and character references in attribute values are decoded.
    @Test func attributeValuesAreDecoded() {
        let raw = Array("A &amp; B&#8217;s &#x1F3C3; &lt;x&gt; &quot;&apos;".utf8)
        let text = raw.withUnsafeBufferPointer { HealthXMLScanner.decode($0) }
        #expect(text == "A & B\u{2019}s \u{1F3C3} <x> \"'")
        #expect(Array("&nope;".utf8).withUnsafeBufferPointer { HealthXMLScanner.decode($0) } == nil)
    }

    // XML whose root is not HealthData, and a file cut short, are refused whole.
    @Test(arguments: ["<?xml version=\"1.0\"?>\n<gpx><trk/></gpx>\n", String(head.prefix(60)), head])
    func otherXMLIsRefused(text: String) {
        #expect(throws: W8FormatsError.self) { try Self.read(text) }
    }
}
