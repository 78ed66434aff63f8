// The floor of issue 40's status bar on the stack the brief prescribes: ArgumentParser parses the command, GRDB opens
// the database and runs the queries `w8 status` runs, Foundation's calendar puts the latest date in the local zone,
// and one line is printed. Nothing else: no config, no sync, no integrity check, no catalogs.
import ArgumentParser
import Foundation
import GRDB

struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor", subcommands: [Status.self])
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status")
    @Flag var json = false
    @Argument var path: String

    func run() throws {
        let queue = try DatabaseQueue(path: path)
        let line: String = try queue.read { db in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM sync_self")
            let latest = try Row.fetchOne(
                db,
                sql:
                    "SELECT id, date, weight, unit, note, body_fat_percent FROM entry ORDER BY date DESC, id DESC LIMIT 1"
            )
            let goal = try Row.fetchOne(
                db, sql: "SELECT weight, unit, set_at, journey_started_at FROM goal WHERE id = 1")
            _ = try Row.fetchOne(
                db,
                sql:
                    "SELECT id, date, weight, unit, note, body_fat_percent FROM entry WHERE date <= (SELECT journey_started_at FROM goal) ORDER BY date DESC, id DESC LIMIT 1"
            )
            _ = try Row.fetchOne(
                db,
                sql:
                    "SELECT id, date, weight, unit FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 year') ORDER BY date, id LIMIT 1"
            )
            let week = try String.fetchAll(
                db, sql: "SELECT date FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-7 days')")
            let weight: Double = latest?["weight"] ?? 0
            let goalWeight: Double = goal?["weight"] ?? 0
            let date: Date = latest?["date"] ?? Date()
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone.current
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            return
                "Current \(weight) (\(c.year!)-\(c.month!)-\(c.day!) \(c.hour!):\(c.minute!)) goal \(goalWeight), \(week.count) this week"
        }
        print(line)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    var command = try Status.parseAsRoot(Array(arguments.dropFirst()))
    try command.run()
} catch {
    Floor.exit(withError: error)
}
