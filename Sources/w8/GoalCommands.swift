import ArgumentParser
import Foundation
import W8App
import W8Core

extension W8 {
    struct Goal: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set, show or clear your goal weight.",
            discussion: """
                A change of more than 10% starts a new journey (start weight taken again, every milestone \
                re-armed); a smaller change keeps your start weight and the milestones you already reached.
                Examples: w8 goal 160 · w8 goal 72kg · w8 goal · w8 goal --clear
                """)

        @Argument(help: "The goal weight: 160, 72,5 or with a unit, 72kg. Leave out to show the goal.")
        var weight: String?

        @Option(help: "Unit of the goal (default: the preferred unit).")
        var unit: WeightUnit?

        @Option(help: "When the goal was set (default: now); the start weight is your weight at that moment.")
        var date: String?

        @Flag(help: "Remove the goal; milestones stop until a goal is set again.")
        var clear = false

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if clear, weight != nil { throw ValidationError("give a goal weight or --clear, not both") }
            if weight == nil, unit != nil || date != nil {
                throw ValidationError("--unit and --date go with a goal weight")
            }
        }

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let present = Presenter(unit: settings.unit, dates: runtime.dates)
            if clear {
                let removed = try runtime.tracker(settings: settings).clearGoal()
                if output.json { return emit(.object([("cleared", .bool(removed))])) }
                return print(removed ? "Goal cleared." : "No goal was set.")
            }
            guard let weight else { return try show(runtime: runtime, present: present) }
            let goalWeight = try WeightInput.goal(weight, unit: unit, defaultUnit: settings.unit)
            let at = try runtime.parseDate(date)
            let (_, newJourney, outcome) = try runtime.tracker(settings: settings).setGoal(goalWeight, at: at)
            if let warning = outcome.warning { warn(warning) }
            let snapshot = outcome.change.snapshot
            if output.json {
                return emit(
                    .object([
                        ("goal", goalJSON(snapshot, present: present)),
                        ("new_journey", .bool(newJourney)),
                        ("achieved", .array(outcome.change.achievements.map { .string($0.type.rawValue) })),
                        ("notified", JSON.string(outcome.notified?.rawValue)),
                    ]))
            }
            print(
                newJourney
                    ? "Goal set to \(present.weight(goalWeight)). A new journey starts now."
                    : "Goal changed to \(present.weight(goalWeight)); same journey, progress recalculated.")
            if let start = snapshot.start { print("Start weight \(present.weight(start.weight)).") }
            for line in present.milestoneLines(outcome) { print(line) }
            if let line = present.progressLine(snapshot) { print(line) }
        }

        func show(runtime: Runtime, present: Presenter) throws {
            let snapshot = try runtime.database().snapshot(unit: present.unit)
            if output.json { return emit(goalJSON(snapshot, present: present)) }
            guard let goal = snapshot.goal else { return print("No goal set. Set one with 'w8 goal 160'.") }
            print("Goal \(present.weight(goal.weight)), set \(runtime.dates.short(goal.setAt)).")
            if let start = snapshot.start {
                print("Start weight \(present.weight(start.weight)) (journey started \(runtime.dates.short(goal.journeyStartedAt))).")
            }
            if let line = present.progressLine(snapshot) { print(line) }
        }

        func goalJSON(_ snapshot: ProgressSnapshot, present: Presenter) -> JSON {
            guard let goal = snapshot.goal else {
                return .object([
                    ("goal_weight", .null), ("unit", .string(present.unit.rawValue)), ("set_at", .null),
                    ("journey_started_at", .null), ("start_weight", .null),
                ])
            }
            return .object([
                ("goal_weight", .decimal(goal.weight.value(in: present.unit))),
                ("unit", .string(present.unit.rawValue)),
                ("set_at", .string(present.dates.iso8601(goal.setAt))),
                ("journey_started_at", .string(present.dates.iso8601(goal.journeyStartedAt))),
                ("start_weight", .decimal(snapshot.start?.weight.value(in: present.unit))),
            ])
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your current weight and progress toward your goal.", discussion: "Example: w8 status --json")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let database = try runtime.database()
            let snapshot = try database.snapshot(unit: settings.unit)
            let trend = try database.trend(
                unit: settings.unit, goal: snapshot.goal?.weight, now: runtime.now, calendar: runtime.calendar)
            let present = Presenter(unit: settings.unit, dates: runtime.dates)
            if output.json { return emit(present.statusJSON(snapshot, trend: trend)) }
            guard let current = snapshot.current else { return print("No weigh-ins yet. Log one with 'w8 add 182.4'.") }
            print("Current   \(present.weight(current.weight))  (\(runtime.dates.short(current.date)))")
            for line in present.trendLines(trend) { print(line) }
            guard let goal = snapshot.goal, let progress = snapshot.progress else {
                return print("No goal set. Set one with 'w8 goal 160' to get milestone notifications.")
            }
            print("Start     \(present.amount(progress.start))")
            print("Goal      \(present.weight(goal.weight))")
            if let line = present.progressLine(snapshot) { print(line) }
            if let next = progress.nextMilestone { print("Next      \(next.displayName)") }
            if progress.isApproaching { print("You're within \(present.amount(settings.unit.approachingDistance)) of your goal!") }
        }
    }

    struct Milestones: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the milestones you have reached, newest first.", discussion: "Example: w8 milestones --json")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            let settings = try runtime.settings()
            let achievements = try runtime.database().achievements()
            let present = Presenter(unit: settings.unit, dates: runtime.dates)
            if output.json { return emit(.array(achievements.map(present.achievementJSON))) }
            if achievements.isEmpty { return print("No milestones reached yet.") }
            for a in achievements {
                let weight = present.amount(Weight(a.weight, a.unit).value(in: settings.unit))
                let sent = a.notificationSent ? "notified" : "not notified"
                print("\(runtime.dates.short(a.dateAchieved))  \(a.type.displayName) at \(weight) (\(Weight.decimal(a.progressPercent))%, \(sent))")
            }
        }
    }

    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, show or change settings (kept in $XDG_CONFIG_HOME/w8trackr/config.toml).",
            discussion: "Examples: w8 config · w8 config unit · w8 config unit kg · w8 config summary.day mon\nKeys:\n"
                + SettingKey.allCases.map { "  \($0.rawValue): \($0.help)" }.joined(separator: "\n"))

        @Argument(help: "A setting's key, such as unit or summary.hour.")
        var key: String?

        @Argument(help: "A new value for the key.")
        var value: String?

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime()
            guard let key else {
                let settings = try runtime.settings()
                if output.json {
                    return emit(.object(SettingKey.allCases.map { ($0.rawValue, JSON.setting($0.value(in: settings))) }))
                }
                for key in SettingKey.allCases { print("\(key.rawValue) = \(key.value(in: settings))") }
                return
            }
            guard let setting = SettingKey(rawValue: key) else { throw W8CoreError.unknownSetting(key) }
            let settings = try value.map { try runtime.config.set(setting, to: $0) } ?? runtime.settings()
            if output.json { return emit(.object([(key, JSON.setting(setting.value(in: settings)))])) }
            print(setting.value(in: settings))
        }
    }
}
