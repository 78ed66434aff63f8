import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8Formats

@Suite struct TOMLWriterReaderTests {
    /// What our reader reads from `key = literal` lines, one a string.
    static func readBack(_ strings: [String]) throws -> [String] {
        let text = strings.enumerated().map { "k\($0) = \(SettingValue.string($1).tomlLiteral)" }.joined(
            separator: "\n")
        return try ConfigDocument(text: text).lines().compactMap { line in
            guard case .string(let s)? = line.value else { return nil }
            return s
        }
    }

    @Test func controlCharactersAreEscaped() {
        #expect(SettingValue.string("a\nb\r\t\u{0}\u{7F}\"\\").tomlLiteral == #""a\nb\r\t\u0000\u007F\"\\""#)
    }

    @Test func everyStringComesBackAsWritten() throws {
        var random = SeededRandom.fromEnvironment("TOML round trip")
        let strings = TrickyText.table + (0..<3000).map { _ in TrickyText.random(using: &random) }
        #expect(try TrickyText.scalars(Self.readBack(strings)) == TrickyText.scalars(strings), "seed \(random.seed)")
    }

    /// Python's tomllib (TOML 1.0) reads what the writer wrote as our reader does.
    @Test func pythonsTomllibReadsWhatWeRead() throws {
        var random = SeededRandom.fromEnvironment("TOML against tomllib")
        let strings = TrickyText.table + (0..<500).map { _ in TrickyText.random(using: &random) }
        let text = strings.enumerated().map { "k\($0) = \(SettingValue.string($1).tomlLiteral)" }.joined(
            separator: "\n")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            "-c",
            "import json, sys, tomllib; d = tomllib.loads(sys.stdin.buffer.read().decode()); "
                + "print(json.dumps([d[f'k{i}'] for i in range(len(d))]))",
        ]
        let (input, output) = (Pipe(), Pipe())
        (python.standardInput, python.standardOutput) = (input, output)
        try python.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "tomllib refused what the writer wrote (seed \(random.seed))")
        let theirs = try JSONDecoder().decode([String].self, from: data)
        let ours = try Self.readBack(strings)
        #expect(theirs.count == strings.count)
        for (index, string) in strings.enumerated()
        where TrickyText.scalars([theirs[index], ours[index], string]).count(
            where: { $0 != Array(string.unicodeScalars.map(\.value)) }) > 0
        {
            let found = "tomllib \(theirs[index].debugDescription), we \(ours[index].debugDescription)"
            Issue.record("k\(index) \(string.debugDescription): \(found) (seed \(random.seed))")
        }
        #expect(TrickyText.scalars(ours) == TrickyText.scalars(strings))
    }
}
