import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Scheduler

#if canImport(Glibc)
    import Glibc
#endif

extension W8 {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
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
                let (label, outcome): (String, FireOutcome?)
                if ifDue {
                    let result = try runner.sendSummaryIfDue(at: runtime.now)
                    (label, outcome) = (result?.0.key ?? "summary", result?.1)
                } else {
                    (label, outcome) = ("summary", try runner.sendSummary(at: runtime.now))
                }
                if output.json {
                    return emit(.object([("occurrence", .string(label)), ("outcome", .string(outcome?.description ?? "not due"))]))
                }
                guard let outcome else {
                    return print(runner.settings.summary.enabled ? "Summary not due." : "Summary is disabled (summary.enabled).")
                }
                if case .failed(let why) = outcome { warn("summary not shown (\(why))") }
                return print("\(label): \(outcome)")
            }
            show(runtime.presenter(runner.settings).summary(try runner.summary(at: runtime.now), json: output.json))
        }
    }

    struct Schedule: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the next time of every enabled event.",
            discussion: """
                The hydration reminder is counted from the last drink logged ('w8 drink'). \
                Example: w8 schedule --json
                """)

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()  // a bad config file is refused before the database is opened
            let runner = runtime.eventRunner(
                database: try runtime.database(), sink: runtime.sink(), settings: settings, calendar: runtime.calendar)
            let upcoming = try runner.upcoming(after: runtime.now)
            show(runtime.presenter(runner.settings).schedule(upcoming, json: output.json))
        }
    }

    struct Daemon: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the scheduler in the foreground: weekly summary and reminders at their local times.",
            discussion: """
                Logs one line per event to stderr (the journal under systemd). Stops on SIGTERM or SIGINT. \
                Changes to config.toml take effect at once; a summary missed while it was not running is sent \
                once when it starts. Example: systemctl --user enable --now w8trackr.service
                """)

        func run() throws {
            let signals = [SIGTERM, SIGINT]
            try WallClockWaiter.blockSignals(signals)
            let runtime = Runtime()
            let database = try runtime.database()
            _ = try runtime.settings()
            let waiter = try WallClockWaiter(watching: [runtime.paths.configFile, "/etc/localtime"], signals: signals)
            let config = runtime.config
            let sink = runtime.sink()
            let scheduler = Scheduler(
                runner: { settings, calendar in
                    runtime.eventRunner(database: database, sink: sink, settings: settings, calendar: calendar)
                },
                waiter: waiter, loadSettings: { try config.load() }, clock: Runtime.clock,
                calendar: { Runtime.localCalendar(rereadZone: true) },
                log: { line in FileHandle.standardError.write(Data("w8 daemon: \(line)\n".utf8)) })
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                scheduler.run()
                done.signal()
            }
            thread.name = "w8-scheduler"
            thread.start()
            done.wait()
        }
    }
}
