import Foundation
import W8Core
import W8Store

/// The JSON backup file, as `w8 export --format json` writes it and `w8 import` reads it: one Codable type for
/// both directions, its field names the file's. It is written through `JSONValueEncoder` (fields in this order,
/// absent values as null), its entries streamed one a line after the rest; it is read with `JSONDecoder`, an entry at a time
/// (`BackupStream`).
public struct BackupDocument: Codable {
    /// The value of `format` that marks a W8Trackr backup.
    public static let formatName = "w8trackr-backup"
    /// 2 added `intake`; version 1 files are still read.
    public static let version = 2

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
    var entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case format, version
        case w8Version = "w8_version"
        case exportedAt = "exported_at"
        case settings, goal
        case milestonesAchieved = "milestones_achieved"
        case achievements, intake, entries
    }

    /// Everything but the entries, from the settings and the store's journey and intake log.
    init(
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
        entries = []
    }

    /// One entry as the backup writes it.
    static func entry(_ entry: WeightEntry, trend: Double?, unit: WeightUnit, dates: DateFormatting) -> Entry {
        Entry(
            id: entry.id ?? 0, date: dates.timestamp(entry.date), weight: entry.weight.value,
            unit: entry.weight.unit.rawValue, note: entry.note, bodyFatPercent: entry.bodyFatPercent,
            trendWeight: trend.map(Weight.tenths), trendUnit: trend == nil ? nil : unit.rawValue)
    }

    /// "entries[3].weight is not a number", from the decoder's error; `prefix` is the path of the decoded value.
    static func describe(_ error: DecodingError, at prefix: String = "") -> String {
        func path(_ keys: [CodingKey]) -> String {
            (prefix + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()).drop { $0 == "." }
                .description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)) has a value of the wrong type"
        @unknown default: return "it cannot be read"
        }
    }
}

/// A backup read back and checked, but for its entries (which `BackupStream` hands out one by one): what an import
/// restores.
public struct Backup: Sendable {
    public var journey: JourneyBackup
    public var settings: [(SettingKey, SettingValue)]
    /// Keys this version does not know (from a newer W8Trackr): left out of the restore.
    public var unknownSettings: [String]

    /// Checks a decoded backup: its format and version, then the rest exactly as written.
    init(_ file: BackupDocument, reader: BackupReader) throws {
        guard file.format == BackupDocument.formatName else {
            throw W8CoreError.backupInvalid("its \"format\" is not \"\(BackupDocument.formatName)\"")
        }
        guard file.version <= BackupDocument.version else {
            throw W8CoreError.backupInvalid(
                "its version \(file.version) is newer than this w8 reads (\(BackupDocument.version))")
        }
        journey = JourneyBackup(
            goal: try file.goal.map(reader.goal),
            milestonesAchieved: try (file.milestonesAchieved ?? []).map(reader.milestone),
            achievements: try (file.achievements ?? []).enumerated().map(reader.achievement),
            intake: try (file.intake ?? []).enumerated().map(reader.intake))
        (settings, unknownSettings) = try reader.settings(file.settings?.pairs ?? [])
    }
}

/// Reads a backup as its bytes arrive, in memory bounded by its largest entry rather than its length: a
/// `JSONObjectStream` hands out each element of `entries` to `JSONDecoder` as a `BackupDocument.Entry`, and the other
/// members, kept aside, are decoded as the `BackupDocument` they form with an empty `entries`.
///
/// Those members are checked as soon as `entries` opens, so a wrong format or version is refused before any entry
/// is read; members written after `entries` (w8 writes none) are checked at the end.
public struct BackupStream {
    private var scanner = JSONObjectStream(arrayKey: "entries")
    private let reader: BackupReader
    private let decoder = JSONDecoder()
    private var members: [(key: [UInt8], value: [UInt8])] = []
    private var sawEntries = false

    public init(options: ImportOptions) {
        reader = BackupReader(options: options)
    }

    /// The entries completed by `bytes`, each checked as `w8 add` checks its input; `line` is the 1-based position
    /// in `entries`. Throws `W8CoreError.backupInvalid` when the backup cannot be restored.
    public mutating func feed(_ bytes: [UInt8]) throws -> [ImportRow] {
        let parts: [JSONObjectStream.Part]
        do throws(JSONObjectStream.Malformed) { parts = try scanner.feed(bytes) } catch {
            throw W8CoreError.backupInvalid(error.notAnObject ? "it is not a JSON object" : "it is not valid JSON")
        }
        var rows: [ImportRow] = []
        for part in parts {
            switch part {
            case .member(let key, let value): members.append((key, value))
            case .arrayStart:
                sawEntries = true
                _ = try backup(complete: false)
            case .element(let index, let value):
                let item: BackupDocument.Entry
                do {
                    item = try decoder.decode(BackupDocument.Entry.self, from: Data(value))
                } catch let error as DecodingError {
                    throw Self.invalid(error, at: "entries[\(index)]")
                }
                do {
                    rows.append(.entry(line: index + 1, try reader.entry(item)))
                } catch {
                    rows.append(.invalid(line: index + 1, reason: error.localizedDescription))
                }
            }
        }
        return rows
    }

    /// Everything but the entries, once the last byte was fed.
    public func finish() throws -> Backup {
        do throws(JSONObjectStream.Malformed) { try scanner.finish() } catch {
            throw W8CoreError.backupInvalid("it is not valid JSON")
        }
        return try backup(complete: true)!
    }

