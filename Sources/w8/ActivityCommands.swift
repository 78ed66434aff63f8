import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension W8 {
    struct Steps: ShowingCommand {
        static let configuration = CommandConfiguration(.steps)

        @Argument(help: "The day's total steps, 0 to \(ActivityDay.maxSteps).")
        var steps: String

        @OptionGroup var day: DayOptions
        var output: OutputOptions { day.output }

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let outcome = try runtime.activityLog(settings).record(steps: steps, date: day.date)
            return present.stepsRecorded(outcome, json: output.json)
        }
    }

    struct Activity: ShowingCommand {
        static let configuration = CommandConfiguration(.activity)

        @OptionGroup var back: DaysBack
        @OptionGroup var output: OutputOptions

        func lines(_ runtime: Runtime, _ settings: Settings, _ present: Presenter) throws -> [String] {
            let days = try runtime.activityLog(settings).days(back.days ?? 7)
            return present.activity(days, stepGoal: settings.stepGoal, json: output.json)
        }
    }
}
