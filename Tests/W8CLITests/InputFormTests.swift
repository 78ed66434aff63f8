import Foundation
import Testing
import W8TestHarness

/// Input at its edges (issue 26): absurd counts, huge values, units typed as a word of their own.
@Suite(.ownThread) struct CLIInputFormTests {
    @Test(arguments: ["10000000", "9223372036854775807"])
    func intakeOverAnyNumberOfDaysShowsToday(days: String) throws {
        let w8 = try W8Sandbox()
        try w8.run("drink", "330")
        let shown = try w8.run("intake", "--days", days)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("330 ml"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("Nothing logged"))
    }

    @Test func aTenMegabyteFieldIsNamedInOneShortLine() throws {
        // Given a file whose weight is 10 MB of digits
        let w8 = try W8Sandbox()
        let file = w8.root.appendingPathComponent("huge.csv")
        try Data(("date,weight\n2026-01-01," + String(repeating: "9", count: 10_000_000) + "\n").utf8).write(to: file)
        for arguments in [["import", file.path], ["import", file.path, "--skip-invalid"]] {
            let result = try w8.run(arguments)
            let line = try #require(result.stderrLines.first)
            #expect(line.count < 200, "\(line.prefix(300))")
            #expect(line.contains("weight '" + String(repeating: "9", count: 60) + "…' (10000000 characters)"))
            #expect(result.stderr.count < 400)
        }
        let json = try w8.run("import", file.path, "--skip-invalid", "--json")
        #expect(json.stdout.count < 2000)
    }

    @Test(arguments: [["add"], ["add", "80"], ["config", "summary.day"]])
    func aLongArgumentIsNamedInOneShortLine(before: [String]) throws {
        let w8 = try W8Sandbox()
        let result = try w8.run(before + [String(repeating: "x", count: 100_000)])
        #expect(result.status != 0)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.count < 200, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("…' (100000 characters)"))
    }

    /// A unit typed as a word of its own, as the README writes `1.5 bottles`.
    @Test(arguments: [
        (["add", "82.5", "kg"], "82.5 kg"), (["add", "182", "lb"], "182.0 lb"),
        (["add", "82.5", "kg", "--note", "x"], "82.5 kg"), (["drink", "500", "ml"], "500 ml"),
        (["drink", "1.5", "bottles"], "750 ml"), (["drink", "2", "cups", "--beverage"], "500 ml"),
    ])
    func aUnitAsAWordOfItsOwn(arguments: [String], logged: String) throws {
        let w8 = try W8Sandbox()
        let result = try w8.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Logged ") && result.stdout.contains(logged), "\(result.stdout)")
    }

    @Test(arguments: [(["add", "82.5", "stone"], "'stone'"), (["drink", "500", "parsecs"], "parsecs")])
    func aWordThatIsNoUnitIsNamed(arguments: [String], named: String) throws {
        let w8 = try W8Sandbox()
        let result = try w8.run(arguments)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1 && result.stderr.contains(named), "\(result.stderr)")
        #expect(try w8.run("log").stdout.hasPrefix("No weigh-ins yet"))
        #expect(try w8.run("intake", "--json").stdout == "[]\n")
    }
}
