import Foundation
import W8Core
import W8Text

/// The chart's colours; the tests look for the trend and goal colours in the pixels.
enum ChartPalette {
    static let background = ChartColor(0xFFFFFF)
    static let grid = ChartColor(0xE5E7EB)
    static let axis = ChartColor(0x9CA3AF)
    static let label = ChartColor(0x4B5563)
    static let title = ChartColor(0x111827)
    static let message = ChartColor(0x6B7280)
    static let weight = ChartColor(0x94A3B8)
    static let trend = ChartColor(0x2563EB)
    static let goal = ChartColor(0x16A34A)
}

/// Draws one chart on a canvas of any surface, so the PNG and the SVG are the same picture.
struct ChartDrawing: Sendable {
    let chart: ChartImage

    private let labelSize = 12.0
    private let headerHeight = 36.0
    private let margin = 16.0

    init(chart: ChartImage) {
        self.chart = chart
    }

    func draw(on canvas: CairoCanvas) {
        canvas.fillRectangle(x: 0, y: 0, width: canvas.width, height: canvas.height, color: ChartPalette.background)
        let points = chart.points.filter { $0.weight.isFinite && $0.trend.isFinite }.sorted { $0.date < $1.date }
        let legendStart = points.isEmpty ? canvas.width : drawLegend(goal: chart.goal?.isFinite == true, on: canvas)
        if let title = chart.title, !title.isEmpty {
            canvas.setFont(size: 15, bold: true)
            let fitted = fit(title, width: legendStart - 2 * margin, on: canvas)
            canvas.showText(fitted, x: margin, y: 24, color: ChartPalette.title)
        }
        guard !points.isEmpty else {
            canvas.setFont(size: 16)
            canvas.showText(
                // TRANSLATORS: in the middle of an empty chart image.
                tr("No weigh-ins yet"), x: canvas.width / 2, y: canvas.height / 2 + canvas.digitMiddle, anchor: .center,
                color: ChartPalette.message)
            return
        }
        drawChart(points, on: canvas)
    }

    private func drawChart(_ points: [TrendPoint], on canvas: CairoCanvas) {
        let goal = chart.goal.flatMap { $0.isFinite ? $0 : nil }
        let dots = chart.dots
        let weights = WeightAxis(covering: points.map(\.trend) + dots.map(\.weight) + (goal.map { [$0] } ?? []))
        let weightLabels = weights.ticks.map { WeightAxis.label($0, unit: chart.unit) }

        canvas.setFont(size: labelSize)
        let left = (margin + (weightLabels.map(canvas.textWidth).max() ?? 0) + 8).rounded()
        let plot = (left: left, top: headerHeight + 8, right: canvas.width - 20, bottom: canvas.height - 36)
        let dates = DateAxis(
            dates: points.map(\.date) + dots.map(\.date), timeZone: chart.timeZone,
            maxLabels: Int((plot.right - plot.left) / 72))
        let x = { (date: Date) in plot.left + dates.fraction(date) * (plot.right - plot.left) }
        let y = { (weight: Double) in
            plot.bottom - (weight - weights.lower) / (weights.upper - weights.lower) * (plot.bottom - plot.top)
        }

        // Grid and weight labels.
        let middle = canvas.digitMiddle
        for (tick, label) in zip(weights.ticks, weightLabels) {
            let row = crisp(y(tick))
            canvas.strokeLine(from: (plot.left, row), to: (plot.right, row), width: 1, color: ChartPalette.grid)
            canvas.showText(label, x: plot.left - 8, y: y(tick) + middle, anchor: .right, color: ChartPalette.label)
        }
        // Date ticks and labels, kept inside the image.
        for tick in dates.ticks {
            let column = crisp(x(tick))
            canvas.strokeLine(
                from: (column, plot.bottom), to: (column, plot.bottom + 5), width: 1, color: ChartPalette.axis)
            let label = dates.label(tick)
            let half = canvas.textWidth(label) / 2
            let centre = min(max(column, half + 2), canvas.width - half - 2)
            canvas.showText(label, x: centre, y: plot.bottom + 20, anchor: .center, color: ChartPalette.label)
        }
        canvas.strokeLine(
            from: (crisp(plot.left), plot.top), to: (crisp(plot.left), plot.bottom), width: 1, color: ChartPalette.axis)
        canvas.strokeLine(
            from: (plot.left, crisp(plot.bottom)), to: (plot.right, crisp(plot.bottom)), width: 1,
            color: ChartPalette.axis)

        // The goal line sits on whole pixels (2 px wide) so its colour is drawn exactly, not only blended.
        let goalRow = goal.map { y($0).rounded() }
        if let goalRow {
            canvas.strokeLine(
                from: (plot.left, goalRow), to: (plot.right, goalRow), width: 2, color: ChartPalette.goal, dash: [7, 5])
        }

        // Weigh-ins as dots, smaller when they crowd; the trend on top of them.
        let spacing = (plot.right - plot.left) / Double(points.count)
        let radius = min(max(spacing / 3, 1.5), 3.5)
        for dot in dots {
            canvas.fillCircle(x: x(dot.date), y: y(dot.weight), radius: radius, color: ChartPalette.weight)
        }
        let trend = points.map { (x: x($0.date), y: y($0.trend)) }
        if trend.count == 1 {
            canvas.fillCircle(x: trend[0].x, y: trend[0].y, radius: 2.5, color: ChartPalette.trend)
        } else {
            canvas.strokePath(through: trend, smooth: true, width: 2.5, color: ChartPalette.trend)
        }

        if let goal, let goalRow {
            canvas.setFont(size: labelSize, bold: true)
            // TRANSLATORS: the label of the goal line in the chart image: {weight} is the goal with its unit.
            let label = tr("Goal {weight}", ["weight": WeightAxis.label(goal, unit: chart.unit)])
            let width = canvas.textWidth(label)
            let baseline = goalRow - 6 - labelSize < plot.top ? goalRow + 6 + labelSize : goalRow - 6
            canvas.fillRectangle(
                x: plot.right - width - 8, y: baseline - labelSize, width: width + 6, height: labelSize + 4,
                color: ChartPalette.background)
            canvas.showText(label, x: plot.right - 5, y: baseline, anchor: .right, color: ChartPalette.goal)
        }
    }

