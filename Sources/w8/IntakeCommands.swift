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
        static let configuration = CommandConfiguration(
            commandName: "drink",
            abstract: "Log a drink: water, or with --beverage another drink. Prints the day's water against the goal.",
            discussion: IntakeInput.drinkHelp)

        @Argument(help: "How much; one cup if left out.", completion: .list(["cup", "bottle"]))
        var amount: String = "cup"

        @Flag(help: "Another drink than water (coffee, tea, juice).")
        var beverage = false

        @OptionGroup var options: IntakeOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let outcome = try runtime.intakeLog(settings).drink(
                amount, beverage: beverage, calories: options.calories, date: options.date, note: options.note)
            if let warning = outcome.warning { warn(warning) }
            show(runtime.presenter(settings).intakeChange(outcome, verb: "Logged", json: options.output.json))
        }
    }

    struct Eat: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eat",
            abstract: "Log a meal or a snack.",
            discussion: """
                Without --calories, a meal counts intake.meal_calories and a snack intake.snack_calories (0 counts \
                none). Examples: w8 eat meal · w8 eat snack --calories 150 --note apple
                """)

        @Argument(help: "meal or snack.", completion: .list(["meal", "snack"]))
        var what: String

        @OptionGroup var options: IntakeOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let outcome = try runtime.intakeLog(settings).eat(
                what, calories: options.calories, date: options.date, note: options.note)
            show(runtime.presenter(settings).intakeChange(outcome, verb: "Logged", json: options.output.json))
        }
    }

    struct Today: ShowingCommand {
        static let configuration = CommandConfiguration(
            commandName: "today",
            abstract: "Show a day's water, drinks, meals, snacks and calories against your daily goals.",
            discussion: "Example: w8 today · w8 today --date 2026-11-20 --json")

        @Option(help: "The day: YYYY-MM-DD (default: today).")
        var date: String?

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.today(
                try runtime.intakeLog(settings).day(containing: try runtime.parseDate(date)), json: output.json)
        }
    }

    struct Intake: ShowingCommand {
        static let configuration = CommandConfiguration(
            commandName: "intake",
            abstract: "List the drinks, meals and snacks you logged, newest first with ids; 'rm ID' removes one.",
            discussion: "Examples: w8 intake · w8 intake --days 7 --json · w8 intake rm 12", subcommands: [Remove.self])

        @Option(help: "How many days back, today included: 1 or more.")
        var days = 1

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if days < 1 { throw ValidationError("--days '\(days)' must be 1 or more") }
        }

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let events = try runtime.intakeLog(settings).events(days: days)
            return present.intake(events, unit: settings.intake.volumeUnit, json: output.json)
        }
    }
}

extension W8.Intake {
    struct Remove: ShowingCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a logged drink, meal or snack.", discussion: "Example: w8 intake rm 12"
        )

        @Argument(help: "The event's id, as 'w8 intake' shows it.")
        var id: Int64

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.intakeChange(try runtime.intakeLog(settings).remove(id: id), verb: "Removed", json: output.json)
        }
    }
}
