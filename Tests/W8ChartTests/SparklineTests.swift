import Foundation
import Testing
import W8Core
import W8TestSupport

@testable import W8Chart

/// The weekly summary's image: read at 48–128 px, where notification servers draw it.
@Suite struct SparklineTests {
    func sparkline(goal: Double? = 178, size: Int = 128, points: [TrendPoint] = SampleCharts.points) -> ChartImage {
        ChartImage(
            points: points, goal: goal, unit: .lb, timeZone: SampleCharts.berlin, width: size, height: size,
            title: "Weight, last 30 days", style: .sparkline)
    }

    @Test("No text at all: no pixel of the label, title or message colours", arguments: [48, 128])
    func noText(size: Int) throws {
        let image = try sparkline(size: size).decoded()
        #expect(image.width == size && image.height == size)
        for colour in [ChartPalette.label, ChartPalette.title, ChartPalette.message, ChartPalette.axis] {
            #expect(image.count(of: colour, tolerance: 2) == 0, "colour \(colour)")
        }
    }

    @Test("Trend and goal are drawn, and still there at 48 px", arguments: [(48, 40), (128, 300)])
    func trendAndGoal(size: Int, minimum: Int) throws {
        let image = try sparkline(size: size).decoded()
        #expect(image.count(of: ChartPalette.trend) > minimum)
        #expect(image.count(of: ChartPalette.goal) > minimum / 2)
    }

    @Test("The trend is a thick stroke: at 128 px a column through it has at least 6 trend pixels in a run")
    func thickTrend() throws {
        let image = try sparkline(goal: nil).decoded()
        let column = image.width / 2
        var longest = 0
        var run = 0
        for row in 0..<image.height {
            let pixel = image.pixel(x: column, y: row)
            let close =
                abs(Int(pixel.red) - Int(ChartPalette.trend.red)) <= 6
                && abs(Int(pixel.green) - Int(ChartPalette.trend.green)) <= 6
                && abs(Int(pixel.blue) - Int(ChartPalette.trend.blue)) <= 6
            run = close ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest >= 6)
        #expect(image.count(of: ChartPalette.goal) == 0)
    }

    @Test("The goal line is inside the image also when the goal is far below the weights")
    func farGoal() throws {
        let image = try sparkline(goal: 120).decoded()
        // The goal is the lowest value: its line runs along the bottom margin, below every trend pixel.
        var goalRows: [Int] = []
        var trendRows: [Int] = []
        for row in 0..<image.height {
            for column in 0..<image.width {
                let pixel = image.pixel(x: column, y: row)
                if pixel == ChartPalette.goal { goalRows.append(row) }
                if pixel == ChartPalette.trend { trendRows.append(row) }
            }
        }
        let goalTop = try #require(goalRows.min())
        #expect(goalTop > image.height * 3 / 4)
        #expect(trendRows.allSatisfy { $0 < goalTop })
    }

    @Test("The sparkline's sizes are 32–1024; a full chart still refuses 128", arguments: [(16, false), (128, true)])
    func sizes(size: Int, drawable: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("spark.png")

        let spark = Result { try sparkline(size: size).write(to: path, format: .png) }
        #expect(((try? spark.get()) != nil) == drawable)
        var full = sparkline(size: 128)
        full.style = .full
        #expect(throws: ChartImageError.self) { try full.write(to: directory.appending("full.png"), format: .png) }
    }

    @Test("One weigh-in: its dot and the trend dot are drawn")
    func onePoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("spark.png")

        try sparkline(goal: nil, points: [SampleCharts.points[0]]).write(to: path, format: .png)

        #expect(try DecodedPNG(path: path).count(of: ChartPalette.trend) > 20)
    }
}
