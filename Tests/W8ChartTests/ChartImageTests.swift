import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8Chart

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Chart image as PNG")
struct ChartPNGTests {
    @Test("The PNG decodes at the requested size, fully opaque", arguments: [(800, 400), (640, 320), (1200, 300)])
    func decodesAtItsSize(width: Int, height: Int) throws {
        let image = try SampleCharts.chart(width: width, height: height).decoded()
        #expect(image.width == width)
        #expect(image.height == height)
        #expect(image.allOpaque)
    }

    @Test("A new file is mode 0600; one it replaces keeps its mode; no temporary file is left")
    func privateAndAtomic() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("chart.png")
        // Given an older chart anyone may read
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))

        try SampleCharts.chart().write(to: path, format: .png)

        // The person chose 0644 for that file: replacing it does not narrow it.
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
        #expect(directory.contents == ["chart.png"])
        #expect(try DecodedPNG(path: path).width == 800)

        let fresh = directory.appending("new.png")
        try SampleCharts.chart().write(to: fresh, format: .png)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? NSNumber)?.intValue == 0o600
        )
    }

    @Test("A series with a goal has pixels of the trend colour and of the goal colour")
    func trendAndGoalColours() throws {
        let image = try SampleCharts.chart(goal: 178).decoded()
        #expect(image.count(of: ChartPalette.trend) > 200)
        #expect(image.count(of: ChartPalette.goal) > 200)
        #expect(image.count(of: ChartPalette.weight) > 30)
    }

    @Test("Without a goal, no pixel has the goal colour")
    func noGoalColourWithoutGoal() throws {
        let image = try SampleCharts.chart(goal: nil).decoded()
        #expect(image.count(of: ChartPalette.goal) == 0)
        #expect(image.count(of: ChartPalette.trend) > 200)
    }

    @Test("A goal far below the weights still shows: it is inside the weight range")
    func goalWidensTheRange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("chart.png")

        try SampleCharts.chart(goal: 150).write(to: path, format: .png)

        #expect(try DecodedPNG(path: path).count(of: ChartPalette.goal) > 200)
    }

    @Test("No weigh-ins: a valid PNG with the message and no chart lines")
    func emptyState() throws {
        let image = try SampleCharts.chart(points: [], goal: 170).decoded()
        #expect(image.width == 800 && image.height == 400)
        #expect(image.count(of: ChartPalette.message) > 20)
        #expect(image.count(of: ChartPalette.trend) == 0)
        #expect(image.count(of: ChartPalette.goal) == 0)
    }

    @Test("One weigh-in: the ranges are padded and the point and its trend are drawn")
    func onePoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("one.png")
        let point = SampleCharts.points[0]

        try SampleCharts.chart(points: [point], goal: nil).write(to: path, format: .png)

        let image = try DecodedPNG(path: path)
        #expect(image.count(of: ChartPalette.trend) > 5)
        #expect(image.count(of: ChartPalette.weight) > 5)
    }

    /// The lowest row (largest y) holding a pixel of `color`; nil when none does.
    static func lowestRow(of color: ChartColor, in image: DecodedPNG, above bottom: Int) -> Int? {
        (0..<bottom).reversed().first { y in
            (0..<image.width).contains { x in
                let pixel = image.pixel(x: x, y: y)
                return abs(Int(pixel.red) - Int(color.red)) <= 6 && abs(Int(pixel.green) - Int(color.green)) <= 6
                    && abs(Int(pixel.blue) - Int(color.blue)) <= 6
            }
        }
    }

    @Test(
        "A second weigh-in of the last day, well below its first, is drawn: the dots show every weigh-in (issue 25)",
        arguments: [ChartStyle.full, .sparkline])
    func everyWeighInIsADot(style: ChartStyle) throws {
        // The trend takes each day's first weight; the last morning's 184-odd is followed at noon by 170. The goal,
        // at 168, holds the weight axis still, so that the two images share their scale.
        let points = Array(SampleCharts.points.prefix(10))
        let last = try #require(points.last)
        let later = ChartWeighIn(date: last.date.addingTimeInterval(4 * 3600), weight: 170)
        let size = style == .full ? (800, 400) : (128, 128)
        func image(_ weighIns: [ChartWeighIn]) throws -> DecodedPNG {
            try ChartImage(
                points: points, weighIns: weighIns, goal: 168, unit: .lb, timeZone: SampleCharts.berlin,
                width: size.0, height: size.1, style: style
            ).decoded()
        }
        let firstOnly = try image(ChartWeighIn.of(points))
        let every = try image(ChartWeighIn.of(points) + [later])
        // The plot, above the full chart's date labels.
        let bottom = style == .full ? size.1 - 36 : size.1
        let before = try #require(Self.lowestRow(of: ChartPalette.weight, in: firstOnly, above: bottom))
        let after = try #require(Self.lowestRow(of: ChartPalette.weight, in: every, above: bottom))
        // 170 lies far below every other weight: its dot is the lowest weight-coloured thing drawn.
        #expect(after > before + size.1 / 8, "lowest weigh-in row \(after), without it \(before)")
    }

    @Test("Several threads render at once, each to its own file")
    func concurrentRendering() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let chart = SampleCharts.chart()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                let path = directory.appending("chart-\(index).\(index.isMultiple(of: 2) ? "png" : "svg")")
                group.addTask { try chart.write(to: path, format: ChartImageFormat(path: path)!) }
            }
            try await group.waitForAll()
        }

        #expect(directory.contents.count == 8)
        for index in stride(from: 0, to: 8, by: 2) {
            #expect(try DecodedPNG(path: directory.appending("chart-\(index).png")).count(of: ChartPalette.trend) > 200)
        }
    }
}

