import Foundation

/// The wall clock of every `w8` a test starts: never the day the suite happens to run.
///
/// Each child runs with libfaketime preloaded and `FAKETIME` set to the offset between the real clock and
/// `start`, taken once per test process: every `w8` of the run reads `start` plus the real seconds since the
/// process began, so the children agree with each other and with `now` here, and time still moves forward from one
/// command to the next. A test derives what it expects (the days it logs, the week a summary covers, the moment a
/// reminder is due) from `start` and `now`, never from `Date()`.
///
/// `start` is 2026-12-01 12:00 in the pinned zone (a Tuesday) unless `W8_TEST_CLOCK` names another moment as
/// `YYYY-MM-DD HH:MM:SS`, local to `pinnedTimeZone`. CI runs the suites that start `w8` twice: once on the
/// default, once with `W8_TEST_CLOCK="2028-02-29 12:00:00"`, a leap day more than a year ahead and also a Tuesday,
/// so that a test tied to the weekday holds on both (`make test-clock-moved`). `W8_TEST_CLOCK=real` leaves the
/// clock alone, for the sanitizers' runs, whose instrumented `w8` deadlocks under libfaketime's preload: there
/// `start` is the real time, and the tests that derive their days from it pass on any day.
public enum TestClock {
    /// The default moment, local to `pinnedTimeZone`: a Tuesday.
    public static let defaultStart = "2026-12-01 12:00:00"

    /// What `W8_TEST_CLOCK` said, or the default.
    public static let setting: String = ProcessInfo.processInfo.environment["W8_TEST_CLOCK"] ?? defaultStart

    /// Whether the children run on the real clock (`W8_TEST_CLOCK=real`).
    public static var isReal: Bool { setting == "real" }

    /// The real moment this process took the clock's offset.
    private static let realStart = Date()

    /// The moment the children's clock stood at when this process began.
    public static let start: Date = {
        if isReal { return realStart }
        guard let date = parse(setting) else {
            fatalError("W8_TEST_CLOCK is '\(setting)', not YYYY-MM-DD HH:MM:SS (local to \(pinnedTimeZone)) or real")
        }
        return date
    }()

    /// What the children's clock says now.
    public static var now: Date { start.addingTimeInterval(Date().timeIntervalSince(realStart)) }

    /// The Gregorian calendar of the children's pinned zone.
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: pinnedTimeZone)!
        return calendar
    }()

    /// Seconds from the real clock to the children's, whole.
    public static var offset: Int { Int(start.timeIntervalSince(realStart).rounded()) }

    /// The environment that puts a child on this clock: libfaketime with the offset. The monotonic clocks stay real:
    /// libfaketime's `timerfd_settime` reads an absolute monotonic deadline as a wall-clock one, and Dispatch's
    /// timers then never fired. Files keep their real times (`NO_FAKE_STAT`): libfaketime moved each time it
    /// reported by the offset as it read it then, a nanosecond off now and again, and the integrity stamp, which
    /// records the files' times to the nanosecond, no longer matched the files it described. Empty on the real clock.
    public static func environment() throws -> [String: String] {
        if isReal { return [:] }
        var environment = try W8Sandbox.fakeClock(String(format: "%+ld", offset))
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        environment["NO_FAKE_STAT"] = "1"
        return environment
    }

    /// The variables `environment()` sets, for the one test that must run `w8` without the preload.
    public static let preloadVariables = ["LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "NO_FAKE_STAT"]

    /// The local day `days` after start's (before, when negative), as `--date` takes it: `YYYY-MM-DD`.
    public static func day(_ days: Int) -> String {
        format(date(days, "12:00"), "yyyy-MM-dd")
    }

    /// The local day `days` after start's as w8 shows a day in English: `Tue 1 Dec 2026`.
    public static func shown(_ days: Int) -> String {
        format(date(days, "12:00"), "EEE d MMM yyyy")
    }

    /// The local moment at `time` (`HH:MM` or `HH:MM:SS`) on the day `days` after start's, as `--date` takes it:
    /// `YYYY-MM-DDTHH:MM`.
    public static func moment(_ days: Int, _ time: String) -> String {
        format(date(days, time), "yyyy-MM-dd'T'HH:mm")
    }

    /// The local moment at `time` on the day `days` after start's, as libfaketime and `DaemonProcess` take a start:
    /// `YYYY-MM-DD HH:MM:SS`.
    public static func clock(_ days: Int, _ time: String) -> String {
        format(date(days, time), "yyyy-MM-dd HH:mm:ss")
    }

    /// The moment at local `time` on the day `days` after start's. A time that does not exist that day (a spring
    /// forward) is taken as the calendar does, past the gap.
    public static func date(_ days: Int, _ time: String) -> Date {
        let parts = time.split(separator: ":").map { Int($0)! }
        let day = calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: start))!
        return calendar.date(
            bySettingHour: parts[0], minute: parts[1], second: parts.count > 2 ? parts[2] : 0, of: day)!
    }

    /// The weekday of the day `days` after start's, 1 for Sunday to 7 for Saturday, as the calendar counts.
    public static func weekday(_ days: Int) -> Int {
        calendar.component(.weekday, from: date(days, "12:00"))
    }

    /// Days from start's day to the nearest day on or before it that is `weekday` (1 Sunday ... 7 Saturday): 0 or
    /// negative.
    public static func daysBack(to weekday: Int) -> Int {
        -((self.weekday(0) - weekday + 7) % 7)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)
    }

    static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
