import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension W8 {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Show or send this week's progress summary.",
            discussion: """
                The week is the 7 days up to now. --send posts it as a notification; with --if-due it posts only \
                when the latest scheduled occurrence (summary.day, summary.hour) is due and was not sent by any \
                process yet: the systemd timer's command, safe to run as often as you like.
                Examples: w8 summary · w8 summary --json · w8 summary --send --if-due
                """)

        @Flag(help: "Post the summary as a desktop notification.")
        var send = false

        @Flag(name: .customLong("if-due"), help: "With --send: only if the scheduled occurrence is due and unsent.")
        var ifDue = false

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if ifDue, !send { throw ValidationError("--if-due goes with --send") }
        }

        func run() throws {
            let runtime = Runtime()
            let runner = try runtime.eventRunner()
            if send {
                let (label, outcome) = try runner.sendSummary(at: runtime.now, ifDue: ifDue)
                if !output.json, case .failed(let why)? = outcome { warn("summary not shown (\(why))") }
                return show(
                    runtime.presenter(runner.settings).summarySent(
                        label, outcome, settings: runner.settings, json: output.json))
            }
            show(runtime.presenter(runner.settings).summary(try runner.summary(at: runtime.now), json: output.json))
        }
    }

    struct Schedule: ShowingCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "List the next time of every enabled event.",
            discussion: """
                The hydration reminder is counted from the last drink logged ('w8 drink'). \
                Example: w8 schedule --json
                """)

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            present.schedule(
                try runtime.eventRunner(settings: settings).upcoming(after: runtime.now), json: output.json)
        }
    }

    struct Daemon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "daemon",
            abstract: "Run the scheduler in the foreground: weekly summary and reminders at their local times.",
            discussion: """
                Logs one line per event to stderr (the journal under systemd). Stops on SIGTERM or SIGINT. \
                Changes to config.toml take effect at once; a summary missed while it was not running is sent \
                once when it starts. Example: systemctl --user enable --now w8trackr.service
                """)

        func run() throws {
            try Runtime.runDaemon { line in FileHandle.standardError.write(Data("w8 daemon: \(line)\n".utf8)) }
        }
    }
}
