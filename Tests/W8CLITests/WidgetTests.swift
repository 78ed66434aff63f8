import Foundation
import Testing
import W8TestHarness

/// The day this file's history is told from: the test clock's Saturday, on or before its start, so that
/// its weekday is the one the expectations were written for.
private let saturday = TestClock.daysBack(to: 7)

/// `w8 widget` in every format, run by the built binary at a fixed moment (libfaketime): golden outputs.
@Suite(.ownThread) struct WidgetTests {
    /// A frozen clock (`faketime -f` with an absolute time): the output does not depend on how long a run takes.
    static let now = "\(TestClock.day(saturday)) 12:00:00"
    static let formats = ["text", "json", "waybar", "i3blocks", "polybar"]

    /// A sandbox (Europe/Berlin) where each command of `setup` ran, then the widget's output per format.
    func widget(_ setup: [[String]]) throws -> [String: String] {
        let w8 = try W8Sandbox()
        for command in setup {
            let run = try w8.run(command)
            #expect(run.status == 0, "w8 \(command.joined(separator: " ")): \(run.stderr)")
        }
        var outputs: [String: String] = [:]
        for format in WidgetTests.formats {
            let run = try w8.run(clock: WidgetTests.now, ["widget", "--format", format])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stderr.isEmpty)
            outputs[format] = run.stdout
        }
        return outputs
    }

    /// `w8 widget --format json` at `now` with no water drunk and the default 2 L goal: `weight`, `goal` and
    /// `progress` as JSON numbers; nil, there and for `entry`, is null.
    static func json(
        weight: String?, unit: String, goal: String?, entry: String?, trend: String, progress: String?
    ) -> String {
        """
        {
          "date": "\(TestClock.day(saturday))T12:00:00+01:00",
          "current_weight": \(weight ?? "null"),
          "unit": "\(unit)",
          "goal_weight": \(goal ?? "null"),
          "entry_date": \(entry.map { "\"\($0)\"" } ?? "null"),
          "trend": "\(trend)",
          "progress_percent": \(progress ?? "null"),
          "water_ml": 0,
          "water_goal_ml": 2000
        }

        """
    }

    /// One state of the log and every format's whole output for it: `line` is text's and polybar's line, and the
    /// first of i3blocks' two (the second is `short`).
    struct Golden: Sendable, CustomTestStringConvertible {
        var name: String
        var setup: [[String]]
        var line: String
        var short: String
        var json: String
        var waybar: String

        var testDescription: String { name }
    }

    static let goldens = [
        Golden(
            name: "no entries", setup: [], line: "no weigh-ins yet", short: "no weigh-ins yet",
            json: json(weight: nil, unit: "lb", goal: nil, entry: nil, trend: "unknown", progress: nil),
            waybar:
                #"{"text":"no weigh-ins yet","tooltip":"W8Trackr: no weigh-ins yet. Log one with 'w8 add 182.4'.\nWater 0 of 2000 ml today (0%)","class":"unknown"}"#
        ),
        // No goal: no progress, and no percentage for waybar's bar.
        Golden(
            name: "one entry without goal", setup: [["add", "180", "--date", "\(TestClock.day(saturday - 1))T08:00"]],
            line: "180.0 lb", short: "180.0",
            json: json(
                weight: "180.0", unit: "lb", goal: nil, entry: "\(TestClock.day(saturday - 1))T08:00:00+01:00",
                trend: "unknown",
                progress: nil),
            waybar:
                #"{"text":"180.0 lb","tooltip":"W8Trackr: 180.0 lb on \#(TestClock.shown(saturday - 1)) 08:00\n7-day trend: not enough weigh-ins\nWater 0 of 2000 ml today (0%)","class":"unknown"}"#
        ),
        Golden(
            name: "down toward goal in pounds",
            setup: [
                ["add", "180", "--date", "\(TestClock.day(saturday - 7))T08:00"],
                ["goal", "160", "--date", "\(TestClock.day(saturday - 7))T09:00"],
                ["add", "175", "--date", "\(TestClock.day(saturday - 1))T08:00"],
            ], line: "175.0 lb ↓ 25.0%", short: "175.0 ↓",
            json: json(
                weight: "175.0", unit: "lb", goal: "160.0", entry: "\(TestClock.day(saturday - 1))T08:00:00+01:00",
                trend: "down",
                progress: "25.0"),
            waybar:
                #"{"text":"175.0 lb ↓ 25.0%","tooltip":"W8Trackr: 175.0 lb on \#(TestClock.shown(saturday - 1)) 08:00\n7-day trend: down\nGoal 160.0 lb: 25.0%\nWater 0 of 2000 ml today (0%)","class":"down","percentage":25}"#
        ),
        // The bar's percentage is capped at 0 while the text keeps the honest -20.0%.
        Golden(
            name: "up away from goal in kilograms",
            setup: [
                ["config", "unit", "kg"], ["add", "80kg", "--date", "\(TestClock.day(saturday - 6))T08:00"],
                ["goal", "75", "--date", "\(TestClock.day(saturday - 6))T09:00"],
                ["add", "81", "--date", "\(TestClock.day(saturday - 1))T08:00"],
            ], line: "81.0 kg ↑ -20.0%", short: "81.0 ↑",
            json: json(
                weight: "81.0", unit: "kg", goal: "75.0", entry: "\(TestClock.day(saturday - 1))T08:00:00+01:00",
                trend: "up",
                progress: "-20.0"),
            waybar:
                #"{"text":"81.0 kg ↑ -20.0%","tooltip":"W8Trackr: 81.0 kg on \#(TestClock.shown(saturday - 1)) 08:00\n7-day trend: up\nGoal 75.0 kg: -20.0%\nWater 0 of 2000 ml today (0%)","class":"up","percentage":0}"#
        ),
    ]

    // Every format's whole output, from an empty log to a goal on either side.
    @Test("Every format's whole output", arguments: goldens)
    func everyFormatsOutput(_ golden: Golden) throws {
        let out = try widget(golden.setup)
        #expect(out["text"] == golden.line + "\n")
        #expect(out["json"] == golden.json)
        #expect(out["waybar"] == golden.waybar + "\n")
        #expect(out["i3blocks"] == "\(golden.line)\n\(golden.short)\n")
        #expect(out["polybar"] == golden.line + "\n")
    }

    @Test func stableUnderHalfAUnit() throws {
        let out = try widget([
            ["add", "180", "--date", "\(TestClock.day(saturday - 6))T08:00"],
            ["add", "180.3", "--date", "\(TestClock.day(saturday - 1))T08:00"],
        ])
        #expect(out["text"] == "180.3 lb →\n")
        #expect(
            out["waybar"]
                == #"{"text":"180.3 lb →","tooltip":"W8Trackr: 180.3 lb on \#(TestClock.shown(saturday - 1)) 08:00\n7-day trend: stable\nWater 0 of 2000 ml today (0%)","class":"stable"}"#
                + "\n")
        #expect(out["i3blocks"] == "180.3 lb →\n180.3 →\n")
    }

    @Test func pastGoalCapsTheBarAt100() throws {
        let out = try widget([
            ["add", "180", "--date", "\(TestClock.day(saturday - 7))T08:00"],
            ["goal", "170", "--date", "\(TestClock.day(saturday - 7))T09:00"],
            ["add", "168", "--date", "\(TestClock.day(saturday - 1))T08:00"],
        ])
        #expect(out["text"] == "168.0 lb ↓ 120.0%\n")
        #expect(out["waybar"]?.contains(#""percentage":100}"#) == true)
    }

    /// Today's water, from the intake log: in the JSON and as the tooltip's last line; yesterday's does not count.
    @Test func waterToday() throws {
        let out = try widget([
            ["add", "180", "--date", "\(TestClock.day(saturday - 1))T08:00"],
            ["drink", "500", "--date", "\(TestClock.day(saturday))T09:00"],
            ["drink", "cup", "--date", "\(TestClock.day(saturday))T11:30"],
            ["drink", "1l", "--date", "\(TestClock.day(saturday - 1))T20:00"],
        ])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data((out["json"] ?? "").utf8)) as? [String: Any])
        #expect(json["water_ml"] as? Int == 750)
        #expect(json["water_goal_ml"] as? Int == 2000)
        #expect(
            out["waybar"]
                == #"{"text":"180.0 lb","tooltip":"W8Trackr: 180.0 lb on \#(TestClock.shown(saturday - 1)) 08:00\n7-day trend: not enough weigh-ins\nWater 750 of 2000 ml today (37%)","class":"unknown"}"#
                + "\n")
        #expect(out["text"] == "180.0 lb\n", "the one-line formats are unchanged")
    }

    /// Without a water goal the JSON's goal is null, and a day without water has no water line.
    @Test func noWaterGoal() throws {
        let out = try widget([["config", "intake.water_goal_ml", "0"]])
        #expect(out["json"]?.contains(#""water_ml": 0,"#) == true)
        #expect(out["json"]?.contains(#""water_goal_ml": null"#) == true)
        #expect(
            out["waybar"]
                == #"{"text":"no weigh-ins yet","tooltip":"W8Trackr: no weigh-ins yet. Log one with 'w8 add 182.4'.","class":"unknown"}"#
                + "\n")
    }

    @Test func badFormatIsAUsageError() throws {
        let w8 = try W8Sandbox()
        let run = try w8.run("widget", "--format", "xml")
        #expect(run.status == 64)
        #expect(run.stderr.contains("'xml'"))
        #expect(run.stdout.isEmpty)
    }

    /// `widget.signal = N` makes every change send SIGRTMIN+N to the person's waybar, which re-runs the module:
    /// the real waybar, in a headless sway, as the README configures it. Reads and refused input change nothing.
    @Test func changesRefreshTheRealWaybar() throws {
        let desktop = try WaybarSession()
        defer { desktop.stop() }
        let w8 = try W8Sandbox(bus: desktop.bus)
        try #require(try w8.run("add", "180", "--date", "\(TestClock.day(saturday - 7))T08:00").status == 0)
        try #require(try w8.run("goal", "160", "--date", "\(TestClock.day(saturday - 7))T09:00").status == 0)
        try desktop.start(for: w8, signal: 8)
        #expect(desktop.runs.last?.contains(#""text":"180.0 lb 0.0%""#) == true, "\(desktop.runs)")
        let before = try desktop.screenshotShowingBar(
            to: screenshotDirectory.appendingPathComponent("waybar-before.png"), textColour: WaybarSession.plainText)
        #expect(try before.pixels(near: WaybarSession.plainText, fuzzPercent: 10, region: desktop.barRegion) >= 20)

        // Off by default: a change does not reach the bar. Proven by the next change that does: waybar re-runs the
        // module once per signal, in order, so had this add signalled, the run for 175 would be the third.
        try w8.run("add", "179", "--date", "\(TestClock.day(saturday - 6))T08:00")

        #expect(try w8.run("config", "widget.signal", "8").status == 0)
        let added = try w8.run("add", "175")
        #expect(added.status == 0)
        #expect(desktop.waitForRuns(2, timeout: 5), "waybar did not re-run the module: \(desktop.runs)\n\(desktop.log)")
        #expect(desktop.runs.count == 2, "widget.signal is off by default: \(desktop.runs)")
        #expect(desktop.runs.last?.contains(#""text":"175.0 lb ↓ 25.0%""#) == true, "\(desktop.runs)")
        #expect(desktop.runs.last?.contains(#""class":"down""#) == true)
        let after = try desktop.screenshotShowingBar(
            to: screenshotDirectory.appendingPathComponent("waybar-after.png"), textColour: WaybarSession.downText)
        #expect(try after.pixels(near: WaybarSession.downText, fuzzPercent: 10, region: desktop.barRegion) >= 20)
        #expect(try after.differingPixels(from: before, region: desktop.barRegion) > 100)

        // Every other change refreshes it too, once each.
        for (index, command) in [
            ["goal", "150"], ["edit", "1", "--weight", "181"], ["rm", "1"], ["goal", "--clear"],
        ]
        .enumerated() {
            #expect(try w8.run(command).status == 0)
            #expect(desktop.waitForRuns(3 + index, timeout: 5), "w8 \(command.joined(separator: " ")): \(desktop.runs)")
        }
        try w8.run("status")
        try w8.run("widget")
        let bad = try w8.run("add", "-5")
        #expect(bad.status == 65)
        // Proven by a change after them: its run is the seventh, not a later one, and shows it.
        #expect(try w8.run("add", "174").status == 0)
        #expect(desktop.waitForRuns(7, timeout: 5), "w8 add 174: \(desktop.runs)")
        #expect(desktop.runs.count == 7, "reads and refused input change nothing: \(desktop.runs)")
        #expect(desktop.runs.last?.contains(#""text":"174.0 lb"#) == true, "\(desktop.runs)")
    }
}
