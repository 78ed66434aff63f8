import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Text

/// The fields of an entry besides its weight, for `w8 add` and `w8 edit` (where each is a change).
struct EntryFields: ParsableArguments {
    @Option(help: "Unit of the weight (default: the preferred unit).")
    var unit: WeightUnit?

    @Option(help: "When you weighed: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or ISO 8601 with offset (add: default now).")
    var date: String?

    @Option(help: "A note, up to 500 characters (edit: an empty string removes it).")
    var note: String?

    @Option(name: .customLong("body-fat"), help: "Body fat percentage, 2 to 75 (edit: empty removes it).")
    var bodyFat: String?

    @OptionGroup var output: OutputOptions

    func input(weight: String?) -> EntryInput {
        EntryInput(weight: weight, unit: unit, date: date, note: note, bodyFat: bodyFat)
    }
}

extension W8 {
    struct Add: ChangingCommand {
        static let verb = ChangeVerb.logged
        static let configuration = CommandConfiguration(.add)

        @Argument(help: "The weight: 182.4, 82,5 or with a unit, 82.5kg or 182lb.")
        var weight: String

        @Argument(help: "The unit as a word of its own: w8 add 82.5 kg.", completion: .list(["lb", "kg"]))
        var unitWord: String?

        @OptionGroup var fields: EntryFields

        var json: Bool { fields.output.json }

        func change(_ runtime: Runtime, _ settings: Settings) throws -> TrackerOutcome {
            try Self.add(fields.input(weight: joined(weight, unitWord)), runtime, settings)
        }

        static func add(_ input: EntryInput, _ runtime: Runtime, _ settings: Settings) throws -> TrackerOutcome {
            let entry = try input.entry(defaultUnit: settings.unit, now: runtime.now, calendar: runtime.calendar)
            return try runtime.tracker(settings: settings).add(entry)
        }
    }
}

extension W8 {
    struct Edit: ChangingCommand {
        static let verb = ChangeVerb.updated
        static let configuration = CommandConfiguration(.edit)

        @Argument(help: "The entry's id, as 'w8 log' shows it.")
        var id: Int64

        @Option(help: "The new weight: 182.4, 82,5 or 82.5kg.")
        var weight: String?

        @OptionGroup var fields: EntryFields

        func validate() throws {
            if weight == nil, fields.date == nil, fields.note == nil, fields.bodyFat == nil {
                throw ValidationError(tr("nothing to change: give --weight, --date, --note or --body-fat"))
            }
            if fields.unit != nil, weight == nil { throw ValidationError(tr("--unit goes with --weight")) }
        }

        var json: Bool { fields.output.json }

        func change(_ runtime: Runtime, _ settings: Settings) throws -> TrackerOutcome {
            let changes = try fields.input(weight: weight).changes(
                defaultUnit: settings.unit, now: runtime.now, calendar: runtime.calendar)
            return try runtime.tracker(settings: settings).edit(id: id, changes)
        }
    }

    struct Remove: ChangingCommand {
        static let verb = ChangeVerb.removed
        static let configuration = CommandConfiguration(.remove)

        @Argument(help: "The entry's id, as 'w8 log' shows it.")
        var id: Int64

        @OptionGroup var output: OutputOptions

        var json: Bool { output.json }

        func change(_ runtime: Runtime, _ settings: Settings) throws -> TrackerOutcome {
            try runtime.tracker(settings: settings).remove(id: id)
        }
    }

    struct Log: ShowingCommand {
        static let configuration = CommandConfiguration(.log)

        @Option(help: "Show at most this many entries.")
        var limit: Int?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let limit, limit < 1 {
                throw ValidationError(tr("--limit '{value}' must be 1 or more", ["value": limit]))
            }
        }

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.log(try runtime.database().entries(limit: limit), json: output.json)
        }
    }
}

/// An add, edit or removal: `run()` loads the settings, makes the change through the tracker and prints what it
/// did, with the warning if its notification could not be shown.
protocol ChangingCommand: ParsableCommand {
    /// What the change does, for the sentence that reports it.
    static var verb: ChangeVerb { get }
    var json: Bool { get }
    /// Reads the input first, so that bad input is refused before the database is opened.
    func change(_ runtime: Runtime, _ settings: Settings) throws -> TrackerOutcome
}

extension ChangingCommand {
    func run() throws { try Self.perform(json: json, change) }

    /// Loads the settings, makes the change and prints what it did.
    static func perform(json: Bool, _ change: (Runtime, Settings) throws -> TrackerOutcome) throws {
        let runtime = Runtime.started(changing: true)
        let settings = try runtime.settings()
        let outcome = try change(runtime, settings)
        if let warning = outcome.warning { warn(warning) }
        show(runtime.presenter(settings).change(outcome, verb: verb, json: json))
    }
}

/// An amount and the unit typed as a word after it (`82.5 kg`, `1.5 bottles`), as one value: the parsers take a
/// unit after a space, and name a unit they do not know.
func joined(_ amount: String, _ unitWord: String?) -> String {
    unitWord.map { amount + " " + $0 } ?? amount
}
