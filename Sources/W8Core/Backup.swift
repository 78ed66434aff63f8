import Foundation

/// The goal journey of a backup: the goal, the milestones achieved on it, and every achievement.
public struct JourneyBackup: Sendable, Equatable {
    public var goal: Goal?
    /// Milestones achieved on the current journey and not re-armed since.
    public var milestonesAchieved: [MilestoneType]
    public var achievements: [MilestoneAchievement]

    public init(goal: Goal?, milestonesAchieved: [MilestoneType], achievements: [MilestoneAchievement]) {
        self.goal = goal
        self.milestonesAchieved = milestonesAchieved
        self.achievements = achievements
    }
}

/// A full backup as `w8 export --format json` writes it: settings, goal journey and entries.
public struct Backup: Sendable {
    /// The value of `format` that marks a W8Trackr backup.
    public static let formatName = "w8trackr-backup"
    public static let version = 1

    /// Each entry, or why it is not one; `line` is its 1-based position in `entries`.
    public var rows: [ImportRow]
    public var journey: JourneyBackup
    public var settings: [(SettingKey, SettingValue)]
    /// Keys this version does not know (from a newer W8Trackr): left out of the restore.
    public var unknownSettings: [String]

    /// Reads a backup; entries are validated as `w8 add` validates them, the rest must be exactly as written.
    public init(json data: [UInt8], options: ImportOptions) throws {
        let file: BackupFile
        do {
            file = try JSONDecoder().decode(BackupFile.self, from: Data(data))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw W8CoreError.backupInvalid("it is not valid JSON")
        } catch let error as DecodingError {
            throw W8CoreError.backupInvalid(BackupFile.describe(error))
        }
        guard file.format == Backup.formatName else {
            throw W8CoreError.backupInvalid("its \"format\" is not \"\(Backup.formatName)\"")
        }
        guard file.version <= Backup.version else {
            throw W8CoreError.backupInvalid("its version \(file.version) is newer than this w8 reads (\(Backup.version))")
        }
        let reader = BackupReader(options: options)
        journey = JourneyBackup(
            goal: try file.goal.map(reader.goal),
            milestonesAchieved: try (file.milestones_achieved ?? []).map(reader.milestone),
            achievements: try (file.achievements ?? []).enumerated().map(reader.achievement))
        (settings, unknownSettings) = try reader.settings(file.settings ?? [:])
        rows = file.entries.enumerated().map { index, item in
            do {
                return .entry(line: index + 1, try reader.entry(item))
            } catch {
                return .invalid(line: index + 1, reason: error.localizedDescription)
            }
        }
    }
}

/// The backup file as JSON has it; names are the file's.
struct BackupFile: Decodable {
    struct Entry: Decodable {
        var date: String?
        var weight: Double?
        var unit: String?
        var note: String?
        var body_fat_percent: Double?
    }

    struct Goal: Decodable {
        var weight: Double
        var unit: String
        var set_at: String
        var journey_started_at: String
    }

    struct Achievement: Decodable {
        var type: String
        var date_achieved: String
        var weight: Double
        var goal_weight: Double
        var start_weight: Double
        var unit: String
        var progress_percent: Double
        var notification_sent: Bool
    }

    /// A setting as TOML types it: a boolean, a whole number or a string.
    struct Setting: Decodable {
        var value: SettingValue

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let b = try? container.decode(Bool.self) {
                value = .bool(b)
            } else if let i = try? container.decode(Int.self) {
                value = .integer(i)
            } else {
                value = .string(try container.decode(String.self))
            }
        }
    }

    var format: String
    var version: Int
    var settings: [String: Setting]?
    var goal: Goal?
    var milestones_achieved: [String]?
    var achievements: [Achievement]?
    var entries: [Entry]

    /// "entries[3].weight is not a number", from the decoder's error.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)) has a value of the wrong type"
        @unknown default: return "it cannot be read"
        }
    }
}

/// Turns a backup's values back into domain values, validated.
struct BackupReader {
    let options: ImportOptions

    func date(_ text: String?, _ name: String) throws -> Date {
        guard let text else { throw W8CoreError.importFieldMissing(name) }
        return try DateInput.parse(text, now: options.now, calendar: options.calendar)
    }

    func entry(_ item: BackupFile.Entry) throws -> WeightEntry {
        guard let value = item.weight else { throw W8CoreError.importFieldMissing("weight") }
        guard let unit = item.unit else { throw W8CoreError.importFieldMissing("unit") }
        return WeightEntry(
            weight: try WeightInput.weight(Weight.exact(value), unit: try WeightInput.unit(unit), defaultUnit: .lb),
            date: try date(item.date, "date"), note: try WeightInput.note(item.note),
            bodyFatPercent: try item.body_fat_percent.map { try WeightInput.bodyFat(Weight.exact($0)) })
    }

    func goal(_ item: BackupFile.Goal) throws -> Goal {
        do {
            return Goal(
                weight: try WeightInput.goal(
                    Weight.exact(item.weight), unit: try WeightInput.unit(item.unit), defaultUnit: .lb),
                setAt: try date(item.set_at, "set_at"),
                journeyStartedAt: try date(item.journey_started_at, "journey_started_at"))
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

    func achievement(_ index: Int, _ item: BackupFile.Achievement) throws -> MilestoneAchievement {
        do {
            return MilestoneAchievement(
                type: try milestone(item.type), dateAchieved: try date(item.date_achieved, "date_achieved"),
                weight: item.weight, goalWeight: item.goal_weight, startWeight: item.start_weight,
                unit: try WeightInput.unit(item.unit), progressPercent: item.progress_percent,
                notificationSent: item.notification_sent)
        } catch let error as W8CoreError {
            throw W8CoreError.backupInvalid("achievement \(index + 1): \(error.localizedDescription)")
        }
    }

    /// The settings the backup sets, checked as the config file's are, and the keys this version does not know.
    func settings(_ object: [String: BackupFile.Setting]) throws -> ([(SettingKey, SettingValue)], [String]) {
        var values: [(SettingKey, SettingValue)] = []
        var unknown: [String] = []
        var check = Settings()
        for name in object.keys.sorted() {
            guard let key = SettingKey(rawValue: name) else {
                unknown.append(name)
                continue
            }
            let value = object[name]!.value
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

extension Weight {
    /// A number as text that reads back as the same Double: `182.4`, never `182.40000000000001`.
    public static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }
}
