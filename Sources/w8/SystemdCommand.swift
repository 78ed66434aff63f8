import ArgumentParser
import Foundation
import W8App
import W8Runtime
import W8Text

extension SystemdUnit: ExpressibleByArgument {}

extension W8 {
    struct Systemd: ParsableCommand {
        static let configuration = CommandConfiguration(
            .systemd, subcommands: [Install.self, Uninstall.self, Print.self])
    }
}

extension W8.Systemd {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(.systemdInstall)

        @Flag(help: "Write the units and reload the user manager, but do not enable or start them.")
        var noEnable = false

        func run() throws {
            try Runtime.started().systemdInstaller(executable: SystemdInstaller.runningExecutable()).install(
                enable: !noEnable, report: say)
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(.systemdUninstall)

        func run() throws {
            try Runtime.started().systemdInstaller(executable: "").uninstall(report: say)
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(.systemdPrint)

        @Option(help: ArgumentHelp("The absolute path of w8 for ExecStart=; by default, this w8.", valueName: "path"))
        var executable: String?

        @Argument(help: "The unit to print; all of them, each after a '==> name <==' line, if omitted.")
        var unit: SystemdUnit?

        func validate() throws {
            if let problem = executable.flatMap(SystemdUnit.problem(executable:)) {
                // TRANSLATORS: {problem} says why systemd cannot run the path given with --executable.
                throw ValidationError(tr("--executable: {problem}", ["problem": problem]))
            }
        }

        func run() throws {
            print(
                SystemdUnit.printed(unit, executable: try executable ?? SystemdInstaller.runningExecutable()),
                terminator: "")
        }
    }
}