@Suite("Chart image as SVG")
struct ChartSVGTests {
    @Test(
        "The SVG is well-formed XML whose root <svg> has the size in CSS pixels",
        arguments: [(SampleCharts.points, 800, 400), ([], 640, 320), (Array(SampleCharts.points.prefix(1)), 800, 400)])
    func wellFormed(points: [TrendPoint], width: Int, height: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("chart.svg")

        try SampleCharts.chart(points: points, width: width, height: height).write(to: path, format: .svg)

        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let (root, error) = XMLRoot.parse(data)
        #expect(error == nil)
        // The check itself rejects a document cut short and one with a mismatched tag.
        #expect(XMLRoot.parse(data.prefix(data.count / 2)).error != nil)
        #expect(XMLRoot.parse(Data("<svg><g></svg></g>".utf8)).error != nil)
        #expect(root?.name == "svg")
        #expect(root?.attributes["width"] == "\(width)px")
        #expect(root?.attributes["height"] == "\(height)px")
        #expect(root?.attributes["viewBox"] == "0 0 \(width) \(height)")
        #expect((root?.elements ?? 0) > 10)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("The SVG draws the trend and goal colours only when there is a goal")
    func colours() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        try SampleCharts.chart(goal: 178).write(to: directory.appending("goal.svg"), format: .svg)
        try SampleCharts.chart(goal: nil).write(to: directory.appending("none.svg"), format: .svg)

        let withGoal = try String(contentsOfFile: directory.appending("goal.svg"), encoding: .utf8)
        let withoutGoal = try String(contentsOfFile: directory.appending("none.svg"), encoding: .utf8)
        // cairo writes colours as rgb(percent) in 1.16 and as rgb(0–255) or hex in later releases.
        let trend = [ChartPalette.trend].flatMap(SVGColour.spellings)
        let goal = [ChartPalette.goal].flatMap(SVGColour.spellings)
        #expect(trend.contains { withGoal.contains($0) })
        #expect(goal.contains { withGoal.contains($0) })
        #expect(!goal.contains { withoutGoal.contains($0) })
    }
}

/// The ways cairo's SVG surface may spell an opaque colour.
enum SVGColour {
    static func spellings(_ color: ChartColor) -> [String] {
        let channels = [color.red, color.green, color.blue]
        let percent = channels.map { String(format: "%.0f%%", Double($0) / 255 * 100) }.joined(separator: ",")
        let percentPrecise = channels.map { String(format: "%f%%", Double($0) / 255 * 100) }.joined(separator: ",")
        let bytes = channels.map(String.init).joined(separator: ",")
        let hex = "#" + channels.map { String(format: "%02x", $0) }.joined()
        return ["rgb(\(percent))", "rgb(\(percentPrecise))", "rgb(\(bytes))", hex]
    }
}

@Suite("Chart image format from a path")
struct ChartImageFormatTests {
    @Test(arguments: [
        ("a.png", ChartImageFormat?.some(.png)), ("A.PNG", .png), ("b.svg", .svg), ("dir.d/Chart.Svg", .svg),
        ("./out/w8.png", .png), ("c.jpg", nil), ("png", nil), ("svg", nil), (".png", nil), ("a.png/", nil),
        ("a.png.bak", nil), ("", nil),
    ])
    func fromExtension(path: String, expected: ChartImageFormat?) {
        #expect(ChartImageFormat(path: path) == expected)
    }
}

@Suite("Chart image errors")
struct ChartImageErrorTests {
    @Test("A missing directory throws an error naming the path", arguments: [ChartImageFormat.png, .svg])
    func missingDirectory(format: ChartImageFormat) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("missing/chart.\(format.rawValue)")

        let error = #expect(throws: ChartImageError.self) {
            try SampleCharts.chart().write(to: path, format: format)
        }

        #expect(error?.description.contains("'\(path)'") == true)
        #expect(error?.description.contains("No such file or directory") == true)
    }

    @Test("A path that is a directory throws, leaves the directory alone and no temporary file behind")
    func pathIsADirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("chart.png")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)

        let error = #expect(throws: ChartImageError.self) {
            try SampleCharts.chart().write(to: path, format: .png)
        }

        #expect(error?.description.contains("'\(path)'") == true)
        #expect(directory.contents == ["chart.png"])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("A size cairo cannot draw throws before touching the file", arguments: [(0, 400), (800, -1), (100_000, 400)])
    func invalidSize(width: Int, height: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("chart.png")

        let error = #expect(throws: ChartImageError.self) {
            try SampleCharts.chart(width: width, height: height).write(to: path, format: .png)
        }

        #expect(error?.description.contains("'\(path)'") == true)
        #expect(error?.description.contains("\(width)×\(height)") == true)
        #expect(directory.contents.isEmpty)
    }
}

