import Foundation
import W8Core
import W8Text

/// A chart of the weigh-ins, their trend and the goal, drawn with one-column characters for a terminal.
///
/// The layout, top to bottom: plot rows with the weight at the left, an x axis, the first and last dates
/// (`MMM d` in the calendar's time zone), and a legend. Weights are `●`, the trend is a line of `─ │ ╭ ╮ ╰ ╯`, the
/// goal a line of `┄`; where they meet, the weight is drawn over the trend and the trend over the goal.
/// Columns are proportional to time, so gaps between weigh-ins show.
public struct TerminalChart: Sendable {
    public let points: [TrendPoint]
    /// The dots, in date order: every weigh-in (by default each day's earliest, from `points`).
    public let weighIns: [ChartWeighIn]
    public let goal: Double?
    public let unit: WeightUnit
    /// Columns, at least `minimumWidth`.
    public let width: Int
    /// Lines in all, axis, dates and legend included; at least `minimumHeight`.
    public let height: Int
    /// Whether glyphs are wrapped in ANSI SGR colours.
    public let color: Bool
    public let calendar: Calendar

    /// Smaller sizes are clamped up to these.
    public static let minimumWidth = 30
    public static let minimumHeight = 8

    /// The message drawn instead of a chart when there are no points.
    public static var emptyMessage: String {
        // TRANSLATORS: `w8 chart` in a terminal with no weigh-ins; keep 'w8 add 182.4' as written: it is the command.
        tr("No weigh-ins yet: log one with 'w8 add 182.4'.")
    }

    /// A chart of `points` (`TrendAnalysis.points`; put in date order here); `width` and `height` are clamped up to the
    /// minimum size (30 × 8).
    public init(
        points: [TrendPoint], weighIns: [ChartWeighIn]? = nil, goal: Double?, unit: WeightUnit, width: Int, height: Int,
        color: Bool, calendar: Calendar
    ) {
        self.points = points.sorted { $0.date < $1.date }
        self.weighIns = (weighIns ?? ChartWeighIn.of(points)).filter { $0.weight.isFinite }.sorted { $0.date < $1.date }
        self.goal = goal
        self.unit = unit
        self.width = max(width, TerminalChart.minimumWidth)
        self.height = max(height, TerminalChart.minimumHeight)
        self.color = color
        self.calendar = calendar
    }

    /// The chart: `height` lines of at most `width` columns each, every line ending in "\n". Without points, the
    /// empty message instead, wrapped at `width`.
    public func render() -> String {
        let allDates = points.map(\.date) + weighIns.map(\.date)
        guard !points.isEmpty, let first = allDates.min(), let last = allDates.max() else {
            return wrap(TerminalChart.emptyMessage).map { $0 + "\n" }.joined()
        }
        let rows = height - 3
        let scale = YScale(
            values: points.map(\.trend) + weighIns.map(\.weight) + (goal.map { [$0] } ?? []), rows: rows)
        let labels = (0..<rows).map { row in scale.isLabelled(row) ? scale.value(atRow: row).localDecimalText : "" }
        let labelWidth = labels.map(\.count).max() ?? 0
        let columns = width - labelWidth - 1

        var grid = Grid(rows: rows, columns: columns)
        let span = last.timeIntervalSince(first)
        func column(_ date: Date) -> Int {
            span > 0 ? Int((date.timeIntervalSince(first) / span * Double(columns - 1)).rounded()) : 0
        }
        if let goal {
            let row = scale.row(goal)
            for c in 0..<columns { grid[row, c] = Cell(glyph: "┄", style: .goal) }
        }
        drawTrend(
            on: &grid, scale: scale, firstColumn: column(points.first!.date), lastColumn: column(points.last!.date))
        for weighIn in weighIns {
            grid[scale.row(weighIn.weight), column(weighIn.date)] = Cell(glyph: "●", style: .weight)
        }

        var lines: [String] = []
        for row in 0..<rows {
            let label = String(repeating: " ", count: labelWidth - labels[row].count) + labels[row]
            lines.append(label + (labels[row].isEmpty ? "│" : "┤") + paint(grid.cells[row]))
        }
        lines.append(String(repeating: " ", count: labelWidth) + "└" + String(repeating: "─", count: columns))
        let from = TerminalChart.dayLabel(first, calendar: calendar)
        let to = TerminalChart.dayLabel(last, calendar: calendar)
        var dates = from
        if to != from {
            dates += String(repeating: " ", count: max(1, columns - from.count - to.count)) + to
        }
        lines.append(String(repeating: " ", count: labelWidth + 1) + dates)
        lines.append(legend(indent: labelWidth + 1))
        return lines.map { $0 + "\n" }.joined()
    }

