import Foundation
import Testing

/// CI runs what the README tells a person to run, in that order: `make install`, then `make test`. So the tests
/// run on a machine where w8 is installed in /usr/local, and a test that reads the host's files fails in CI.
@Suite struct CIContractTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `make …` commands of a text, in order: the first word of each line, comments dropped.
    static func makeCommands(_ text: Substring) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0] }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("make ") }
    }

    @Test func ciRunsTheReadmesSetUpCommandsInOrder() throws {
        let readme = try String(contentsOf: Self.checkout.appendingPathComponent("README.md"), encoding: .utf8)
        let setUp = try #require(readme.range(of: "## Set-up: two commands"))
        let block = try #require(readme[setUp.upperBound...].split(separator: "```", maxSplits: 2).dropFirst().first)
        let readmeCommands = Self.makeCommands(block)
        #expect(readmeCommands == ["make install", "make test"])

        let ci = try String(contentsOf: Self.checkout.appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciCommands = Self.makeCommands(ci[...])
        // The README's commands follow each other in CI, with nothing in between.
        let start = try #require(ciCommands.firstIndex(of: readmeCommands[0]), "CI never runs \(readmeCommands[0])")
        #expect(Array(ciCommands[start...].prefix(readmeCommands.count)) == readmeCommands, "CI runs \(ciCommands)")
    }
}
