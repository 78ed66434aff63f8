import Foundation
import Testing
import W8TestHarness

#if canImport(Glibc)
    import Glibc
#endif

/// The day the zone-change test is told from: the test clock's Monday, on or before its start (Los Angeles and New
/// York keep standard time then, on the default clock and on the moved one).
private let monday = TestClock.daysBack(to: 2)

/// One occurrence the daemon must send once, and the UTC window its claim must fall in: from the documented
/// instant to 20 minutes after it (a repeated hour's second pass, an hour later, or 02:30 read as 03:30 on the
/// spring-forward day, 30 minutes after 03:00, fall outside). At 720 times faster, 20 minutes are 1.7 real seconds.
struct ExpectedFire: Sendable {
    var key: String
    /// `YYYY-MM-DD HH:MM:SS` in UTC, as the store writes `claimed_at`.
    var utc: String

    /// The end of the window, 20 minutes after `utc`.
    var utcLimit: String {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return parser.string(from: parser.date(from: utc)!.addingTimeInterval(20 * 60))
    }
}

/// A daylight-saving day run through the real daemon from local midnight, the clock 720 times faster.
struct DaylightSavingDay: Sendable, CustomTestStringConvertible {
    var name: String
    var zone: String
    var start: String
    var config: [(String, String)]
    var expected: [ExpectedFire]

    var testDescription: String { name }

    /// A day in New York from local midnight with the summary at `summary` and the weigh-in at `weighIn` (local
    /// HH:MM, the summary on the hour), lunch at 13:30 and dinner at 23:45: each fires at the UTC instant given
    /// with it.
    static func newYork(
        _ name: String, _ date: String, summary: (local: String, utc: String), weighIn: (local: String, utc: String),
        lunchUTC: String, dinnerUTC: String
    ) -> DaylightSavingDay {
        DaylightSavingDay(
            name: name, zone: "America/New_York", start: "\(date) 00:00:00",
            config: [
                ("summary.hour", String(Int(summary.local.prefix(2))!)), ("reminders.weigh_in_time", weighIn.local),
            ],
            expected: [
                ("summary", summary.local, summary.utc), ("weigh-in", weighIn.local, weighIn.utc),
                ("lunch", "13:30", lunchUTC), ("dinner", "23:45", dinnerUTC),
            ].map { ExpectedFire(key: "\($0.0)@\(date)T\($0.1)", utc: $0.2) })
    }

    /// The day of New York's first change of the clocks after the test clock's start that goes forward (or back),
    /// and the day after it, as `YYYY-MM-DD`: 2027-03-14 and 2027-11-07 on the default clock, 2028-03-12 and
    /// 2028-11-05 on the moved one.
    static func newYorkChange(forward: Bool) -> (day: String, next: String) {
        let zone = TimeZone(identifier: "America/New_York")!
        var after = TestClock.start
        while let change = zone.nextDaylightSavingTimeTransition(after: after) {
            after = change
            guard zone.isDaylightSavingTime(for: change) == forward else { continue }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd"
            return (formatter.string(from: change), formatter.string(from: change.addingTimeInterval(86400)))
        }
        fatalError("New York has no change of the clocks after \(TestClock.start)")
    }

    /// New York, the Sunday its clocks spring forward: 02:00 EST jumps to 03:00 EDT. The summary (02:00) and the
    /// weigh-in (02:30), times that do not exist, fire at 03:00 EDT (07:00 UTC), the first valid time after them.
    static let springForward: DaylightSavingDay = {
        let (day, next) = newYorkChange(forward: true)
        return newYork(
            "spring forward", day, summary: ("02:00", "\(day) 07:00:00"), weighIn: ("02:30", "\(day) 07:00:00"),
            lunchUTC: "\(day) 17:30:00", dinnerUTC: "\(next) 03:45:00")
    }()

    /// New York, the Sunday its clocks fall back: 02:00 EDT falls back to 01:00 EST, so 01:00 and 01:30 come twice.
    /// They fire once, on the first pass (EDT, UTC−4).
    static let fallBack: DaylightSavingDay = {
        let (day, next) = newYorkChange(forward: false)
        return newYork(
            "fall back", day, summary: ("01:00", "\(day) 05:00:00"), weighIn: ("01:30", "\(day) 05:30:00"),
            lunchUTC: "\(day) 18:30:00", dinnerUTC: "\(next) 04:45:00")
    }()
}

/// The claims in the sandbox's store: occurrence, `claimed_at` (UTC) and whether it was sent.
func claims(_ w8: W8Sandbox) throws -> [(key: String, claimedAt: String, sent: Bool)] {
    let run = try W8Sandbox.running(
        w8,
        through: [
            "sqlite3", "-separator", "|", w8.databasePath,
            "SELECT occurrence, claimed_at, sent FROM schedule_claim ORDER BY claimed_at",
        ])
    try #require(run.status == 0, "sqlite3: \(run.stderr)")
    return run.stdout.split(separator: "\n").map { line in
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        return (fields[0], fields[1], fields.count > 2 && fields[2] == "1")
    }
}

