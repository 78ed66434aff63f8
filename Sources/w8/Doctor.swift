import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime
import W8Text

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
            switch category {
            // TRANSLATORS: `w8 notify-test`; {id} is the number the notification server gave it.
            case .milestone: print(tr("Posted a milestone notification (server id {id}).", ["id": id]))
            case .summary: print(tr("Posted a summary notification (server id {id}).", ["id": id]))
            case .reminder: print(tr("Posted a reminder notification (server id {id}).", ["id": id]))
            }
        }
    }
}
