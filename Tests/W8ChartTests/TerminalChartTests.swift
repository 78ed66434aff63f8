import Foundation
import Testing
import W8TestSupport

@testable import W8Chart
@testable import W8Core

/// Six weigh-ins over ten days in November, at 07:30 UTC, with gaps of one, two and four days.
private let series: [TrendPoint] = {
    let cal = PinnedCalendar.utc
    let weights: [(day: Int, lb: Double)] = [(0, 182.4), (1, 181.8), (3, 182.0), (4, 180.9), (8, 180.2), (9, 179.6)]
    let entries = weights.map { WeightEntry(weight: Weight($0.lb, .lb), date: cal.date(2026, 11, 3 + $0.day, 7, 30)) }
    return TrendAnalysis(entries: entries, unit: .lb, goal: 178, now: cal.date(2026, 11, 12, 20), calendar: cal).points
}()

private func chart(
    _ points: [TrendPoint] = series, goal: Double? = 178, width: Int = 40, height: Int = 10, color: Bool = false,
    calendar: Calendar = PinnedCalendar.utc
) -> String {
    TerminalChart(
        points: points, goal: goal, unit: .lb, width: width, height: height, color: color, calendar: calendar
    ).render()
}

private func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
}

private func withoutEscapes(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

@Suite struct TerminalChartTests {
    /// The last day's 179.6 is followed that evening by 175.0: the trend keeps the first, the dots show both, and
    /// the chart reaches down to the later one (issue 25: "latest 175.0" and one dot at 179.6 disagreed).
    @Test func everyWeighInOfADayIsADot() {
        let last = series.last!
        let evening = ChartWeighIn(date: last.date.addingTimeInterval(12 * 3600), weight: 175.0)
        let text = TerminalChart(
            points: series, weighIns: ChartWeighIn.of(series) + [evening], goal: nil, unit: .lb, width: 40,
            height: 12, color: false, calendar: PinnedCalendar.utc
        ).render()
        let rows = lines(text).dropLast(3)
        let dots = rows.map { $0.filter { $0 == "●" }.count }
        #expect(dots.reduce(0, +) == series.count + 1, "\(text)")
        // The lowest plotted row holds the evening's dot, in the last column.
        let lowest = rows.lastIndex { $0.contains("●") }!
        #expect(rows[lowest].hasSuffix("●"), "\(text)")
        // Without it, no dot is that low.
        #expect(!lines(chart(goal: nil, height: 12)).dropLast(3)[lowest].contains("●"))
    }

    // Trend 182.40, 182.34, 182.28, 182.14, 181.47, 181.28; the goal widens the range down to 178.
    @Test func golden() {
        let expected =
            [
                "183.0┤                                  ",
                "182.0┤●───●──────●─────────────────╮    ",
                "181.0┤               ●             ╰────",
                "180.0┤                             ●   ●",
                "179.0┤                                  ",
                "178.0┤┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄",
                "177.0┤                                  ",
                "     └──────────────────────────────────",
                "      Nov 3                       Nov 12",
                "      ● weight  ─ trend  ┄ goal 178.0 lb",
            ].joined(separator: "\n") + "\n"
        #expect(chart() == expected)
    }

    // Smaller sizes are clamped up to 30 × 8.
    @Test(arguments: [(40, 10), (30, 8), (57, 13), (80, 24), (120, 40), (10, 3), (0, 0)])
    func linesFitTheSize(width: Int, height: Int) {
        for goal in [178.0, 120, nil] as [Double?] {
            let text = chart(goal: goal, width: width, height: height)
            #expect(text.hasSuffix("\n"))
            let all = lines(text)
            #expect(all.count == max(height, 8))
            for line in all { #expect(line.unicodeScalars.count <= max(width, 30), "\(line)") }
            // The plot rows and the x axis take the whole width.
            for line in all.prefix(max(height, 8) - 2) { #expect(line.unicodeScalars.count == max(width, 30)) }
        }
    }

    @Test func noEscapesWithoutColor() {
        #expect(!chart(color: false).contains("\u{1B}"))
        #expect(!chart(goal: nil, color: false).contains("\u{1B}"))
        #expect(!chart([], color: false).contains("\u{1B}"))
    }

    // Colour only wraps glyphs: without the escapes it is the plain chart, and weight, trend and goal differ.
    @Test func colorWrapsGlyphsInDistinctColours() throws {
        let colored = chart(color: true)
        #expect(colored.contains("\u{1B}["))
        #expect(withoutEscapes(colored) == chart(color: false))
        func sgr(before glyph: String) throws -> String {
            let match = try #require(colored.range(of: "\u{1B}\\[[0-9;]*m\(glyph)", options: .regularExpression))
            return String(colored[match].dropLast())
        }
        let codes = try [sgr(before: "●"), sgr(before: "─"), sgr(before: "┄")]
        #expect(Set(codes).count == 3, "\(codes)")
    }

    @Test func emptyStateIsOneLine() {
        #expect(chart([], width: 80) == "No weigh-ins yet: log one with 'w8 add 182.4'.\n")
        #expect(chart([], goal: nil, width: 80, color: true) == "No weigh-ins yet: log one with 'w8 add 182.4'.\n")
    }

    @Test func emptyStateWrapsOnANarrowTerminal() {
        let text = chart([], width: 30)
        #expect(text == "No weigh-ins yet: log one with\n'w8 add 182.4'.\n")
    }

    // One weigh-in still draws: one dot, a range around it that is not a single value, one date.
    @Test func oneEntryDraws() throws {
        let text = chart(Array(series.prefix(1)), goal: nil)
        let all = lines(text)
        #expect(all.count == 10)
        let plot = all.prefix(7)
        #expect(plot.joined().filter { $0 == "●" }.count == 1)
        let labels = plot.compactMap {
            Double($0.prefix { $0 != "┤" && $0 != "│" }.trimmingCharacters(in: .whitespaces))
        }
        let top = try #require(labels.first)
        let bottom = try #require(labels.last)
        #expect(top > 182.4 && bottom < 182.4)
        #expect(plot.contains { $0.hasPrefix("182.4┤●") })
        #expect(all[8].trimmingCharacters(in: .whitespaces) == "Nov 3")
    }

    @Test(arguments: [178.0, 160])
    func goalLineIsDrawnAtTheGoal(goal: Double) {
        let text = chart(goal: goal)
        let label = goal.oneDecimalText + "┤"
        #expect(lines(text).contains { $0.hasPrefix(label + String(repeating: "┄", count: 10)) })
        #expect(text.contains("┄ goal \(goal.oneDecimalText) lb"))
    }

    @Test func noGoalNoGoalLine() {
        let text = chart(goal: nil)
        #expect(!text.contains("┄"))
        #expect(!text.contains("goal"))
    }

    // Days 0, 1 and 10: the middle weigh-in sits near the left edge, not in the middle as it would by index.
    @Test func columnsAreProportionalToTime() throws {
        let cal = PinnedCalendar.utc
        let points = [0, 1, 10].map { TrendPoint(date: cal.date(2026, 11, 3 + $0), weight: 180, trend: 180) }
        let row = try #require(lines(chart(points, goal: nil, width: 40)).first { $0.contains("●") })
        let plot = row.split(separator: "┤", maxSplits: 1)[1].unicodeScalars.map { Character($0) }
        // 34 plot columns: days 0, 1 and 10 at columns 0, round(33/10) = 3 and 33.
        #expect(plot.indices.filter { plot[$0] == "●" } == [0, 3, 33])
    }

    // 00:30 in Berlin on Nov 4 is still Nov 3 in UTC.
    @Test(arguments: [(PinnedCalendar.berlin, "Nov 4"), (PinnedCalendar.utc, "Nov 3")])
    func datesAreInTheCalendarsTimeZone(calendar: Calendar, label: String) {
        let date = PinnedCalendar.berlin.date(2026, 11, 4, 0, 30)
        let text = chart([TrendPoint(date: date, weight: 180, trend: 180)], goal: nil, calendar: calendar)
        #expect(lines(text)[8].trimmingCharacters(in: .whitespaces) == label)
    }
}