/// Checks that each expected occurrence was claimed and sent once, inside its window, and nothing else was.
func expectFiredOnce(_ w8: W8Sandbox, _ expected: [ExpectedFire], log: String) throws {
    let claimed = try claims(w8)
    #expect(claimed.map(\.key).sorted() == expected.map(\.key).sorted(), "claims: \(claimed); log:\n\(log)")
    for fire in expected {
        let claim = claimed.first { $0.key == fire.key }
        #expect(claim?.sent == true, "\(fire.key) not sent; log:\n\(log)")
        let at = claim?.claimedAt ?? ""
        #expect(
            at >= fire.utc && at < fire.utcLimit, "\(fire.key) claimed at \(at) UTC, due \(fire.utc) UTC; log:\n\(log)")
        #expect(log.components(separatedBy: "\(fire.key): sent").count == 2, "\(fire.key) twice? log:\n\(log)")
    }
    #expect(!log.contains("already sent"), "a second attempt; log:\n\(log)")
}

/// The daemon through whole days when the clocks change, and through a change of time zone, under faketime with
/// a real dunst.
@Suite(.ownThread) struct CLIDaemonTimeTests {
    static let everyEvent = [
        ("quiet_hours.enabled", "false"), ("reminders.weigh_in", "true"), ("reminders.lunch", "true"),
        ("reminders.dinner", "true"), ("reminders.dinner_time", "23:45"),
    ]

    // Each reminder and the summary fire exactly once, at the documented local time, from 00:00 to 23:45.
    @Test(arguments: [DaylightSavingDay.springForward, .fallBack])
    func wholeDaylightSavingDay(_ day: DaylightSavingDay) throws {
        let dunst = try DunstSession()
        defer { dunst.stop() }
        let w8 = try W8Sandbox(bus: dunst.bus, timeZone: day.zone)
        for (key, value) in Self.everyEvent + day.config {
            try #require(try w8.run("config", key, value).status == 0)
        }
        // 720 times faster: the day takes two minutes, and an hour of fake time is five real seconds.
        let daemon = try DaemonProcess(w8, fakeStart: day.start + " x720")
        defer { daemon.stop() }
        try daemon.waitForLog("\(day.expected.last!.key): sent", timeout: 240)
        #expect(daemon.stop() == 0)
        try expectFiredOnce(w8, day.expected, log: daemon.log)
    }

    /// Runs as root only: `unshare -m` and `mount` need CAP_SYS_ADMIN.
    static let isRoot = getuid() == 0

    // The zone changes under the running daemon: another /etc/localtime appears in its private mount namespace
    // (an overlay on /etc whose localtime points elsewhere). The weigh-in planned for 07:30 in New York fires at
    // 07:30 in Los Angeles, three hours later.
    @Test(.enabled(if: isRoot, "needs root for unshare -m and mount (CI runs as root)"))
    func timeZoneChangeWhileRunning() throws {
        let dunst = try DunstSession()
        defer { dunst.stop() }
        let w8 = try W8Sandbox(bus: dunst.bus)
        w8.environment["TZ"] = nil  // the zone comes from /etc/localtime
        for (key, value) in [("quiet_hours.enabled", "false"), ("reminders.weigh_in", "true")] {
            try #require(try w8.run("config", key, value).status == 0)
        }
        try #require(try w8.run("config", "summary.enabled", "false").status == 0)
        // Two upper layers for /etc: each holds only a localtime link.
        let layers = w8.root.appendingPathComponent("etc-layers")
        for zone in ["America/New_York", "America/Los_Angeles"] {
            let name = zone.replacingOccurrences(of: "/", with: "_")
            for part in ["upper", "work"] {
                try FileManager.default.createDirectory(
                    at: layers.appendingPathComponent("\(name)/\(part)"), withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(
                atPath: layers.appendingPathComponent("\(name)/upper/localtime").path,
                withDestinationPath: "/usr/share/zoneinfo/\(zone)")
        }
        func overlay(_ name: String) -> String {
            let layer = layers.appendingPathComponent(name).path
            return "mount -t overlay overlay -o lowerdir=/etc,upperdir=\(layer)/upper,workdir=\(layer)/work /etc"
        }
        // New York from the start, in a namespace of the daemon's own; 06:00 there is 11:00 UTC. 360 times
        // faster: 07:30 in New York (12:30 UTC) is 15 real seconds away, 07:30 in Los Angeles 45.
        let daemon = try DaemonProcess(
            w8, fakeStart: "\(TestClock.day(monday)) 06:00:00 x360",
            wrapper: [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                "\(overlay("America_New_York")) && exec \"$@\"", "sh",
            ])
        defer { daemon.stop() }
        try daemon.waitForLog("started; next: weigh-in@\(TestClock.day(monday))T07:30", timeout: 10)
        let mount = try W8Sandbox.running(
            w8,
            through: [
                "nsenter", "--target", "\(daemon.processIdentifier)", "--mount", "--", "sh", "-c",
                overlay("America_Los_Angeles"),
            ])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        try daemon.waitForLog("weigh-in@\(TestClock.day(monday))T07:30: sent", timeout: 120)
        #expect(daemon.stop() == 0)
        try expectFiredOnce(
            w8,
            [ExpectedFire(key: "weigh-in@\(TestClock.day(monday))T07:30", utc: "\(TestClock.day(monday)) 15:30:00")],
            log: daemon.log)
    }
}
