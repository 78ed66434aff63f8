import Foundation
import W8Core
import W8Text

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
            let reason = tr(
                // TRANSLATORS: why a backup is refused. {key} is the backup's JSON key "format", {format} the value it
                // must have ("w8trackr-backup"): both as the file writes them.
                "its \"{key}\" is not \"{format}\"", ["key": "format", "format": BackupDocument.formatName])
            throw W8FormatsError.documentInvalid(.backup, reason)
        }
        guard file.version <= BackupDocument.version else {
            let reason = tr(
                // TRANSLATORS: why a backup is refused; {version} and {supported} are version numbers of the backup
                // format.
                "its version {version} is newer than this w8 reads ({supported})",
                ["version": file.version, "supported": BackupDocument.version])
            throw W8FormatsError.documentInvalid(.backup, reason)
        }
        journey = JourneyBackup(
            goal: try file.goal.map(reader.goal),
            milestonesAchieved: try (file.milestonesAchieved ?? []).map(reader.milestone),
            achievements: try (file.achievements ?? []).enumerated().map(reader.achievement),
            intake: try (file.intake ?? []).enumerated().map(reader.intake),
            activity: try (file.activity ?? []).enumerated().map(reader.activity))
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
    /// in `entries`. Throws `W8FormatsError.documentInvalid` (`.backup`) when the backup cannot be restored.
    public mutating func feed(_ bytes: [UInt8]) throws -> [ImportRow] {
        let parts: [JSONObjectStream.Part]
        do throws(JSONObjectStream.Malformed) { parts = try scanner.feed(bytes) } catch {
            throw W8FormatsError.documentInvalid(
                .backup, error.reason(maxValueBytes: scanner.maxValueBytes, writer: "w8"))
        }
        var rows: [ImportRow] = []
        for part in parts {
            switch part {
            case .member(let key, let value):
                // The app's export, its keys sorted, starts with the one key no backup has.
                if key == Array("appVersion".utf8) {
                    let reason = tr(
                        // TRANSLATORS: why a file given as a backup is refused; {format} is a name --format takes.
                        "it is the iPhone W8Trackr app's export; give --format {format}, or no --format",
                        ["format": ImportFormat.w8trackrIOS.rawValue])
                    throw W8FormatsError.documentInvalid(.backup, reason)
                }
                members.append((key, value))
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
            throw W8FormatsError.documentInvalid(.backup, tr("it is not valid JSON"))
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

    private static func invalid(_ error: DecodingError, at prefix: String = "") -> W8FormatsError {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return .documentInvalid(.backup, tr("it is not valid JSON"))
        }
        return .documentInvalid(.backup, BackupDocument.describe(error, at: prefix))
    }
}

/// Turns a backup's values back into domain values, validated.
struct BackupReader {
    let options: ImportOptions

    func date(_ text: String?, _ name: String) throws -> Date {
        guard let text else { throw W8FormatsError.importFieldMissing(name) }
        return try DateInput.parse(text, now: options.now, calendar: options.calendar)
    }

    func entry(_ item: BackupDocument.Entry) throws -> WeightEntry {
        guard let value = item.weight else { throw W8FormatsError.importFieldMissing("weight") }
        guard let unit = item.unit else { throw W8FormatsError.importFieldMissing("unit") }
        return WeightEntry(
            weight: try WeightInput.weight(value.roundTripText, unit: try WeightInput.unit(unit), defaultUnit: .lb),
            date: try date(item.date, "date"), note: try WeightInput.note(item.note),
            bodyFatPercent: try item.bodyFatPercent.map { try WeightInput.bodyFat($0.roundTripText) })
    }

    func goal(_ item: BackupDocument.Goal) throws -> Goal {
        do {
            return Goal(
                weight: try WeightInput.goal(
                    item.weight.roundTripText, unit: try WeightInput.unit(item.unit), defaultUnit: .lb),
                setAt: try date(item.setAt, "setAt"),
                journeyStartedAt: try date(item.journeyStartedAt, "journeyStartedAt"))
        } catch let error where error is W8CoreError || error is W8FormatsError {
            // TRANSLATORS: why a backup is refused: its goal, then what is wrong with it.
            let reason = tr("its goal: {reason}", ["reason": error.localizedDescription])
            throw W8FormatsError.documentInvalid(.backup, reason)
        }
    }

    func milestone(_ text: String) throws -> MilestoneType {
        guard let type = MilestoneType(rawValue: text) else {
            let reason = tr(
                // TRANSLATORS: {value} is the backup's milestone, {milestones} the names a backup may give (as
                // written).
                "milestone '{value}' is not one of {milestones}",
                ["value": text, "milestones": "25, 50, 75, approaching, 100"])
            throw W8FormatsError.documentInvalid(.backup, reason)
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
        } catch let error where error is W8CoreError || error is W8FormatsError {
            let reason = tr(
                // TRANSLATORS: why a backup is refused: which of its achievements ({number}: 1, 2, …), then what is
                // wrong.
                "achievement {number}: {reason}", ["number": index + 1, "reason": error.localizedDescription])
            throw W8FormatsError.documentInvalid(.backup, reason)
        }
    }

    /// An intake event, checked as `w8 drink` and `w8 eat` check theirs.
    func intake(_ index: Int, _ item: BackupDocument.IntakeItem) throws -> IntakeEvent {
        do {
            guard let kind = IntakeKind(rawValue: item.kind) else {
                let reason = tr(
                    // TRANSLATORS: {value} is the kind an intake event of the backup gives; {kinds} and {last} are the
                    // kinds a backup may give, as written ("water, beverage, meal, snack" and "calories").
                    "kind '{value}' is not {kinds} or {last}",
                    ["value": item.kind, "kinds": "water, beverage, meal, snack", "last": "calories"])
                throw W8FormatsError.documentInvalid(.backup, reason)
            }
            let volume = item.volumeML
            if kind.isDrink {
                guard let volume, (1...IntakeSettings.maxDrink).contains(volume) else {
                    throw W8CoreError.drinkInvalid(item.volumeML.map(String.init) ?? "null")
                }
            } else if volume != nil {
                // TRANSLATORS: {kind} is the kind of an intake event of the backup, as written: meal, snack or
                // calories.
                throw W8FormatsError.documentInvalid(.backup, tr("a {kind} has no volume", ["kind": kind.rawValue]))
            }
            return IntakeEvent(
                kind: kind, date: try date(item.date, "date"), volume: volume,
                calories: try IntakeInput.calories(String(item.calories)), note: try WeightInput.note(item.note))
        } catch let error where error is W8CoreError || error is W8FormatsError {
            // TRANSLATORS: why a backup is refused: which event of its intake log ({number}: 1, 2, …), then what is
            // wrong.
            let reason = tr("intake {number}: {reason}", ["number": index + 1, "reason": error.localizedDescription])
            throw W8FormatsError.documentInvalid(.backup, reason)
        }
    }

    /// A day of the activity log, checked as `w8 steps` checks its input.
    func activity(_ index: Int, _ item: BackupDocument.ActivityItem) throws -> ActivityDay {
        do {
            guard let day = CalendarDay(item.day) else {
                throw W8FormatsError.documentInvalid(
                    .backup, tr("day '{value}' is not YYYY-MM-DD", ["value": item.day]))
            }
            guard !item.source.isEmpty, item.source.count <= 64,
                item.source.allSatisfy({ $0.isASCII && !$0.isWhitespace })
            else {
                // TRANSLATORS: {value} is the source a day of steps of the backup gives: the name of an app or device.
                let reason = tr("source '{value}' is no source name", ["value": item.source])
                throw W8FormatsError.documentInvalid(.backup, reason)
            }
            guard (0...100_000_000).contains(item.distanceM) else {
                // TRANSLATORS: {key} is the backup's JSON key "distance_m", {value} its value.
                let reason = tr("{key} {value} is out of range", ["key": "distance_m", "value": item.distanceM])
                throw W8FormatsError.documentInvalid(.backup, reason)
            }
            return ActivityDay(
                day: day, steps: try ActivityInput.steps(String(item.steps)), distance: item.distanceM,
                source: ActivitySource(rawValue: item.source))
        } catch let error where error is W8CoreError || error is W8FormatsError {
            // TRANSLATORS: why a backup is refused: which day of its activity log ({number}: 1, 2, …), then what is
            // wrong.
            let reason = tr("activity {number}: {reason}", ["number": index + 1, "reason": error.localizedDescription])
            throw W8FormatsError.documentInvalid(.backup, reason)
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
            } catch let error where error is W8CoreError || error is W8FormatsError {
                // TRANSLATORS: why a backup is refused: its settings, then what is wrong with them.
                let reason = tr("its settings: {reason}", ["reason": error.localizedDescription])
                throw W8FormatsError.documentInvalid(.backup, reason)
            }
            values.append((key, value))
        }
        return (values, unknown)
    }
}
