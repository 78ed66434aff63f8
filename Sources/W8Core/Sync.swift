/// One history on every machine a person uses: the events each machine appends to its own journal in a synced
/// folder, and the rule every machine merges them by. Pure: the wall clock's reading is passed in, and the journal's
/// lines are W8Formats' (`SyncJournalLine`).
///
/// Per entity, the event with the highest `SyncStamp` (hybrid logical clock, then device) wins, a `del` as much as
/// a `put`. The rule is a maximum, so merging is idempotent and does not depend on the order events arrive in.

/// A hybrid logical clock: wall-clock milliseconds, and a counter for events within one millisecond or behind a
/// clock read from another device. It never goes back, and it passes every clock it has read, so that an edit made
/// after reading another machine's event is ordered after it even when this machine's wall clock is behind.
public struct HybridClock: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64
    public var counter: Int64

    public init(milliseconds: Int64, counter: Int64 = 0) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    public static let zero = HybridClock(milliseconds: 0)

    public static func < (a: HybridClock, b: HybridClock) -> Bool {
        (a.milliseconds, a.counter) < (b.milliseconds, b.counter)
    }

    /// The clock of a new local event at wall-clock time `wall`: later than this one and than `wall`.
    public func tick(wall: Int64) -> HybridClock {
        wall > milliseconds
            ? HybridClock(milliseconds: wall) : HybridClock(milliseconds: milliseconds, counter: counter + 1)
    }

    /// This clock after reading `other`: it will order the next local event after both.
    public func passing(_ other: HybridClock) -> HybridClock { max(self, other) }

    public var description: String { "\(milliseconds).\(counter)" }
}

/// What orders two events of one entity: the clock, then the device id, so that no two devices tie.
public struct SyncStamp: Comparable, Hashable, Sendable {
    public var clock: HybridClock
    public var device: String

    public init(clock: HybridClock, device: String) {
        self.clock = clock
        self.device = device
    }

    public static func < (a: SyncStamp, b: SyncStamp) -> Bool {
        a.clock != b.clock ? a.clock < b.clock : a.device < b.device
    }
}

/// What an event is about. A weigh-in, a drink or meal and a day's steps are entities with stable ids, so adds on two
/// machines never conflict; the goal and each of the person's settings are registers; a claim says that a scheduled
/// notification (the weekly summary) was posted by some machine.
public enum SyncKind: String, CaseIterable, Sendable {
    case weight, intake, steps, goal, setting, claim
}

public enum SyncOperation: String, Sendable {
    case put, del
}

/// One line of a journal: a `put` carries the entity's whole state, a `del` is a tombstone.
public struct SyncEvent: Equatable, Sendable {
    public var device: String
    /// Per device, from 1, in the order the device wrote its events.
    public var sequence: Int64
    public var clock: HybridClock
    public var operation: SyncOperation
    public var kind: SyncKind
    /// The entity's stable id, the same on every machine.
    public var entity: String
    /// The entity's fields, for a `put`: text values, and whole numbers (`SyncValue`).
    public var data: [String: SyncValue]

    public init(
        device: String, sequence: Int64, clock: HybridClock, operation: SyncOperation, kind: SyncKind, entity: String,
        data: [String: SyncValue] = [:]
    ) {
        self.device = device
        self.sequence = sequence
        self.clock = clock
        self.operation = operation
        self.kind = kind
        self.entity = entity
        self.data = operation == .del ? [:] : data
    }

    /// The event's own id: its device and its sequence number, unique across every journal.
    public var id: String { "\(device).\(sequence)" }

    public var stamp: SyncStamp { SyncStamp(clock: clock, device: device) }

    /// Whether this event replaces the entity's state of stamp `current` (nil: no event of it merged yet).
    public func wins(over current: SyncStamp?) -> Bool {
        guard let current else { return true }
        return current < stamp
    }
}

/// A field of an event's data.
public enum SyncValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)

    public var text: String? {
        if case .text(let t) = self { return t }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }
}

/// The stable ids of entities: the same weigh-in or drink gets the same id on every machine that has it (as when
/// two machines imported one file), so that the two become one entry instead of two.
public enum SyncIdentity {
    /// Ten characters of base32 (50 bits) of an FNV-1a hash of `parts`.
    public static func id(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, part) in parts.enumerated() {
            if index > 0 { hash = (hash ^ 0x1f) &* 0x0000_0100_0000_01b3 }
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return base32(hash, count: 10)
    }

    /// A new device id: eight characters of base32 of `random`.
    public static func device(random: UInt64) -> String { base32(random, count: 8) }

    /// Whether `text` could be a device id (a journal directory's name): 8 characters of the lowercase base32 set.
    public static func isDevice(_ text: Substring) -> Bool {
        text.utf8.count == 8 && text.utf8.allSatisfy { alphabet.utf8.contains($0) }
    }

    static let alphabet = "abcdefghijklmnopqrstuvwxyz234567"

    static func base32(_ value: UInt64, count: Int) -> String {
        let letters = Array(alphabet.utf8)
        var value = value
        var out: [UInt8] = []
        for _ in 0..<count {
            out.append(letters[Int(value & 31)])
            value >>= 5
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The person's settings travel (the unit, the goals, the reminders' and the summary's times); the machine's stay
/// (notifications and each reminder on or off, whether this machine sends the summary, quiet hours, the status
/// bar's signal). The README's table lists both.
extension SettingKey {
    public var travels: Bool {
        switch self {
        case .unit, .weighInTime, .streakTime, .streakDays, .breakfastTime, .lunchTime, .dinnerTime,
            .hydrationInterval, .waterGoal, .beverageGoal, .mealGoal, .snackGoal, .calorieGoal, .cupSize,
            .bottleSize, .mealCalories, .snackCalories, .volumeUnit, .stepGoal, .summaryDay, .summaryHour:
            true
        case .notificationsEnabled, .notificationsMilestones, .notificationsApproaching, .notificationsIntakeGoals,
            .summaryEnabled, .weighIn, .streak, .breakfast, .lunch, .dinner, .hydration,
            .waitForPresence, .awayAfter, .quietHoursEnabled, .quietHoursStart, .quietHoursEnd, .widgetSignal:
            false
        }
    }
}