    /// The trend sampled at every column's time (linear between points) and joined like asciichart: a change of
    /// row turns a corner in the column where it happens.
    private func drawTrend(on grid: inout Grid, scale: YScale, firstColumn: Int, lastColumn: Int) {
        guard let first = points.first, let last = points.last else { return }
        let span = last.date.timeIntervalSince(first.date)
        var index = 0
        func trend(atColumn c: Int) -> Double {
            guard span > 0, lastColumn > 0 else { return first.trend }
            let date = first.date.addingTimeInterval(span * Double(c) / Double(lastColumn))
            while index + 1 < points.count - 1, points[index + 1].date <= date { index += 1 }
            let a = points[index]
            let b = points[min(index + 1, points.count - 1)]
            let gap = b.date.timeIntervalSince(a.date)
            guard gap > 0 else { return a.trend }
            let f = min(max(date.timeIntervalSince(a.date) / gap, 0), 1)
            return a.trend + f * (b.trend - a.trend)
        }
        var previous = scale.row(trend(atColumn: firstColumn))
        grid[previous, firstColumn] = Cell(glyph: "─", style: .trend)
        guard lastColumn > firstColumn else { return }
        for c in (firstColumn + 1)...lastColumn {
            let row = scale.row(trend(atColumn: c))
            if row == previous {
                grid[row, c] = Cell(glyph: "─", style: .trend)
            } else {
                // Up the screen (rising weight): ╯ then ╭; down the screen (falling weight): ╮ then ╰.
                let rising = row < previous
                grid[previous, c] = Cell(glyph: rising ? "╯" : "╮", style: .trend)
                grid[row, c] = Cell(glyph: rising ? "╭" : "╰", style: .trend)
                for between in (min(row, previous) + 1)..<max(row, previous) {
                    grid[between, c] = Cell(glyph: "│", style: .trend)
                }
            }
            previous = row
        }
    }

    private func legend(indent: Int) -> String {
        // TRANSLATORS: the legend under the terminal chart: the goal line, with the goal weight and its unit.
        let goalText = goal.map { tr("goal {weight}", ["weight": Weight($0, unit).formatted]) }
        // TRANSLATORS: the legend under the terminal chart, beside the dots: the weigh-ins (lower case there).
        let weight = tr("weight")
        // TRANSLATORS: the legend under the terminal chart, beside the line: the trend weight (lower case there).
        let trend = tr("trend")
        let pieces: [(Cell, String)] =
            [(Cell(glyph: "●", style: .weight), weight), (Cell(glyph: "─", style: .trend), trend)]
            + (goalText.map { [(Cell(glyph: "┄", style: .goal), $0)] } ?? [])
        let tail = goal == nil ? "  (\(unit.rawValue))" : ""
        // The roomy legend where it fits, a tight one otherwise, and cut at the width as a last resort.
        for (gap, space) in [("  ", " "), (" ", "")] {
            let plain = pieces.map { String($0.0.glyph) + space + $0.1 }.joined(separator: gap) + tail
            for pad in [indent, 0] where pad + plain.unicodeScalars.count <= width {
                let text = pieces.map { paint([$0.0]) + space + $0.1 }.joined(separator: gap) + tail
                return String(repeating: " ", count: pad) + text
            }
        }
        let plain = pieces.map { String($0.0.glyph) + $0.1 }.joined(separator: " ") + tail
        return String(plain.unicodeScalars.prefix(width).map(Character.init))
    }

