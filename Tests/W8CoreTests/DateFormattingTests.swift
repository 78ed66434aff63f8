import Foundation
import Testing
import W8Core
import W8TestSupport

/// `DateFormatting` builds its text from calendar fields; ICU's DateFormatter, with the patterns it replaced, is
/// the oracle.
@Suite struct DateFormattingTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Chatham", "America/Sao_Paulo", "Pacific/Apia", "Africa/Monrovia",
        "Europe/Amsterdam",
    ]

    func oracle(_ pattern: String, _ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }

    @Test(arguments: zones)
    func matchesICU(zone name: String) {
        let zone = TimeZone(identifier: name)!
        let dates = DateFormatting(timeZone: zone)
        let short = oracle("EEE d MMM yyyy HH:mm", zone)
        let day = oracle("EEE d MMM yyyy", zone)
        let iso = oracle("yyyy-MM-dd'T'HH:mm:ssxxx", zone)
        var random = SeededRandom.fromEnvironment("date formatting in \(name)")
        // 1900 to 2100, with fractions of a second, and the zone's own transitions.
        var samples = (0..<3000).map { _ in
            Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...4_102_444_800, using: &random))
        }
        var next = Date(timeIntervalSince1970: -2_208_988_800)
        while let transition = zone.nextDaylightSavingTimeTransition(after: next),
            transition.timeIntervalSince1970 < 2e9
        {
            samples += [transition, transition.addingTimeInterval(-0.5), transition.addingTimeInterval(59.999)]
            next = transition
        }
        for date in samples {
            #expect(
                dates.short(date) == short.string(from: date),
                "\(name) \(date.timeIntervalSince1970), seed \(random.seed)")
            #expect(
                dates.day(date) == day.string(from: date), "\(name) \(date.timeIntervalSince1970), seed \(random.seed)")
            #expect(
                dates.iso8601(date) == iso.string(from: date),
                "\(name) \(date.timeIntervalSince1970), seed \(random.seed)")
        }
    }
}
