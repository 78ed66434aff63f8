import Foundation
import Testing
import W8Core

/// The same progress reads the same in every view, and milestones are named once, in one sentence.
@Suite struct ProgressWordingTests {
    @Test(
        "Percentages are cut toward zero, never rounded up past a milestone",
        arguments: [
            (6.7, 0, "6"), (6.66, 1, "6.6"), (24.96, 0, "24"), (24.96, 1, "24.9"), (25 - 1e-12, 0, "25"),
            (25.0, 1, "25.0"), (100.0, 0, "100"), (-3.4, 0, "-3"), (-0.04, 1, "0.0"), (0, 0, "0"),
        ])
    func displayPercent(value: Double, decimals: Int, expected: String) {
        #expect(GoalProgress.displayPercent(value, decimals: decimals) == expected)
    }

    @Test("6.67% reads as 6.6% in the weekly summary, the widget text and tooltip; the widget's bar is 6")
    func sameRoundingEverywhere() throws {
        // Start 200, goal 140: 4 lb lost is 6.67%.
        let progress = GoalProgress(
            start: Weight(200, .lb), current: Weight(196, .lb), goal: Weight(140, .lb), unit: .lb)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let entry = WeightEntry(weight: Weight(196, .lb), date: now.addingTimeInterval(-3600))
        let summary = WeeklySummary(unit: .lb, now: now, entries: [entry], before: nil, progress: progress)
        let widget = WidgetEntry(
            date: now, currentWeight: 196, unit: .lb, goalWeight: 140, entryDate: entry.date, trend: .down,
            progressPercent: progress.percent)

        #expect(summary.notification.body.contains(" 6.6% of the way"))
        #expect(widget.text.hasSuffix(" 6.6%"))
        #expect(widget.percentage == 6)
        #expect(widget.tooltip { _ in "today" }.contains("6.6%"))
    }

    @Test(
        "Milestones reached beside the notified one are named once, in rank order, in one sentence",
        arguments: [
            ([MilestoneType.half], true, "Also reached the 50% milestone."),
            ([.threeQuarters, .half], true, "Also reached the 50% and 75% milestones."),
            ([.quarter, .half, .threeQuarters], false, "Reached the 25%, 50% and 75% milestones."),
            (
                [.approaching, .threeQuarters, .threeQuarters], true,
                "Also reached the 75% and close-to-goal milestones."
            ),
        ])
    func reachedSentence(types: [MilestoneType], also: Bool, expected: String) {
        #expect(MilestoneType.reachedSentence(types, also: also) == expected)
    }

    @Test("No milestones, no sentence")
    func noSentence() {
        #expect(MilestoneType.reachedSentence([], also: true) == nil)
        #expect(MilestoneType.phrase([]) == nil)
    }
}
