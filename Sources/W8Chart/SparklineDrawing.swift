import Foundation
import W8Core

/// The chart at notification size (48–128 px, where servers draw the image): the trend as a thick line over the
/// weigh-ins, the goal as a line across, the latest trend as a dot. No text: at that size no label can be read.
struct SparklineDrawing: Sendable {
    let chart: ChartImage

    func draw(on canvas: CairoCanvas) {
        canvas.fillRectangle(x: 0, y: 0, width: canvas.width, height: canvas.height, color: ChartPalette.background)
        let points = chart.points.filter { $0.weight.isFinite && $0.trend.isFinite }.sorted { $0.date < $1.date }
        let dots = chart.dots
        let dates = points.map(\.date) + dots.map(\.date)
        guard !points.isEmpty, let first = dates.min(), let last = dates.max() else { return }
        // Every length scales with the smaller side, so a 48 px image is the 128 px one shrunk.
        let unit = min(canvas.width, canvas.height) / 128
        let inset = 12 * unit
        let plot = (left: inset, top: inset, right: canvas.width - inset, bottom: canvas.height - inset)
        let goal = chart.goal.flatMap { $0.isFinite ? $0 : nil }
        let values = points.map(\.trend) + dots.map(\.weight) + (goal.map { [$0] } ?? [])
        var lower = values.min()!
        var upper = values.max()!
        // A flat week still gets a band: 1 unit either side, so a steady line sits in the middle.
        if upper - lower < 2 {
            let middle = (upper + lower) / 2
            (lower, upper) = (middle - 1, middle + 1)
        }
        let span = last.timeIntervalSince(first)
        let x = { (date: Date) in
            span > 0
                ? plot.left + date.timeIntervalSince(first) / span * (plot.right - plot.left)
                : (plot.left + plot.right) / 2
        }
        let y = { (value: Double) in
            plot.bottom - (value - lower) / (upper - lower) * (plot.bottom - plot.top)
        }

        if let goal {
            let row = y(goal)
            canvas.strokeLine(
                from: (plot.left - 4 * unit, row), to: (plot.right + 4 * unit, row), width: 5 * unit,
                color: ChartPalette.goal, dash: [12 * unit, 7 * unit])
        }
        let radius = max(3 * unit, 1.25)
        for dot in dots {
            canvas.fillCircle(x: x(dot.date), y: y(dot.weight), radius: radius, color: ChartPalette.weight)
        }
        let trend = points.map { (x: x($0.date), y: y($0.trend)) }
        if trend.count > 1 {
            canvas.strokePath(through: trend, smooth: true, width: 8 * unit, color: ChartPalette.trend)
        }
        // The latest weigh-in, drawn over the trend so that it shows where the summary's "latest" is.
        if let latest = dots.last {
            canvas.fillCircle(x: x(latest.date), y: y(latest.weight), radius: radius, color: ChartPalette.weight)
        }
        canvas.fillCircle(x: trend.last!.x, y: trend.last!.y, radius: 9 * unit, color: ChartPalette.trend)
    }
}
