import Foundation
import Testing
import W8TestSupport

/// Input at its edges (issue 26): absurd counts, huge values, units typed as a word of their own.
@Suite struct CLIInputFormTests {
    @Test(arguments: ["10000000", "9223372036854775807"])
    func intakeOverAnyNumberOfDaysShowsToday(days: String) throws {
        let w8 = try W8Sandbox()
        try w8.run("drink", "330")
        let shown = try w8.run("intake", "--days", days)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("330 ml"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("Nothing logged"))
    }
}
