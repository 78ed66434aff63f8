import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Scheduler
import W8Text

extension W8 {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(.summary)

        @Flag(help: "Post the summary as a desktop notification.")
        var send = false

        @Flag(name: .customLong("if-due"), help: "With --send: only if the scheduled occurrence is due and unsent.")
        var ifDue = false

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if ifDue, !send { throw ValidationError(tr("--if-due goes with --send")) }
        }

        func run() throws {
            let runtime = Runtime.started()
            var runner = try runtime.eventRunner()
            if send {
                // The timer's run holds the summary while the person is away, as the daemon does, and shows what
                // is held once they are back: also where no daemon runs.
                if ifDue { runner.presence = runtime.presence(runner.settings) }
                let (label, outcome) = try runner.sendSummary(at: runtime.now, ifDue: ifDue)
                if ifDue { _ = try runner.releaseHeld(at: runtime.now) }
                if !output.json, case .failed(let why)? = outcome {
                    // TRANSLATORS: a warning of `w8 summary --send`; {reason} says why the notification was not shown.
                    warn(tr("summary not shown ({reason})", ["reason": why]))
                }
                show(
                    runtime.presenter(runner.settings).summarySent(
                        label, outcome, settings: runner.settings, json: output.json))
                // Not shown (no notification server yet, say at login): 69, so that the summary service's
                // Restart=on-failure tries again within minutes rather than at the next hourly run.
                if case .failed? = outcome { throw ExitCode(ExitStatus.unavailable.rawValue) }
                return
            }
            show(runtime.presenter(runner.settings).summary(try runner.summary(at: runtime.now), json: output.json))
        }
    }

    struct Schedule: ShowingCommand {
        static let configuration = CommandConfiguration(.schedule)

        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let runner = try runtime.eventRunner(settings: settings)
            return present.schedule(
                try runner.upcoming(after: runtime.now), held: try runner.heldReminders(), json: output.json)
        }
    }

    struct Daemon: ParsableCommand {
        static let configuration = CommandConfiguration(.daemon)

        func run() throws {
            let scheduler = try Runtime.daemonScheduler(warn: warn) { line in
                FileHandle.standardError.write(Data("w8 daemon: \(line)\n".utf8))
            }
            // The scheduler owns a thread of its own until SIGTERM or SIGINT; the main thread waits for it.
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
