import Foundation
import Testing
import W8TestHarness

/// A file w8 replaces (`export --output`, through `AtomicFileWriter`) survives a crash: after the rename that puts
/// it in place, w8 syncs the directory that holds it, or a crash could bring back the old file.
@Suite(.ownThread) struct DurableWriteTests {
    @Test("After the rename, the export's directory is opened and fsynced")
    func exportSyncsItsDirectory() throws {
        let w8 = try W8Sandbox()
        try w8.run("add", "180")
        let directory = w8.root.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try w8.user.ownRecursively(directory)
        let output = directory.appendingPathComponent("weights.csv").path
        let trace = w8.root.appendingPathComponent("strace-export.txt").path
        let result = try W8Sandbox.running(
            w8,
            through: [
                "strace", "-f", "-e", "trace=openat,rename,renameat,renameat2,fsync", "-o", trace, w8.executable,
                "export", "--format", "csv", "--output", output,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")

        // Then: rename(…/.weights.csv.XXXXXX, …/weights.csv), then openat(…/exports, O_DIRECTORY) = N, then fsync(N).
        let renamed = try #require(lines.firstIndex { $0.contains("rename") && $0.contains("\"\(output)\") = 0") })
        let opened = try #require(
            lines[renamed...].firstIndex { $0.contains("openat(AT_FDCWD, \"\(directory.path)\", O_RDONLY") },
            "no open of the directory after the rename: \(lines[renamed...])")
        #expect(lines[opened].contains("O_DIRECTORY"))
        let descriptor = try #require(lines[opened].split(separator: "=").last?.trimmingCharacters(in: .whitespaces))
        #expect(
            lines[opened...].contains { $0.contains("fsync(\(descriptor))") && $0.hasSuffix("= 0") },
            "no fsync(\(descriptor)) of the directory: \(lines[opened...])")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("180"))
    }
}