    /// Cells as text, each run of one style wrapped in its SGR colour when `color` is on.
    private func paint(_ cells: [Cell]) -> String {
        guard color else { return String(cells.map(\.glyph)) }
        var text = ""
        var current: Cell.Style?
        for cell in cells {
            if cell.style != current {
                if current != nil { text += "\u{1B}[0m" }
                if let code = cell.style?.sgr { text += "\u{1B}[\(code)m" }
                current = cell.style
            }
            text.append(cell.glyph)
        }
        if current != nil { text += "\u{1B}[0m" }
        return text
    }

    private func wrap(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }

    /// "Nov 3": the day of `date` in the calendar's time zone, in English.
    static func dayLabel(_ date: Date, calendar: Calendar) -> String {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        let parts = gregorian.dateComponents([.month, .day], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(months[(parts.month ?? 1) - 1]) \(parts.day ?? 1)"
    }
}

/// One character of the plot and what it shows.
private struct Cell {
    enum Style { case weight, trend, goal }

    var glyph: Character
    var style: Style?

    static let blank = Cell(glyph: " ", style: nil)
}

extension Cell.Style {
    /// Cyan weights, yellow trend, green goal.
    var sgr: String {
        switch self {
        case .weight: "1;36"
        case .trend: "33"
        case .goal: "32"
        }
    }
}

private struct Grid {
    var cells: [[Cell]]

    init(rows: Int, columns: Int) {
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    subscript(row: Int, column: Int) -> Cell {
        get { cells[row][column] }
        set { cells[row][column] = newValue }
    }
}

/// The weights on the rows: a "nice" step per row (1, 2 or 5 × 10ⁿ, at least 0.1) so the labels are round numbers,
/// a range of at least one unit so a single weight is not degenerate, and the values centred.
private struct YScale {
    let rows: Int
    let step: Double
    /// The value of the bottom row, in steps.
    let bottom: Int

    init(values: [Double], rows: Int) {
        self.rows = rows
        let low = values.min() ?? 0
        let high = values.max() ?? 0
        let intervals = Double(rows - 1)
        var step = YScale.niceStep(atLeast: max(high - low, 1) / intervals)
        while true {
            // The bottoms that keep both ends inside, and of those the one nearest to centring the values.
            let lowest = Int((high / step - 1e-9).rounded(.up)) - (rows - 1)
            let highest = Int((low / step + 1e-9).rounded(.down))
            if lowest <= highest {
                let centred = Int((((low + high) / 2 - step * intervals / 2) / step).rounded(.down))
                self.step = step
                bottom = min(max(centred, lowest), highest)
                return
            }
            step = YScale.niceStep(atLeast: step * 1.000001)
        }
    }

    static func niceStep(atLeast minimum: Double) -> Double {
        var magnitude = 0.1
        while true {
            for factor in [1.0, 2, 5] where factor * magnitude >= minimum - 1e-12 { return factor * magnitude }
            magnitude *= 10
        }
    }

    /// Row 0 is the top.
    func value(atRow row: Int) -> Double { Double(bottom + rows - 1 - row) * step }

    func row(_ value: Double) -> Int {
        let fromBottom = Int((value / step - Double(bottom)).rounded())
        return min(max(rows - 1 - fromBottom, 0), rows - 1)
    }

    /// Every row is labelled on short charts; taller ones label every second, third… row from the bottom.
    func isLabelled(_ row: Int) -> Bool {
        let every = max(1, (rows + 9) / 10)
        return (rows - 1 - row) % every == 0
    }
}
