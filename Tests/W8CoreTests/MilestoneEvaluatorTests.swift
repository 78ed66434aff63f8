import Foundation
import Testing
import W8Core

/// Progress on a 180 → 160 lb journey at `current`.
func losing(_ current: Double, unit: WeightUnit = .lb) -> GoalProgress {
    GoalProgress(start: Weight(180, .lb), current: Weight(current, .lb), goal: Weight(160, .lb), unit: unit)
}

/// Progress on a 200 → 160 lb journey, where 75% (170) comes well before approaching (165).
func long(_ current: Double) -> GoalProgress {
    GoalProgress(start: Weight(200, .lb), current: Weight(current, .lb), goal: Weight(160, .lb), unit: .lb)
}

func evaluate(
    _ progress: GoalProgress?, achieved: Set<MilestoneType> = [], prefs: NotificationPreferences = .init(),
    today: MilestoneType? = nil, rearm: Bool = true
) -> MilestoneEvaluation {
    MilestoneEvaluator.evaluate(
        progress: progress, achieved: achieved, preferences: prefs, notifiedToday: today, rearm: rearm)
}

@Suite struct MilestoneEvaluatorTests {
    @Test func ranking() {
        #expect(MilestoneType.allCases.sorted() == [.quarter, .half, .threeQuarters, .approaching, .complete])
    }

    // Rule 3 and US1-1…4: each threshold is reached at progress ≥ its value.
    @Test(arguments: [
        (179.0, [MilestoneType]()), (175, [.quarter]), (170, [.quarter, .half]),
        (165, [.quarter, .half, .threeQuarters, .approaching]), (160, [.quarter, .half, .threeQuarters, .complete]),
        (150, [.quarter, .half, .threeQuarters, .complete]),
    ])
    func thresholds(current: Double, reached: [MilestoneType]) {
        let result = evaluate(losing(current))
        #expect(result.newlyAchieved == reached)
        #expect(result.achieved == Set(reached))
        #expect(result.notify == reached.max())
    }

    // Rule 5: one notification, for the highest event.
    @Test func crossingSeveralAtOnceNotifiesOnlyTheHighest() {
        let result = evaluate(losing(164))
        #expect(result.newlyAchieved == [.quarter, .half, .threeQuarters, .approaching])
        #expect(result.notify == .approaching)
    }

    // Rule 5, same-day edge case: a lower or equal event after today's notification stays silent.
    @Test(arguments: [
        (MilestoneType.half, MilestoneType?.some(.threeQuarters)), (.threeQuarters, nil), (.complete, nil),
    ])
    func sameDayOnlyHigherRankNotifies(alreadyToday: MilestoneType, expected: MilestoneType?) {
        let result = evaluate(long(168), achieved: [.quarter, .half], today: alreadyToday)
        #expect(result.newlyAchieved == [.threeQuarters])
        #expect(result.notify == expected)
    }

    // Rule 6 / FR-005 / US2-2: no duplicates without regression.
    @Test func achievedMilestonesAreNotAchievedAgain() {
        let result = evaluate(losing(163), achieved: [.quarter, .half, .threeQuarters, .approaching])
        #expect(result.newlyAchieved.isEmpty)
        #expect(result.notify == nil)
        #expect(result.rearmed.isEmpty)
    }

    // Rule 6: progress below a threshold re-arms it; re-achieving records and notifies again.
    @Test func regressionReArmsAndReachievingNotifiesAgain() {
        let all: Set<MilestoneType> = [.quarter, .half, .threeQuarters, .complete]
        let regressed = evaluate(losing(172), achieved: all)  // 40%
        #expect(Set(regressed.rearmed) == [.half, .threeQuarters, .complete])
        #expect(regressed.achieved == [.quarter])
        #expect(regressed.notify == nil)
        let again = evaluate(losing(160), achieved: regressed.achieved)
        #expect(again.newlyAchieved == [.half, .threeQuarters, .complete])
        #expect(again.notify == .complete)
    }

    // US2-3: approaching re-arms only when the weight moves farther than 5 lb from the goal.
    @Test func approachingReArmsOnlyBeyondTheDistance() {
        let near: Set<MilestoneType> = [.quarter, .half, .threeQuarters, .approaching]
        #expect(evaluate(long(164.9), achieved: near).rearmed.isEmpty)
        let away = evaluate(long(166), achieved: near)
        #expect(away.rearmed == [.approaching])
        let back = evaluate(long(164), achieved: away.achieved)
        #expect(back.newlyAchieved == [.approaching])
        #expect(back.notify == .approaching)
    }