    /// "● Weight  ━ Trend  ╍ Goal" at the top right, in the header beside the title; returns where it starts.
    private func drawLegend(goal: Bool, on canvas: CairoCanvas) -> Double {
        canvas.setFont(size: labelSize)
        let baseline = 24.0
        let middle = baseline - canvas.digitMiddle
        let entries: [(label: String, swatch: LegendSwatch)] =
            // TRANSLATORS: the legend of the chart image: the weigh-ins' dots, the trend line, the goal line.
            [(tr("Weight"), .dot), (tr("Trend"), .line)] + (goal ? [(tr("Goal"), .dashedLine)] : [])
        var right = canvas.width - 20
        for (label, swatch) in entries.reversed() {
            let start = right - canvas.textWidth(label) - 20
            switch swatch {
            case .dot:
                canvas.fillCircle(x: start + 7, y: middle, radius: 3.5, color: ChartPalette.weight)
            case .line:
                canvas.strokeLine(
                    from: (start, middle), to: (start + 14, middle), width: 2.5, color: ChartPalette.trend)
            case .dashedLine:
                let row = middle.rounded()
                canvas.strokeLine(
                    from: (start, row), to: (start + 14, row), width: 2, color: ChartPalette.goal, dash: [4, 3])
            }
            canvas.showText(label, x: start + 20, y: baseline, color: ChartPalette.label)
            right = start - 16
        }
        return right + 16
    }

    /// `text`, shortened with "…" until it fits `width` in the current font.
    private func fit(_ text: String, width: Double, on canvas: CairoCanvas) -> String {
        guard canvas.textWidth(text) > width else { return text }
        var kept = Substring(text)
        while !kept.isEmpty, canvas.textWidth(kept + "…") > width { kept = kept.dropLast() }
        return kept + "…"
    }

    private enum LegendSwatch {
        case dot, line, dashedLine
    }

    /// The middle of the pixel row or column at `value`, where a 1-pixel line is sharp.
    private func crisp(_ value: Double) -> Double { value.rounded(.down) + 0.5 }
}
