import Foundation
import Testing
import W8TestHarness

/// `w8 chart` run as a person would: in a terminal-less pipe, and writing images a real decoder reads.
@Suite(.ownThread) struct ChartCLITests {
    /// Six weigh-ins over the 13 days up to 4 days before the test clock's day, and a goal.
    func sandbox() throws -> W8Sandbox {
        let w8 = try W8Sandbox()
        for (day, weight) in [
            (-16, "184"), (-13, "183.2"), (-10, "182.6"), (-7, "181.4"), (-5, "180.9"), (-4, "180.2"),
        ] {
            #expect(try w8.run("add", weight, "--date", TestClock.moment(day, "07:00")).status == 0)
        }
        #expect(try w8.run("goal", "176", "--date", TestClock.moment(-16, "08:00")).status == 0)
        return w8
    }

    @Test func terminalChartFitsWithoutColourInAPipe() throws {
        let w8 = try sandbox()
        let run = try w8.run("chart", "--width", "50", "--height", "12")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 12)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 50 })
        #expect(!run.stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")
        #expect(run.stdout.contains("●"))
        #expect(run.stdout.contains("┄"))
        #expect(run.stdout.contains("goal 176.0 lb"))
    }

    @Test func terminalChartTakesTheWidthFromCOLUMNS() throws {
        let w8 = try sandbox()
        w8.environment["COLUMNS"] = "64"
        let run = try w8.run("chart")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 16)
        #expect(lines.contains { $0.unicodeScalars.count == 64 })
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 64 })
    }

    /// cairo is loaded only to draw an image: with a `libcairo.so.2` that cannot be loaded first on the library path,
    /// `chart --output` fails with one line naming the loader's reason and writes nothing, and every command that
    /// draws no image works as before (a binary linked against cairo would not even start).
    @Test func withoutCairoOnlyTheImageFails() throws {
        let w8 = try sandbox()
        try w8.breakLibrary("libcairo.so.2")
        let path = w8.root.appendingPathComponent("weight.png").path

        let chart = try w8.run("chart", "--output", path)
        #expect(chart.status == 73)
        #expect(chart.stdout.isEmpty)
        #expect(
            chart.stderr.hasPrefix("w8: cannot write the chart image '\(path)': cairo cannot be loaded: "),
            "\(chart.stderr)")
        #expect(chart.stderr.contains("libcairo.so.2"))
        #expect(chart.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: w8.root.path).allSatisfy { !$0.hasPrefix(".weight") })

        let backup = w8.root.appendingPathComponent("backup.json").path
        for arguments in [
            ["add", "179.6"], ["status"], ["log"], ["widget"], ["chart", "--width", "50", "--height", "12"],
            ["milestones"], ["goal", "175"], ["drink", "250"], ["today"],
            ["export", "--format", "json", "--output", backup],
            ["import", "--dry-run", backup], ["--version"],
        ] {
            let run = try w8.run(arguments)
            #expect(run.status == 0, "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
            #expect(!run.stderr.contains("cairo"), "w8 \(arguments.joined(separator: " ")): \(run.stderr)")
        }
    }

    @Test func emptyStateIsOneLine() throws {
        let run = try W8Sandbox().run("chart")
        #expect(run.status == 0)
        #expect(run.stdout == "No weigh-ins yet: log one with 'w8 add 182.4'.\n")
    }

    @Test(arguments: [
        ("weight.png", "PNG 800 400", [0x89, 0x50, 0x4E, 0x47]), ("weight.svg", "800 400", Array("<?xml".utf8)),
    ])
    func imagesDecodeAtTheirSize(name: String, expected: String, magic: [UInt8]) throws {
        let w8 = try sandbox()
        let path = w8.root.appendingPathComponent(name).path
        let run = try w8.run("chart", "--output", path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Wrote \(path).\n")
        // ImageMagick reads an SVG through a delegate (rsvg-convert when installed) and then names it PNG or SVG,
        // so the format is told by the file's first bytes and the size by identify.
        let format = name.hasSuffix(".png") ? "%m %w %h" : "%w %h"
        let identify = try W8Sandbox.running(w8, through: ["identify", "-format", format, path])
        #expect(identify.stdout == expected, "\(identify.stderr)")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: magic.count) ?? Data()
        #expect(Array(head) == magic)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func customImageSize() throws {
        let w8 = try sandbox()
        let path = w8.root.appendingPathComponent("small.png").path
        #expect(try w8.run("chart", "--output", path, "--width", "640", "--height", "320").status == 0)
        let identify = try W8Sandbox.running(w8, through: ["identify", "-format", "%w %h", path])
        #expect(identify.stdout == "640 320")
    }

    @Test func badInputIsOneLineAndWritesNothing() throws {
        let w8 = try sandbox()
        let jpg = w8.root.appendingPathComponent("weight.jpg").path
        let wrongFormat = try w8.run("chart", "--output", jpg)
        #expect(wrongFormat.status == 64)
        #expect(wrongFormat.stderr == "w8: cannot write '\(jpg)': the chart is written as a .png or .svg file\n")
        #expect(!FileManager.default.fileExists(atPath: jpg))
        let days = try w8.run("chart", "--days", "0")
        #expect(days.status == 64)
        #expect(days.stderr == "w8: --days must be 1 or more, not 0\n")
        let missing = w8.root.appendingPathComponent("no/such/dir/weight.png").path
        let unwritable = try w8.run("chart", "--output", missing)
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr.hasPrefix("w8: "))
        #expect(unwritable.stderr.contains(missing))
        #expect(unwritable.stderr.split(separator: "\n").count == 1)
    }
}