@Suite("Chart axes")
struct ChartAxesTests {
    @Test(
        "4–6 weight ticks, one decimal apart or more, that hold every value",
        arguments: [
            [182.4], [182.4, 182.4], [80.0, 80.3], [70.1, 95.6], [186.0, 178.0], [150.0, 186.9], [44.0, 700.0],
            [20.0, 20.05], [181.95, 182.05, 170.0], [99.99, 100.01],
        ])
    func weightTicks(values: [Double]) {
        let axis = WeightAxis(covering: values)

        #expect((4...6).contains(axis.ticks.count), "\(axis.ticks)")
        #expect(axis.lower < values.min()! && axis.upper > values.max()!, "\(axis.ticks)")
        let labels = axis.ticks.map { WeightAxis.label($0, unit: .kg) }
        #expect(Set(labels).count == labels.count, "\(labels)")
        let steps = zip(axis.ticks.dropFirst(), axis.ticks).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - steps[0]) < 1e-9 && $0 >= 0.1 - 1e-9 }, "\(axis.ticks)")
    }

    @Test("Weight labels have one decimal and the unit")
    func weightLabel() {
        #expect(WeightAxis.label(182, unit: .lb) == "182.0 lb")
        #expect(WeightAxis.label(82.45, unit: .kg) == "82.5 kg")
    }

    @Test(
        "Date labels are MMM d in the chart's time zone",
        arguments: [("Europe/Berlin", "Mar 30"), ("America/New_York", "Mar 29"), ("UTC", "Mar 29")])
    func dateLabelInTimeZone(zone: String, expected: String) {
        let date = Date(timeIntervalSince1970: 1_774_827_000)  // 2026-03-29 23:30 UTC
        let axis = DateAxis(dates: [date], timeZone: TimeZone(identifier: zone)!, maxLabels: 8)

        #expect(axis.label(date) == expected)
    }

    @Test("Date ticks are local midnights, also across the daylight-saving change, and fit the label budget")
    func dateTicksAtMidnight() {
        let axis = DateAxis(dates: SampleCharts.points.map(\.date), timeZone: SampleCharts.berlin, maxLabels: 9)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = SampleCharts.berlin

        #expect((2...9).contains(axis.ticks.count), "\(axis.ticks)")
        #expect(
            axis.ticks.allSatisfy {
                calendar.dateComponents([.hour, .minute], from: $0) == DateComponents(hour: 0, minute: 0)
            })
        #expect(axis.ticks.allSatisfy { $0 >= axis.start && $0 <= axis.end })
        #expect(axis.ticks.map(axis.label).contains("Mar 29") || axis.ticks.map(axis.label).contains("Mar 30"))
    }

    @Test("Positions along the time axis are proportional to time")
    func proportionalTime() {
        let first = Date(timeIntervalSince1970: 1_770_000_000)
        let dates = [first, first.addingTimeInterval(86_400), first.addingTimeInterval(10 * 86_400)]
        let axis = DateAxis(dates: dates, timeZone: SampleCharts.berlin, maxLabels: 8)

        let fractions = dates.map(axis.fraction)
        #expect(fractions[0] > 0 && fractions[2] < 1)
        #expect(abs((fractions[1] - fractions[0]) * 10 - (fractions[2] - fractions[0])) < 1e-9)
    }

    @Test(
        "The smooth trend passes through every point and never leaves the range of two neighbouring points",
        arguments: [
            [(0.0, 10.0), (10, 10), (20, 0), (30, 5), (40, 5.5)], [(0, 0), (1, 100), (50, 101), (51, 0)],
            [(0, 3), (10, 3)], [(0, 1), (5, 2), (5, 4), (9, 3)],
        ])
    func monotoneCurve(points: [(Double, Double)]) {
        let points = points.map { (x: $0.0, y: $0.1) }
        let segments = MonotoneCubic.segments(through: points)

        #expect(segments.count == points.count - 1)
        for (index, segment) in segments.enumerated() {
            let start = points[index]
            #expect(segment.end == points[index + 1])
            let low = min(start.y, segment.end.y) - 1e-9
            let high = max(start.y, segment.end.y) + 1e-9
            for step in 0...50 {
                let t = Double(step) / 50
                let u = 1 - t
                let y =
                    u * u * u * start.y + 3 * u * u * t * segment.control1.y + 3 * u * t * t * segment.control2.y
                    + t * t * t * segment.end.y
                #expect(y >= low && y <= high, "segment \(index) at t=\(t): \(y) outside \(low)...\(high)")
            }
        }
    }
}
