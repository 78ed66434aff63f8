import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension W8 {
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check notifications, files and systemd units, and say what is wrong.",
            discussion: "Example: w8 doctor --json")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            show(runtime.presenter(Settings()).doctor(runtime.doctor().diagnose(), json: output.json))
        }
    }

    struct NotifyTest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notify-test", abstract: "Post a sample notification to check that notifications reach you.",
            discussion: "Example: w8 notify-test --category reminder")

        @Option(help: "The kind of notification: milestone, summary or reminder.")
        var category: Category = .milestone

        enum Category: String, ExpressibleByArgument, CaseIterable { case milestone, summary, reminder }

        func run() throws {
            let id = try Runtime().notifyTest(category.rawValue)
            print("Posted a \(category.rawValue) notification (server id \(id)).")
        }
    }
}
