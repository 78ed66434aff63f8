import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

/// The options every intake command that logs takes.
struct IntakeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Kilocalories, 0 to 10000.")
    var calories: String?

    @Option(help: "When: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or ISO 8601 with offset (default: now).")
    var date: String?

    @Option(help: "A note, up to 500 characters.")
    var note: String?

    @OptionGroup var output: OutputOptions
}

extension W8 {
    struct Drink: ParsableCommand {
        static let configuration = CommandConfiguration(.drink)

        @Argument(help: "How much; one cup if left out.", completion: .list(["cup", "bottle"]))
        var amount: String = "cup"

        @Argument(help: "The unit as a word of its own: w8 drink 500 ml, w8 drink 1.5 bottles.")
        var unitWord: String?

        @Flag(help: "Another drink than water (coffee, tea, juice).")
        var beverage = false

        @OptionGroup var options: IntakeOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let outcome = try runtime.intakeLog(settings).drink(
                joined(amount, unitWord), beverage: beverage, calories: options.calories, date: options.date,
                note: options.note)
            if let warning = outcome.warning { warn(warning) }
            show(runtime.presenter(settings).intakeChange(outcome, verb: .logged, json: options.output.json))
        }
    }

    struct Eat: ParsableCommand {
        static let configuration = CommandConfiguration(.eat)

        @Argument(help: "meal or snack.", completion: .list(["meal", "snack"]))
        var what: String

        @OptionGroup var options: IntakeOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let outcome = try runtime.intakeLog(settings).eat(
                what, calories: options.calories, date: options.date, note: options.note)
            show(runtime.presenter(settings).intakeChange(outcome, verb: .logged, json: options.output.json))
        }
    }

    struct Today: ShowingCommand {
        static let configuration = CommandConfiguration(.today)

        @OptionGroup var day: DayOptions
        var output: OutputOptions { day.output }

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let day = try runtime.parseDate(self.day.date)
            return present.today(
                try runtime.intakeLog(settings).day(containing: day),
                activity: try runtime.activityLog(settings).total(containing: day), json: output.json)
        }
    }

    struct Intake: ShowingCommand {
        static let configuration = CommandConfiguration(.intake, subcommands: [Remove.self])

        @OptionGroup var back: DaysBack
        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let events = try runtime.intakeLog(settings).events(days: back.days ?? 1)
            return present.intake(events, unit: settings.intake.volumeUnit, json: output.json)
        }
    }
}

extension W8.Intake {
    struct Remove: ShowingCommand {
        static let configuration = CommandConfiguration(.intakeRemove)

        @Argument(help: "The event's id, as 'w8 intake' shows it.")
        var id: Int64

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.intakeChange(try runtime.intakeLog(settings).remove(id: id), verb: .removed, json: output.json)
        }
    }
}
