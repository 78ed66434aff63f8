import Foundation
import W8App
import W8Core
import W8Store

/// Formats domain values for the terminal and for JSON, in the preferred unit.
struct Presenter {
    let unit: WeightUnit
    let dates: DateFormatting

    func weight(_ w: Weight) -> String {
        w.unit == unit ? w.formatted : "\(w.converted(to: unit).formatted) (entered as \(w.formatted))"
    }

    func amount(_ value: Double) -> String { Weight(value, unit).formatted }

    func entryJSON(_ entry: WeightEntry) -> JSON {
        .object([
            ("id", entry.id.map { .integer($0) } ?? .null),
            ("weight", .decimal(entry.weight.value(in: unit))),
            ("unit", .string(unit.rawValue)),
            ("date", .string(dates.iso8601(entry.date))),
            ("note", .string(entry.note)),
            ("body_fat_percent", .decimal(entry.bodyFatPercent)),
            ("entered_weight", .number(entry.weight.value)),
            ("entered_unit", .string(entry.weight.unit.rawValue)),
        ])
    }

    func achievementJSON(_ a: MilestoneAchievement) -> JSON {
        func w(_ v: Double) -> JSON { .decimal(Weight(v, a.unit).value(in: unit)) }
        return .object([
            ("id", a.id.map { .integer($0) } ?? .null),
            ("type", .string(a.type.rawValue)),
            ("date_achieved", .string(dates.iso8601(a.dateAchieved))),
            ("weight", w(a.weight)),
            ("goal_weight", w(a.goalWeight)),
            ("start_weight", w(a.startWeight)),
            ("unit", .string(unit.rawValue)),
            ("progress_percent", .decimal(a.progressPercent)),
            ("notification_sent", .bool(a.notificationSent)),
        ])
    }

    func statusJSON(_ snapshot: ProgressSnapshot) -> JSON {
        let progress = snapshot.progress
        return .object([
            ("unit", .string(unit.rawValue)),
            ("current_weight", .decimal(snapshot.current?.weight.value(in: unit))),
            ("start_weight", .decimal(progress == nil ? nil : snapshot.start?.weight.value(in: unit))),
            ("goal_weight", .decimal(snapshot.goal?.weight.value(in: unit))),
            ("progress_percent", .decimal(progress?.percent)),
            ("next_milestone", .string(progress?.nextMilestone?.rawValue)),
            ("distance_to_goal", .decimal(progress?.distanceToGoal)),
            ("approaching", progress.map { .bool($0.isApproaching) } ?? .null),
        ])
    }

    /// "Progress 25.0% · 15.0 lb to go to 160.0 lb", or nil without a goal.
    func progressLine(_ snapshot: ProgressSnapshot) -> String? {
        guard let progress = snapshot.progress else { return nil }
        guard let percent = progress.percent else {
            return "You are at your goal weight of \(amount(progress.goal))."
        }
        let rest =
            progress.reaches(.complete)
            ? "goal of \(amount(progress.goal)) reached"
            : "\(amount(progress.distanceToGoal)) to go to \(amount(progress.goal))"
        return "Progress \(Weight.decimal(percent))% · \(rest)"
    }

    /// What a change did to the milestones, for the terminal.
    func milestoneLines(_ outcome: TrackerOutcome) -> [String] {
        var lines: [String] = []
        if let pending = outcome.change.pending {
            let n = pending.notification
            lines.append(n.title)
            lines.append("  " + n.body)
        }
        let others = outcome.change.achievements.map(\.type).filter { $0 != outcome.change.pending?.type }
        if !others.isEmpty {
            lines.append("Milestone reached: " + others.map(\.displayName).joined(separator: ", ") + ".")
        }
        if !outcome.change.evaluation.rearmed.isEmpty {
            let names = outcome.change.evaluation.rearmed.map(\.displayName).joined(separator: ", ")
            lines.append("Re-armed, to be celebrated again when you get back there: \(names).")
        }
        return lines
    }
}

func emit(_ json: JSON) { print(json.rendered()) }
