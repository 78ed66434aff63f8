import Foundation

/// The person's target weight, when it was set, and when the current journey toward it began.
public struct Goal: Sendable, Equatable {
    public var weight: Weight
    /// When the goal was last set or changed.
    public var setAt: Date
    /// The moment the start weight is taken at (rule 2); moves only when a new journey begins (rule 7).
    public var journeyStartedAt: Date

    /// A goal set at `setAt`; the journey toward it begins then too, unless it began earlier.
    public init(weight: Weight, setAt: Date, journeyStartedAt: Date? = nil) {
        self.weight = weight
        self.setAt = setAt
        self.journeyStartedAt = journeyStartedAt ?? setAt
    }

    /// A change of more than this fraction of the previous goal starts a new journey (FR-009).
    public static let newJourneyThreshold = 0.10

    /// The goal after setting `weight` at `date`, and whether that begins a new journey.
    ///
    /// A first goal, or one more than 10% away from the previous goal, begins a new journey at `date`
    /// with every milestone re-armed; a smaller change keeps the journey and its start weight. With `anchoring`
    /// (a date the person gave), a kept journey keeps its milestones but starts at `date`: the way to repair a
    /// journey that a mistyped goal restarted.
    public static func setting(_ weight: Weight, at date: Date, previous: Goal?, anchoring: Bool = false) -> (
        goal: Goal, newJourney: Bool
    ) {
        guard let previous else {
            return (Goal(weight: weight, setAt: date), true)
        }
        let old = previous.weight.value(in: .kg)
        let change = abs(weight.value(in: .kg) - old) / old
        if change > newJourneyThreshold + 1e-12 {
            return (Goal(weight: weight, setAt: date), true)
        }
        return (
            Goal(weight: weight, setAt: date, journeyStartedAt: anchoring ? date : previous.journeyStartedAt), false
        )
    }

    /// The start weight entry (FR-012, rule 2): the latest entry at or before the journey began, else the first after.
    public static func startEntry(latestAtOrBefore: WeightEntry?, firstAfter: WeightEntry?) -> WeightEntry? {
        latestAtOrBefore ?? firstAfter
    }
}
