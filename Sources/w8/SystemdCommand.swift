import ArgumentParser
import Foundation
import W8App
import W8Runtime

extension SystemdUnit: ExpressibleByArgument {}

extension W8 {
    struct Systemd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "systemd",
            abstract: "Install or remove the systemd user units that run the daemon and the weekly summary.",
            discussion: "Example: w8 systemd install",
            subcommands: [Install.self, Uninstall.self, Print.self])
    }
}

extension W8.Systemd {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Write the units for this w8 to $XDG_CONFIG_HOME/systemd/user, then enable and start them.",
            discussion: """
                Then runs 'systemctl --user daemon-reload' and '\(SystemdInstaller.enableCommand)'. Without a \
                reachable user manager (containers, ssh) the files stay, enabled for the next graphical session if \
                systemctl is there, and a warning says what to run later. \
                Run it again after moving w8; it is safe to repeat. Example: w8 systemd install
                """)

        @Flag(help: "Write the units and reload the user manager, but do not enable or start them.")
        var noEnable = false

        func run() throws {
            try Runtime().systemdInstaller(executable: SystemdInstaller.runningExecutable()).install(
                enable: !noEnable, report: say)
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Stop and disable the units, and remove the unit files that 'w8 systemd install' wrote.",
            discussion: "Your data and config.toml stay. Example: w8 systemd uninstall")

        func run() throws {
            try Runtime().systemdInstaller(executable: "").uninstall(report: say)
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract: "Print the units, with ExecStart= running this w8 or --executable.",
            discussion: """
                For packaging and checks. Example: w8 systemd print --executable /usr/bin/w8 w8trackr.service
                """)

        @Option(help: ArgumentHelp("The absolute path of w8 for ExecStart=; by default, this w8.", valueName: "path"))
        var executable: String?

        @Argument(help: "The unit to print; all of them, each after a '==> name <==' line, if omitted.")
        var unit: SystemdUnit?

        func validate() throws {
            if let problem = executable.flatMap(SystemdUnit.problem(executable:)) {
                throw ValidationError("--executable: \(problem)")
            }
        }

        func run() throws {
            print(
                SystemdUnit.printed(unit, executable: try executable ?? SystemdInstaller.runningExecutable()),
                terminator: "")
        }
    }
}
