import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Text

extension W8 {
    struct Goal: ShowingCommand {
        static let configuration = CommandConfiguration(.goal)

        @Argument(help: "The goal weight: 160, 72,5 or with a unit, 72kg. Leave out to show the goal.")
        var weight: String?

        @Option(help: "Unit of the goal (default: the preferred unit).")
        var unit: WeightUnit?

        @Option(
            help: """
                When the goal was set (default: now); the start weight is your weight at that moment. With the goal \
                unchanged or changed by 10% or less, the journey keeps its milestones and starts at that moment.
                """)
        var date: String?

        @Flag(help: "Remove the goal; milestones stop until a goal is set again.")
        var clear = false

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if clear, weight != nil { throw ValidationError(tr("give a goal weight or --clear, not both")) }
            if weight == nil, unit != nil || date != nil {
                throw ValidationError(tr("--unit and --date go with a goal weight"))
            }
        }

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            if clear {
                return present.goalCleared(try runtime.tracker(settings: settings).clearGoal(), json: output.json)
            }
            guard let weight else {
                return present.goal(try runtime.database().snapshot(unit: settings.unit), json: output.json)
            }
            let goalWeight = try WeightInput.goal(weight, unit: unit, defaultUnit: settings.unit)
            // A date given re-anchors a kept journey there (the repair for a mistyped goal).
            let (goal, newJourney, outcome) = try runtime.tracker(settings: settings).setGoal(
                goalWeight, at: try runtime.parseDate(date), anchoring: date != nil)
            if let warning = outcome.warning { warn(warning) }
            return present.goalSet(
                goalWeight, newJourney: newJourney, startedAt: date == nil ? nil : goal.journeyStartedAt,
                outcome: outcome, json: output.json)
        }
    }

    struct Status: ShowingCommand {
        static let configuration = CommandConfiguration(.status)

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let (snapshot, trend) = try runtime.tracker(settings: settings).status()
            return present.status(snapshot, trend: trend, json: output.json)
        }
    }

    struct Milestones: ShowingCommand {
        static let configuration = CommandConfiguration(.milestones)

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.milestones(try runtime.database().achievements(), json: output.json)
        }
    }

    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(.config)

        @Argument(help: "A setting's key, such as unit or summary.hour.")
        var key: ConfigKey?

        @Argument(help: "A new value for the key.")
        var value: String?

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime.started()
            // In a sync folder, the person's settings are merged first, and a change journaled as the command ends.
            runtime.journalSettings()
            guard let key else {
                let settings = try runtime.settings()
                return show(runtime.presenter(settings).config(settings, json: output.json))
            }
            guard case .known(let setting) = key else { throw W8CoreError.unknownSetting("\(key)") }
            let settings = try value.map { try runtime.config.set(setting, to: $0) } ?? runtime.settings()
            show(runtime.presenter(settings).config(settings, keys: [setting], json: output.json))
        }
    }
}

/// The key of `w8 config`: one of the settings (completed by the shells), or a word that is not one, refused with
/// the word named (exit 65) rather than as a usage error.
enum ConfigKey: ExpressibleByArgument, CustomStringConvertible {
    case known(SettingKey)
    case unknown(String)

    init(argument: String) { self = SettingKey(rawValue: argument).map(ConfigKey.known) ?? .unknown(argument) }

    var description: String { if case .unknown(let text) = self { text } else { "" } }

    static var defaultCompletionKind: CompletionKind { .list(SettingKey.allCases.map(\.rawValue)) }
}
