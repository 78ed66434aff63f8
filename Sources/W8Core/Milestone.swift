import Foundation
import W8Text

/// The events on the way to a goal, ranked 25 < 50 < 75 < approaching < 100 (rule 5).
public enum MilestoneType: String, Sendable, CaseIterable, Codable, Comparable, Hashable {
    case quarter = "25"
    case half = "50"
    case threeQuarters = "75"
    case approaching = "approaching"
    case complete = "100"

    /// The progress at which the milestone is reached; nil for approaching, which is about distance.
    public var threshold: Double? {
        switch self {
        case .quarter: 25
        case .half: 50
        case .threeQuarters: 75
        case .complete: 100
        case .approaching: nil
        }
    }

    /// Milestones that are reached by progress, in order.
    public static let progressMilestones: [MilestoneType] = [.quarter, .half, .threeQuarters, .complete]

    public var rank: Int { MilestoneType.allCases.firstIndex(of: self)! }

    public static func < (lhs: MilestoneType, rhs: MilestoneType) -> Bool { lhs.rank < rhs.rank }

    /// The milestone's name for people, in their language: "Halfway there".
    public var displayName: String {
        switch self {
        // TRANSLATORS: a milestone's name, in `w8 milestones` and after "Next" in `w8 status`.
        // xgettext:no-c-format
        case .quarter: tr("25% progress")
        case .half: tr("Halfway there")
        // xgettext:no-c-format
        case .threeQuarters: tr("75% progress")
        case .complete: tr("Goal achieved")
        case .approaching: tr("Approaching goal")
        }
    }

    /// The milestone's name inside a sentence: "25%", "close-to-goal".
    var label: String {
        switch self {
        case .quarter, .half, .threeQuarters, .complete: "\(rawValue)%"
        // TRANSLATORS: the approaching milestone inside a list of milestones: "the 75% and close-to-goal milestones".
        case .approaching: tr("close-to-goal")
        }
    }

    /// Each milestone named once, in rank order: "the 25% milestone", "the 50% and 75% milestones"; nil for none.
    public static func phrase(_ types: [MilestoneType]) -> String? {
        let labels = Set(types).sorted().map(\.label)
        guard let last = labels.last else { return nil }
        // TRANSLATORS: between the milestones of a list but the last two: "25%, 50% and 75%".
        let separator = tr(", ")
        // TRANSLATORS: a list of milestones ending with the last one: {list} is "25%" or "25%, 50%", {last} "75%".
        let list =
            labels.count == 1
            ? last : tr("{list} and {last}", ["list": labels.dropLast().joined(separator: separator), "last": last])
        // TRANSLATORS: {list} names one or more milestones: "25%", "50% and 75%", "75% and close-to-goal".
        return trn("the {list} milestone", "the {list} milestones", labels.count, ["list": list])
    }

    /// One sentence for the milestones reached beside the one notified: "Also reached the 50% and 75% milestones.";
    /// nil for none. `also` when it follows the notification of a higher one.
    public static func reachedSentence(_ types: [MilestoneType], also: Bool) -> String? {
        phrase(types).map {
            // TRANSLATORS: {milestones} is "the 50% milestone" or "the 50% and 75% milestones".
            also
                ? tr("Also reached {milestones}.", ["milestones": $0]) : tr("Reached {milestones}.", ["milestones": $0])
        }
    }
}

/// A milestone that was reached, recorded whether or not a notification went out (FR-008).
public struct MilestoneAchievement: Sendable, Equatable, Identifiable {
    public var id: Int64?
    public var type: MilestoneType
    public var dateAchieved: Date
    /// Weights in `unit`, the preferred unit when it was achieved.
    public var weight: Double
    public var goalWeight: Double
    public var startWeight: Double
    public var unit: WeightUnit
    public var progressPercent: Double
    public var notificationSent: Bool

    public init(
        id: Int64? = nil, type: MilestoneType, dateAchieved: Date, weight: Double, goalWeight: Double,
        startWeight: Double, unit: WeightUnit, progressPercent: Double, notificationSent: Bool
    ) {
        self.id = id
        self.type = type
        self.dateAchieved = dateAchieved
        self.weight = weight
        self.goalWeight = goalWeight
        self.startWeight = startWeight
        self.unit = unit
        self.progressPercent = progressPercent
        self.notificationSent = notificationSent
    }

    public init(type: MilestoneType, progress: GoalProgress, at date: Date, notificationSent: Bool) {
        self.init(
            type: type, dateAchieved: date, weight: progress.current, goalWeight: progress.goal,
            startWeight: progress.start, unit: progress.unit, progressPercent: progress.percent ?? 0,
            notificationSent: notificationSent)
    }
}
