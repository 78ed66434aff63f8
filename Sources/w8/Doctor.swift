import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension W8 {
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(.doctor)

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime.started()
            show(runtime.presenter(Settings()).doctor(runtime.doctor().diagnose(), json: output.json))
        }
    }

    struct NotifyTest: ParsableCommand {
        static let configuration = CommandConfiguration(.notifyTest)

        @Option(help: "The kind of notification: milestone, summary or reminder.")
        var category: Category = .milestone

        enum Category: String, ExpressibleByArgument, CaseIterable { case milestone, summary, reminder }

        func run() throws {
            let id = try Runtime.started().sink().postSample(category.rawValue)
            print("Posted a \(category.rawValue) notification (server id \(id)).")
        }
    }
}
