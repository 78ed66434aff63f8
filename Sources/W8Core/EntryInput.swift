import Foundation

/// What a person typed for an entry's fields (`w8 add`, `w8 edit`), checked all at once before anything is
/// written: the weight with its optional unit, the date, the note and the body fat.
public struct EntryInput: Sendable {
    public var weight: String?
    public var unit: WeightUnit?
    public var date: String?
    public var note: String?
    /// An empty string removes the body fat, for an edit.
    public var bodyFat: String?

    public init(weight: String?, unit: WeightUnit?, date: String?, note: String?, bodyFat: String?) {
        self.weight = weight
        self.unit = unit
        self.date = date
        self.note = note
        self.bodyFat = bodyFat
    }

    /// A new entry; the weight is required, the date defaults to `now`.
    public func entry(defaultUnit: WeightUnit, now: Date, calendar: Calendar) throws -> WeightEntry {
        WeightEntry(
            weight: try WeightInput.weight(weight ?? "", unit: unit, defaultUnit: defaultUnit),
            date: try date.map { try DateInput.parse($0, now: now, calendar: calendar) } ?? now,
            note: try WeightInput.note(note), bodyFatPercent: try bodyFat.map(WeightInput.bodyFat))
    }

    /// The change an edit makes: only the fields given, each checked first.
    public func changes(defaultUnit: WeightUnit, now: Date, calendar: Calendar) throws
        -> @Sendable (inout WeightEntry)
        -> Void
    {
        let newWeight = try weight.map { try WeightInput.weight($0, unit: unit, defaultUnit: defaultUnit) }
        let newDate = try date.map { try DateInput.parse($0, now: now, calendar: calendar) }
        let newNote = try note.map { try WeightInput.note($0) }
        let newBodyFat = try bodyFat.map { $0.isEmpty ? nil : try WeightInput.bodyFat($0) }
        return { entry in
            if let newWeight { entry.weight = newWeight }
            if let newDate { entry.date = newDate }
            if let newNote { entry.note = newNote }
            if let newBodyFat { entry.bodyFatPercent = newBodyFat }
        }
    }
}
