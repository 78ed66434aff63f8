import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Text

@main
struct W8: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        .w8, version: version,
        subcommands: [
            Add.self, Goal.self, Status.self, Log.self, Edit.self, Remove.self, Milestones.self, Config.self,
            Summary.self, Drink.self, Eat.self, Today.self, Intake.self, Steps.self, Activity.self, Widget.self,
            Chart.self, Export.self,
            Import.self, Sync.self, Schedule.self, Daemon.self, Systemd.self, Doctor.self, NotifyTest.self,
        ])

    /// Runs the command and turns every error into one line on stderr and a sysexits(3) code.
    static func main() {
        umask(0o077)
        reserveStandardDescriptors()
        // What ArgumentParser prints for --version, without the reflection it does over the command tree first.
        let arguments = commandLine().dropFirst()
        if arguments == ["--version"] {
            print(version)
            flushStandardOutput()
            return
        }
        Localization.bind()
        func run() throws {
            if let (input, json) = Add.quick(Array(arguments)) {
                try Add.perform(json: json) { try Add.add(input, $0, $1) }
            } else {
                var command = try parseRouted(Self.arguments(arguments))
                try command.run()
            }
            Runtime.closeOpenDatabases()
            flushStandardOutput()
        }
        do {
            // --json is for scripts: everything it carries (messages, reasons, dates) is the same in every locale,
            // so the command runs in the sources' English. Its error on standard error is the user's language, and so
            // are the notifications it posts and its warnings (`Localization.inUsersLanguage`).
            if arguments.contains("--json") { try Localization.inEnglish(run) } else { try run() }
        } catch {
            fail(error)
        }
    }

    /// The command `arguments` name, parsed by its own type when they name one and it parses them: ArgumentParser
    /// then reflects that command alone, not the thirty others (a quarter of `w8 status`'s time; bench/README.md,
    /// "Issue 40"). Anything else, help and every error included, is parsed from the root, so that what it prints
    /// is the same.
    static func parseRouted(_ arguments: [String]) throws -> any ParsableCommand {
        if let name = arguments.first,
            let type = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            let command = try? type.parseAsRoot(Array(arguments.dropFirst())),
            // That command or one of its own, not ArgumentParser's help, which would name it without "w8".
            _typeName(Swift.type(of: command)).hasPrefix(_typeName(type))
        {
            return command
        }
        return try parseAsRoot(arguments)
    }

    static func fail(_ error: Error) -> Never {
        if let error = error as? ExitCode { Foundation.exit(error.rawValue) }  // the command already said why
        let exit = exitCode(for: error)
        if exit == .success, !(error is any ReportableError) {
            print(fullMessage(for: error))
            Foundation.exit(0)
        }
        let (code, line) = failure(error, usageStatus: exit == .validationFailure ? 64 : exit.rawValue) {
            message(for: error)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(code)
    }
}

extension CommandConfiguration {
    /// A command named and described by `help`.
    ///
    /// Every command but `w8` itself names `w8` as the command above it (`_superCommandName`): parsed alone by
    /// `W8.parseRouted`, it then leaves `--generate-completion-script` to the root, which answers it for all of
    /// `w8`, rather than first parsing the arguments twice more looking for it (a tenth of `w8 status`;
    /// bench/README.md, "Issue 40").
    init(_ help: CommandHelp, version: String = "", subcommands: [any ParsableCommand.Type] = []) {
        self.init(
            commandName: help.name, abstract: help.abstract, discussion: help.discussion, version: version,
            subcommands: subcommands)
        if help.name != CommandHelp.w8.name { _superCommandName = CommandHelp.w8.name }
    }
}

/// `--json` for commands whose output scripts read.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false
}

/// `--date DAY` and `--json`, for the commands about one local day (`today`, `steps`).
struct DayOptions: ParsableArguments {
    @Option(help: "The day: YYYY-MM-DD (default: today).")
    var date: String?

    @OptionGroup var output: OutputOptions
}

/// `--days N`, for the commands that list the last days (`intake`, `activity`); each has its own default.
struct DaysBack: ParsableArguments {
    @Option(help: "How many days back, today included: 1 or more (default: 1 for intake, 7 for activity).")
    var days: Int?

    func validate() throws {
        if let days, days < 1 { throw ValidationError(tr("--days '{value}' must be 1 or more", ["value": days])) }
    }
}

extension WeightUnit: ExpressibleByArgument {}

/// A command that shows what it read or did: `run()` loads the settings, asks `lines` and prints them.
protocol ShowingCommand: ParsableCommand {
    var output: OutputOptions { get }
    func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String]
}

extension ShowingCommand {
    func run() throws {
        // The config file is read first: a bad one is refused before the database is opened.
        let (runtime, settings) = try Runtime.loaded()
        show(try lines(runtime, settings, runtime.presenter(settings)))
    }
}
