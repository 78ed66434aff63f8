import Foundation

/// One weigh-in. It keeps the unit it was entered in.
public struct WeightEntry: Sendable, Equatable, Identifiable {
    public var id: Int64?
    public var weight: Weight
    public var date: Date
    public var note: String?
    public var bodyFatPercent: Double?

    public init(id: Int64? = nil, weight: Weight, date: Date, note: String? = nil, bodyFatPercent: Double? = nil) {
        self.id = id
        self.weight = weight
        self.date = date
        self.note = note
        self.bodyFatPercent = bodyFatPercent
    }
}
