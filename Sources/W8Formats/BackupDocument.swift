import Foundation
import W8Core
import W8Text

/// The JSON backup file, as `w8 export --format json` writes it and `w8 import` reads it: one Codable type for
/// both directions, its field names the file's. It is written through `JSONValueEncoder` (fields in this order,
/// absent values as null), its entries streamed one a line after the rest; it is read with `JSONDecoder`, an entry at a time
/// (`BackupStream`).
public struct BackupDocument: Codable {
    /// The value of `format` that marks a W8Trackr backup.
    public static let formatName = "w8trackr-backup"
    /// 2 added `intake`, 3 `activity` (and the intake kind `calories`); versions 1 and 2 are still read.
    public static let version = 3

    public struct Entry: Codable {
        var id: Int64?
        var date: String?
        var weight: Double?
        var unit: String?
        var note: String?
        var bodyFatPercent: Double?
        /// Only with `--with-trend`; left out of the file otherwise.
        var trendWeight: Double?
        var trendUnit: String?

        enum CodingKeys: String, CodingKey {
            case id, date, weight, unit, note
            case bodyFatPercent = "body_fat_percent"
            case trendWeight = "trend_weight"
            case trendUnit = "trend_unit"
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encodeIfPresent(date, forKey: .date)
            try c.encodeIfPresent(weight, forKey: .weight)
            try c.encodeIfPresent(unit, forKey: .unit)
            try c.encodeIfPresent(note, forKey: .note)
            try c.encodeIfPresent(bodyFatPercent, forKey: .bodyFatPercent)
            if let trendWeight, let trendUnit {
                try c.encode(trendWeight, forKey: .trendWeight)
                try c.encode(trendUnit, forKey: .trendUnit)
            }
        }
    }

    public struct Goal: Codable {
        var weight: Double
        var unit: String
        var setAt: String
        var journeyStartedAt: String

        enum CodingKeys: String, CodingKey {
            case weight, unit
            case setAt = "set_at"
            case journeyStartedAt = "journey_started_at"
        }
    }

    public struct Achievement: Codable {
        var type: String
        var dateAchieved: String
        var weight: Double
        var goalWeight: Double
        var startWeight: Double
        var unit: String
        var progressPercent: Double
        var notificationSent: Bool

        enum CodingKeys: String, CodingKey {
            case type
            case dateAchieved = "date_achieved"
            case weight
            case goalWeight = "goal_weight"
            case startWeight = "start_weight"
            case unit
            case progressPercent = "progress_percent"
            case notificationSent = "notification_sent"
        }
    }

    /// A drink, meal or snack of the intake log.
    public struct IntakeItem: Codable {
        var kind: String
        var date: String
        var volumeML: Int?
        var calories: Int
        var note: String?

        enum CodingKeys: String, CodingKey {
            case kind, date
            case volumeML = "volume_ml"
            case calories, note
        }
    }

    /// A day's steps and distance from one source, of the activity log.
    public struct ActivityItem: Codable {
        var day, source: String
        var steps, distanceM: Int

        enum CodingKeys: String, CodingKey {
            case day, source, steps
            case distanceM = "distance_m"
        }
    }

    /// The settings, in the order of the settings table; a value is a boolean, a whole number or a string.
    public struct SettingsObject: Codable {
        var pairs: [(String, SettingValue)]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(pairs: [(String, SettingValue)]) {
            self.pairs = pairs
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            pairs = try container.allKeys.map { key in
                if let b = try? container.decode(Bool.self, forKey: key) { return (key.stringValue, .bool(b)) }
                if let i = try? container.decode(Int.self, forKey: key) { return (key.stringValue, .integer(i)) }
                return (key.stringValue, .string(try container.decode(String.self, forKey: key)))
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in pairs {
                let key = Key(stringValue: name)
                switch value {
                case .bool(let b): try container.encode(b, forKey: key)
                case .integer(let i): try container.encode(i, forKey: key)
                case .string(let s): try container.encode(s, forKey: key)
                }
            }
        }
    }

    var format: String
    var version: Int
    var w8Version: String?
    var exportedAt: String?
    var settings: SettingsObject?
    var goal: Goal?
    var milestonesAchieved: [String]?
    var achievements: [Achievement]?
    var intake: [IntakeItem]?
    var activity: [ActivityItem]?
    var entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case format, version
        case w8Version = "w8_version"
        case exportedAt = "exported_at"
        case settings, goal
        case milestonesAchieved = "milestones_achieved"
        case achievements, intake, activity, entries
    }

    /// Everything but the entries, from the settings and the store's journey and intake log.
    public init(
        w8Version: String, exportedAt: Date, settings: Settings, journey: JourneyBackup, intake: [IntakeEvent],
        dates: DateFormatting
    ) {
        format = Self.formatName
        version = Self.version
        self.w8Version = w8Version
        self.exportedAt = dates.timestamp(exportedAt)
        self.settings = SettingsObject(pairs: SettingKey.allCases.map { ($0.rawValue, $0.value(in: settings)) })
        goal = journey.goal.map {
            Goal(
                weight: $0.weight.value, unit: $0.weight.unit.rawValue, setAt: dates.timestamp($0.setAt),
                journeyStartedAt: dates.timestamp($0.journeyStartedAt))
        }
        milestonesAchieved = journey.milestonesAchieved.map(\.rawValue)
        achievements = journey.achievements.map { a in
            Achievement(
                type: a.type.rawValue, dateAchieved: dates.timestamp(a.dateAchieved), weight: a.weight,
                goalWeight: a.goalWeight, startWeight: a.startWeight, unit: a.unit.rawValue,
                progressPercent: a.progressPercent, notificationSent: a.notificationSent)
        }
        self.intake = intake.map {
            IntakeItem(
                kind: $0.kind.rawValue, date: dates.timestamp($0.date), volumeML: $0.volume, calories: $0.calories,
                note: $0.note)
        }
        activity = journey.activity.map {
            ActivityItem(day: $0.day.description, source: $0.source.rawValue, steps: $0.steps, distanceM: $0.distance)
        }
        entries = []
    }

    /// One entry as the backup writes it.
    public static func entry(_ entry: WeightEntry, trend: Double?, unit: WeightUnit, dates: DateFormatting) -> Entry {
        Entry(
            id: entry.id ?? 0, date: dates.timestamp(entry.date), weight: entry.weight.value,
            unit: entry.weight.unit.rawValue, note: entry.note, bodyFatPercent: entry.bodyFatPercent,
            trendWeight: trend.map(\.roundedToTenth), trendUnit: trend == nil ? nil : unit.rawValue)
    }

    /// "entries[3].weight is not a number", from the decoder's error; `prefix` is the path of the decoded value.
    static func describe(_ error: DecodingError, at prefix: String = "") -> String {
        func path(_ keys: [CodingKey]) -> String {
            (prefix + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()).drop { $0 == "." }
                .description
        }
        switch error {
        case .keyNotFound(let key, let context):
            // TRANSLATORS: why a backup is refused; {path} is where in the JSON, as written: "entries[3].weight".
            return tr("{path} is missing", ["path": path(context.codingPath + [key])])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            // TRANSLATORS: why a backup is refused; {path} is where in the JSON, as written: "entries[3].weight".
            return tr("{path} has a value of the wrong type", ["path": path(context.codingPath)])
        @unknown default:
            // TRANSLATORS: why a backup is refused; "it" is the backup.
            return tr("it cannot be read")
        }
    }
}