    // Passing the goal does not re-arm approaching, so coming back up within 5 lb stays quiet.
    @Test func passingTheGoalDoesNotReArmApproaching() {
        let done: Set<MilestoneType> = [.quarter, .half, .threeQuarters, .approaching, .complete]
        let over = evaluate(losing(158), achieved: done)
        #expect(over.rearmed.isEmpty)
        let back = evaluate(losing(162), achieved: over.achieved)
        #expect(back.rearmed == [.complete])
        #expect(back.newlyAchieved.isEmpty)
    }

    // Rule 7: a goal change of 10% or less does not re-arm.
    @Test func noReArmWhenOnlyTheGoalChanged() {
        let result = evaluate(losing(172), achieved: [.quarter, .half], rearm: false)
        #expect(result.rearmed.isEmpty)
        #expect(result.achieved == [.quarter, .half])
    }

    // Rule 8: no goal, nothing.
    @Test func noGoalNoMilestones() {
        let result = evaluate(nil, achieved: [.quarter])
        #expect(result.newlyAchieved.isEmpty)
        #expect(result.notify == nil)
        #expect(result.achieved == [.quarter])
    }

    // Rule 11 / US1-5 / FR-008: disabled notifications still record.
    @Test(arguments: [
        (NotificationPreferences(enabled: false), MilestoneType?.none),
        (NotificationPreferences(milestones: false), MilestoneType?.some(.approaching)),
        (NotificationPreferences(approaching: false), MilestoneType?.some(.threeQuarters)),
        (NotificationPreferences(milestones: false, approaching: false), MilestoneType?.none),
    ])
    func preferencesChooseWhatNotifiesNotWhatIsRecorded(prefs: NotificationPreferences, expected: MilestoneType?) {
        let result = evaluate(losing(164), prefs: prefs)
        #expect(result.newlyAchieved == [.quarter, .half, .threeQuarters, .approaching])
        #expect(result.notify == expected)
    }

    // US2-4: gaining toward a higher goal works the same way.
    @Test func gainingGoal() {
        let gain = GoalProgress(start: Weight(50, .kg), current: Weight(58, .kg), goal: Weight(60, .kg), unit: .kg)
        let result = evaluate(gain)
        #expect(result.newlyAchieved == [.quarter, .half, .threeQuarters, .approaching])
        #expect(result.notify == .approaching)
    }
}

@Suite struct MilestoneMessageTests {
    static let cases: [(MilestoneType, GoalProgress)] = MilestoneType.allCases.flatMap { type in
        [
            (type, losing(170)), (type, losing(170, unit: .kg)),
            (
                type,
                GoalProgress(start: Weight(45, .kg), current: Weight(700, .kg), goal: Weight(699.9, .kg), unit: .kg)
            ),
            (
                type,
                GoalProgress(start: Weight(1543, .lb), current: Weight(1000.5, .lb), goal: Weight(44, .lb), unit: .lb)
            ),
        ]
    }

    // Rule 10: title ≤ 50, body ≤ 150 characters, whatever the numbers.
    @Test(arguments: cases)
    func fitsTheLimits(type: MilestoneType, progress: GoalProgress) {
        let n = DesktopNotification.milestone(type, progress: progress)
        #expect(n.title.count <= DesktopNotification.maxTitleLength, "\(n.title)")
        #expect(n.body.count <= DesktopNotification.maxBodyLength, "\(n.body)")
        #expect(n.category == .milestone)
        #expect(n.expiry == (type == .complete ? .never : .serverDefault))
    }

    // FR-011: messages use the preferred unit.
    @Test func messagesUseThePreferredUnit() {
        let lb = DesktopNotification.milestone(.half, progress: losing(170))
        #expect(lb.body.contains("lost 10.0 lb"))
        #expect(lb.body.contains("10.0 lb to go to 160.0 lb"))
        let kg = DesktopNotification.milestone(.half, progress: losing(170, unit: .kg))
        #expect(kg.body.contains("lost 4.5 kg"))
        #expect(kg.body.contains("to go to 72.6 kg"))
        #expect(!kg.body.contains("lb"))
    }

    @Test func gainGoalsSayGained() {
        let gain = GoalProgress(start: Weight(50, .kg), current: Weight(55, .kg), goal: Weight(60, .kg), unit: .kg)
        #expect(DesktopNotification.milestone(.half, progress: gain).body.contains("gained 5.0 kg"))
    }
}
