import Foundation
import Testing
import W8Core

@Suite struct WeightTests {
    @Test func poundIsExactlyTheInternationalPound() {
        #expect(Weight(1, .lb).value(in: .kg) == 0.45359237)
        #expect(abs(Weight(100, .kg).value(in: .lb) - 220.462_262_184_877_6) < 1e-9)
        #expect(Weight(82.5, .kg).converted(to: .kg) == Weight(82.5, .kg))
    }

    @Test(arguments: [(182.44, "182.4"), (182.45, "182.5"), (-0.04, "0.0"), (70, "70.0")])
    func showsOneDecimal(value: Double, shown: String) {
        #expect(value.oneDecimalText == shown)
    }
}

@Suite struct GoalProgressTests {
    // FR-001/FR-002: one formula for losing and gaining.
    @Test(arguments: [
        (180.0, 175.0, 160.0, 25.0), (180, 170, 160, 50), (180, 165, 160, 75), (180, 160, 160, 100),
        (180, 185, 160, -25), (120, 125, 140, 25), (120, 130, 140, 50), (120, 140, 140, 100), (120, 142, 140, 110),
    ])
    func progressFormula(start: Double, current: Double, goal: Double, expected: Double) throws {
        let p = GoalProgress(
            start: Weight(start, .lb), current: Weight(current, .lb), goal: Weight(goal, .lb), unit: .lb)
        #expect(abs(try #require(p.percent) - expected) < 1e-9)
    }

    @Test func startEqualToGoalHasNoProgress() {
        let p = GoalProgress(start: Weight(160, .lb), current: Weight(160, .lb), goal: Weight(160, .lb), unit: .lb)
        #expect(p.percent == nil)
        #expect(!p.isApproaching)
        #expect(p.nextMilestone == nil)
    }

    // FR-011: math in the preferred unit whatever the entries' units.
    @Test func mixedUnitsComputeInPreferredUnit() throws {
        let p = GoalProgress(start: Weight(100, .kg), current: Weight(209.4, .lb), goal: Weight(80, .kg), unit: .kg)
        #expect(abs(p.current - 94.982_242_278) < 1e-6)
        #expect(abs(try #require(p.percent) - 25.088_788_61) < 1e-6)
        #expect(p.unit == .kg)
    }

    // 25% reached through a unit conversion still counts as 25%.
    @Test func thresholdsSurviveConversionRounding() {
        let p = GoalProgress(
            start: Weight(180, .lb), current: Weight(175 * WeightUnit.kilogramsPerPound, .kg),
            goal: Weight(160, .lb), unit: .lb)
        #expect(p.reaches(.quarter))
        #expect(!p.reaches(.half))
    }

    // FR-004: 5 lb or 2.5 kg, and only before the goal is reached.
    @Test(arguments: [
        (WeightUnit.lb, 165.0, true), (.lb, 165.1, false), (.lb, 160.5, true), (.lb, 160.0, false), (.lb, 158, false),
    ])
    func approachingInPounds(unit: WeightUnit, current: Double, approaching: Bool) {
        let p = GoalProgress(start: Weight(180, .lb), current: Weight(current, .lb), goal: Weight(160, .lb), unit: unit)
        #expect(p.isApproaching == approaching)
    }

    @Test(arguments: [(72.5, true), (72.6, false), (70.1, true)])
    func approachingInKilograms(current: Double, approaching: Bool) {
        let p = GoalProgress(start: Weight(90, .kg), current: Weight(current, .kg), goal: Weight(70, .kg), unit: .kg)
        #expect(p.isApproaching == approaching)
    }

    // 5.3 lb is 2.40 kg: not approaching for a person who prefers lb (> 5), approaching in kg (≤ 2.5).
    @Test func approachingDistanceFollowsPreferredUnit() {
        let progress = { (unit: WeightUnit) in
            GoalProgress(start: Weight(200, .lb), current: Weight(165.3, .lb), goal: Weight(160, .lb), unit: unit)
        }
        #expect(!progress(.lb).isApproaching)
        #expect(progress(.kg).isApproaching)
    }

    // US2-4: gaining toward a higher goal, approaching from below.
    @Test func approachingFromBelowWhenGaining() {
        let p = GoalProgress(start: Weight(120, .lb), current: Weight(136, .lb), goal: Weight(140, .lb), unit: .lb)
        #expect(p.isApproaching)
        #expect(!p.isLosing)
        #expect(p.changeSoFar == 16)
    }

    @Test func nextMilestone() {
        func next(_ current: Double) -> MilestoneType? {
            GoalProgress(start: Weight(180, .lb), current: Weight(current, .lb), goal: Weight(160, .lb), unit: .lb)
                .nextMilestone
        }
        #expect(next(181) == .quarter)
        #expect(next(175) == .half)
        #expect(next(166) == .threeQuarters)
        #expect(next(164) == .complete)
        #expect(next(160) == nil)
    }
}

@Suite struct GoalChangeTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let t1 = Date(timeIntervalSince1970: 1_700_100_000)

    @Test func firstGoalStartsAJourney() {
        let (goal, fresh) = Goal.setting(Weight(160, .lb), at: t0, previous: nil)
        #expect(fresh)
        #expect(goal.journeyStartedAt == t0)
    }

    // FR-009: more than 10% of the previous goal starts a new journey; 10% or less keeps it.
    @Test(arguments: [
        (160.0, 176.0, false), (160, 144, false), (160, 176.1, true), (160, 143.9, true), (160, 158, false),
    ])
    func tenPercentRule(previous: Double, new: Double, newJourney: Bool) {
        let old = Goal(weight: Weight(previous, .lb), setAt: t0)
        let (goal, fresh) = Goal.setting(Weight(new, .lb), at: t1, previous: old)
        #expect(fresh == newJourney)
        #expect(goal.journeyStartedAt == (newJourney ? t1 : t0))
        #expect(goal.setAt == t1)
    }

    @Test func tenPercentIsMeasuredAcrossUnits() {
        let old = Goal(weight: Weight(72, .kg), setAt: t0)
        #expect(!Goal.setting(Weight(170, .lb), at: t1, previous: old).newJourney)  // 77.1 kg: 7.1%
        #expect(Goal.setting(Weight(180, .lb), at: t1, previous: old).newJourney)  // 81.6 kg: 13.4%
    }

    // Rule 2: the latest entry at or before the goal, else the first after (not the seed's first-after).
    @Test func startEntryPrefersTheEntryBeforeTheGoal() {
        let before = WeightEntry(id: 1, weight: Weight(190, .lb), date: t0)
        let after = WeightEntry(id: 2, weight: Weight(185, .lb), date: t1)
        #expect(Goal.startEntry(latestAtOrBefore: before, firstAfter: after) == before)
        #expect(Goal.startEntry(latestAtOrBefore: nil, firstAfter: after) == after)
        #expect(Goal.startEntry(latestAtOrBefore: nil, firstAfter: nil) == nil)
    }
}