    /// The members read so far as a backup; nil when one is missing and may still follow `entries`.
    private func backup(complete: Bool) throws -> Backup? {
        var json: [UInt8] = Array("{".utf8)
        for (key, value) in members {
            json += Array("\"".utf8) + key + Array("\":".utf8) + value + Array(",".utf8)
        }
        json += sawEntries ? Array("\"entries\":[]}".utf8) : Array("}".utf8)
        if !sawEntries, !members.isEmpty { json[json.count - 2] = UInt8(ascii: " ") }
        do {
            return try Backup(decoder.decode(BackupDocument.self, from: Data(json)), reader: reader)
        } catch DecodingError.keyNotFound where !complete {
            return nil
        } catch let error as DecodingError {
            throw Self.invalid(error)
        }
    }

    private static func invalid(_ error: DecodingError, at prefix: String = "") -> W8CoreError {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return .backupInvalid("it is not valid JSON")
        }
        return .backupInvalid(BackupDocument.describe(error, at: prefix))
    }
}

/// Turns a backup's values back into domain values, validated.
struct BackupReader {
    let options: ImportOptions

    func date(_ text: String?, _ name: String) throws -> Date {
        guard let text else { throw W8CoreError.importFieldMissing(name) }
        return try DateInput.parse(text, now: options.now, calendar: options.calendar)
    }

    func entry(_ item: BackupDocument.Entry) throws -> WeightEntry {
        guard let value = item.weight else { throw W8CoreError.importFieldMissing("weight") }
        guard let unit = item.unit else { throw W8CoreError.importFieldMissing("unit") }
        return WeightEntry(
            weight: try WeightInput.weight(Weight.exact(value), unit: try WeightInput.unit(unit), defaultUnit: .lb),
            date: try date(item.date, "date"), note: try WeightInput.note(item.note),
            bodyFatPercent: try item.bodyFatPercent.map { try WeightInput.bodyFat(Weight.exact($0)) })
    }

    func goal(_ item: BackupDocument.Goal) throws -> Goal {
        do {
            return Goal(
                weight: try WeightInput.goal(
                    Weight.exact(item.weight), unit: try WeightInput.unit(item.unit), defaultUnit: .lb),
                setAt: try date(item.setAt, "setAt"),
                journeyStartedAt: try date(item.journeyStartedAt, "journeyStartedAt"))
        } catch let error as W8CoreError {
            throw W8CoreError.backupInvalid("its goal: \(error.localizedDescription)")
        }
    }

    func milestone(_ text: String) throws -> MilestoneType {
        guard let type = MilestoneType(rawValue: text) else {
            throw W8CoreError.backupInvalid("milestone '\(text)' is not one of 25, 50, 75, approaching, 100")
        }
        return type
    }

    func achievement(_ index: Int, _ item: BackupDocument.Achievement) throws -> MilestoneAchievement {
        do {
            return MilestoneAchievement(
                type: try milestone(item.type), dateAchieved: try date(item.dateAchieved, "dateAchieved"),
                weight: item.weight, goalWeight: item.goalWeight, startWeight: item.startWeight,
                unit: try WeightInput.unit(item.unit), progressPercent: item.progressPercent,
                notificationSent: item.notificationSent)
        } catch let error as W8CoreError {
            throw W8CoreError.backupInvalid("achievement \(index + 1): \(error.localizedDescription)")
        }
    }

    /// An intake event, checked as `w8 drink` and `w8 eat` check theirs.
    func intake(_ index: Int, _ item: BackupDocument.IntakeItem) throws -> IntakeEvent {
        do {
            guard let kind = IntakeKind(rawValue: item.kind) else {
                throw W8CoreError.backupInvalid("kind '\(item.kind)' is not water, beverage, meal or snack")
            }
            let volume = item.volumeML
            if kind.isDrink {
                guard let volume, (1...IntakeSettings.maxDrink).contains(volume) else {
                    throw W8CoreError.drinkInvalid(item.volumeML.map(String.init) ?? "null")
                }
            } else if volume != nil {
                throw W8CoreError.backupInvalid("a \(kind.rawValue) has no volume")
            }
            return IntakeEvent(
                kind: kind, date: try date(item.date, "date"), volume: volume,
                calories: try IntakeInput.calories(String(item.calories)), note: try WeightInput.note(item.note))
        } catch let error as W8CoreError {
            throw W8CoreError.backupInvalid("intake \(index + 1): \(error.localizedDescription)")
        }
    }

    /// The settings the backup sets, checked as the config file's are, and the keys this version does not know.
    func settings(_ pairs: [(String, SettingValue)]) throws -> ([(SettingKey, SettingValue)], [String]) {
        var values: [(SettingKey, SettingValue)] = []
        var unknown: [String] = []
        var check = Settings()
        for (name, value) in pairs.sorted(by: { $0.0 < $1.0 }) {
            guard let key = SettingKey(rawValue: name) else {
                unknown.append(name)
                continue
            }
            do {
                try key.apply(value, to: &check)
            } catch let error as W8CoreError {
                throw W8CoreError.backupInvalid("its settings: \(error.localizedDescription)")
            }
            values.append((key, value))
        }
        return (values, unknown)
    }
}
