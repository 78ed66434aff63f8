import Foundation
import W8Core
import W8Text

/// Reads Apple Health's `export.xml` ("Export All Health Data") as its bytes arrive, in constant memory but for a
/// compact 16 bytes per step or distance sample: the top-level `Record`s of `HealthData` whose type w8 keeps.
///
/// - `HKQuantityTypeIdentifierBodyMass` (lb, kg, g) becomes a weigh-in; `BodyFatPercentage` (`%`, a fraction)
///   is the body fat of the weigh-in with the same `startDate`, and is skipped with a reason when there is none.
/// - `StepCount` and `DistanceWalkingRunning` (mi, km, m, ft, yd) become days of steps and whole metres, each
///   stretch of time counted once: per local day, the Apple Watch's samples whole, then the iPhone's, then other
///   apps', each lower one only for the fraction of its time no higher sample covers (prorated by time).
/// - `DietaryWater` (mL, L, fl_oz_us, cup_us) becomes water; `DietaryEnergyConsumed` (kcal, Cal, kJ) calories.
///
/// `Record`s inside a `Correlation` repeat top-level ones (the export's DTD says so) and are not read, nor are
/// workouts, activity summaries and every other type. Exact duplicate records are dropped. A kept record with a
/// bad value, unit or date is a bad row whose `line` is the record's 1-based position among the top-level records.
public struct AppleHealthStream {
    public static let source = ActivitySource(rawValue: "apple-health")

    enum Kind: UInt8 { case bodyMass, bodyFat, steps, distance, water, energy }
    static let types: [String: Kind] = [
        "HKQuantityTypeIdentifierBodyMass": .bodyMass, "HKQuantityTypeIdentifierBodyFatPercentage": .bodyFat,
        "HKQuantityTypeIdentifierStepCount": .steps, "HKQuantityTypeIdentifierDistanceWalkingRunning": .distance,
        "HKQuantityTypeIdentifierDietaryWater": .water, "HKQuantityTypeIdentifierDietaryEnergyConsumed": .energy,
    ]
    static let typeLengths = Set(types.keys.map(\.utf8.count))
    /// Seconds from 1970 to 2001-01-01, the origin of the compact samples' Int32 seconds.
    static let origin: Int64 = 978_307_200

    /// A step or distance sample, kept compactly until the end.
    struct Sample {
        var start: Int32
        var end: Int32
        var value: Float32
        var source: UInt16
        var kind: UInt8
    }

    /// A weigh-in, or a body fat waiting for its weigh-in, with what makes it a duplicate.
    struct Measure: Hashable {
        var kind: Kind
        var source: UInt16
        var start: Int64
        var end: Int64
        var value: Double
    }

    private let options: ImportOptions
    private var scanner = HealthXMLScanner()
    private var records = 0
    private var samples: [Sample] = []
    /// Source names by index, and each one's rank: 0 Apple Watch, 1 iPhone, 2 another app.
    public private(set) var sources: [String] = []
    private var ranks: [UInt8] = []
    private var sourceIndex: [String: UInt16] = [:]
    private var weights: [Measure: (line: Int, weight: Weight)] = [:]
    private var fats: [Measure: Int] = [:]
    private var seenIntake: Set<Measure> = []
    /// Exact duplicate records dropped.
    public private(set) var duplicates = 0
    /// Per source name, the days whose steps came first from it.
    public private(set) var daysLedBy: [String: Int] = [:]

    public init(options: ImportOptions) {
        self.options = options
    }

    public var formatName: String { "Apple Health export" }

    /// The rows completed by `bytes`: drinks, calories and bad records. Weigh-ins and days come from `finish`.
    public mutating func feed(_ bytes: [UInt8]) throws -> [ImportRow] {
        var rows: [ImportRow] = []
        var scanner = self.scanner
        do {
            try scanner.feed(bytes) { depth, name, attributes in
                if depth == 0 {
                    guard name.elementsEqual("HealthData".utf8) else {
                        throw W8FormatsError.documentInvalid(
                            .appleHealth,
                            tr(
                                // TRANSLATORS: {element} and {root} are XML element names; {root} is HealthData.
                                "its root element is {element}, not {root}",
                                ["element": String(decoding: name, as: UTF8.self), "root": "HealthData"])
                        )
                    }
                    return
                }
                guard depth == 1, name.elementsEqual("Record".utf8) else { return }
                records += 1
                if let row = try record(attributes) { rows.append(row) }
            }
        } catch let error as HealthXMLScanner.Malformed {
            self.scanner = scanner
            throw W8FormatsError.documentInvalid(
                // TRANSLATORS: {reason} says what is wrong, as "an attribute value is not quoted".
                .appleHealth, tr("it is not well-formed XML: {reason}", ["reason": error.reason]))
        }
        self.scanner = scanner
        return rows
    }

    /// Checks the document ended whole; the weigh-ins (with their body fat), the body fats without one, and the
    /// days of steps.
    public mutating func finish() throws -> [ImportRow] {
        do { try scanner.finish() } catch let error as HealthXMLScanner.Malformed {
            throw W8FormatsError.documentInvalid(.appleHealth, error.reason)
        }
        guard scanner.root == "HealthData" else {
            throw W8FormatsError.documentInvalid(
                // TRANSLATORS: {root} is an XML element name, HealthData.
                .appleHealth, tr("its root element is not {root}", ["root": "HealthData"]))
        }
        var rows: [ImportRow] = []
        var fatAt: [Int64: (Double, Int)] = [:]
        for (fat, line) in fats.sorted(by: { $0.value < $1.value }) where fatAt[fat.start] == nil {
            fatAt[fat.start] = (fat.value, line)
        }
        var used: Set<Int64> = []
        for (key, (line, weight)) in weights.sorted(by: { $0.value.line < $1.value.line }) {
            var entry = WeightEntry(weight: weight, date: Date(timeIntervalSince1970: TimeInterval(key.start)))
            if let (fat, fatLine) = fatAt[key.start] {
                used.insert(key.start)
                do {
                    entry.bodyFatPercent = try WeightInput.bodyFat(Self.text(fat * 100))
                } catch {
                    rows.append(.invalid(line: fatLine, reason: error.localizedDescription))
                }
            }
            rows.append(.entry(line: line, entry))
        }
        for (start, (_, line)) in fatAt.sorted(by: { $0.value.1 < $1.value.1 }) where !used.contains(start) {
            rows.append(.skipped(line: line, .bodyFatWithoutWeight))
        }
        rows += days()
        samples = []
        return rows
    }

    /// A number as w8's inputs read it: no exponent.
    static func text(_ value: Double) -> String { String(format: "%.6f", value) }

    private mutating func source(_ name: String, device: UnsafeBufferPointer<UInt8>?) -> UInt16 {
        let deviceText = device.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let rank: UInt8 =
            deviceText.contains("model:Watch") || deviceText.contains("name:Apple Watch") || name.contains("Watch")
            ? 0 : deviceText.contains("model:iPhone") ? 1 : 2
        let key = "\(rank)\u{0}\(name)"
        if let index = sourceIndex[key] { return index }
        let index = UInt16(min(sources.count, Int(UInt16.max - 1)))
        sourceIndex[key] = index
        sources.append(name)
        ranks.append(rank)
        return index
    }

    /// The row a kept record makes now (a drink, calories, or why it is bad), nil when it waits for the end.
    private mutating func record(_ attributes: UnsafeBufferPointer<UInt8>) throws -> ImportRow? {
        // Most records are of types w8 does not keep (heart rate, energy burned): their type, Apple's first
        // attribute, is looked at first, and a String made only when its length is a kept type's.
        var type: UnsafeBufferPointer<UInt8>?
        try HealthXMLScanner.attributes(attributes) { name, value in
            guard name.elementsEqual("type".utf8) else { return true }
            type = value
            return false
        }
        guard let type else { return nil }
        // A type written with character references (`Body&#77;ass`) is the same type to XML: decoded, then matched.
        let kind: Kind
        if type.contains(UInt8(ascii: "&")) {
            guard let decoded = HealthXMLScanner.decode(type), let found = Self.types[decoded] else { return nil }
            kind = found
        } else {
            guard Self.typeLengths.contains(type.count), let found = Self.types[String(decoding: type, as: UTF8.self)]
            else { return nil }
            kind = found
        }
        var values: [String: UnsafeBufferPointer<UInt8>] = [:]
        try HealthXMLScanner.attributes(attributes) { name, value in
            values[String(decoding: name, as: UTF8.self)] = value
            return true
        }
        let line = records
        func text(_ key: String) -> String? { values[key].flatMap(HealthXMLScanner.decode) }
        do {
            guard let startText = text("startDate") else { throw W8FormatsError.importFieldMissing("startDate") }
            guard let endText = text("endDate") else { throw W8FormatsError.importFieldMissing("endDate") }
            let start = try Self.instant(startText, now: options.now)
            let end = try Self.instant(endText, now: options.now)
            guard end >= start else {
                throw W8FormatsError.appleHealthValue(
                    // TRANSLATORS: {end} and {start} are attributes of an Apple Health record (endDate, startDate); {value}
                    // is the end, as 2019-03-09 08:47:05 +0100.
                    tr("{end} {value} is before {start}", ["end": "endDate", "value": endText, "start": "startDate"]))
            }
            guard let valueText = text("value") else { throw W8FormatsError.importFieldMissing("value") }
            guard let value = Double(valueText), value.isFinite, value >= 0 else {
                throw W8FormatsError.appleHealthValue(
                    tr(
                        // TRANSLATORS: {attribute} is an attribute of an Apple Health record (value), {value} what it holds.
                        "{attribute} '{value}' is not a number of 0 or more",
                        ["attribute": "value", "value": valueText]))
            }
            let unit = text("unit") ?? ""
            let sourceName = text("sourceName") ?? ""
            let source = source(sourceName, device: values["device"])
            switch kind {
            case .bodyMass:
                let weight = try Self.weight(value, unit: unit)
                let key = Measure(kind: kind, source: source, start: start, end: end, value: value)
                guard weights[key] == nil else {
                    duplicates += 1
                    return nil
                }
                weights[key] = (line, weight)
            case .bodyFat:
                guard unit == "%" else { throw W8FormatsError.appleHealthUnit(unit, "%") }
                let key = Measure(kind: kind, source: source, start: start, end: end, value: value)
                guard fats[key] == nil else {
                    duplicates += 1
                    return nil
                }
                fats[key] = line
            case .steps, .distance:
                let amount: Double
                if kind == .steps {
                    guard unit == "count" else { throw W8FormatsError.appleHealthUnit(unit, "count") }
                    amount = value
                } else {
                    guard let metres = Self.metres[unit] else {
                        throw W8FormatsError.appleHealthUnit(unit, Self.orList(["mi", "km", "m", "ft", "yd"]))
                    }
                    amount = value * metres
                }
                // One sample larger than a day's most (steps, or metres at the same bound) is no walk; the day's
                // total then stays an Int however many samples it sums.
                guard amount <= Double(ActivityDay.maxSteps) * 10 else {
                    throw W8FormatsError.appleHealthValue(
                        // TRANSLATORS: {attribute} is an attribute of an Apple Health record (value), {value} what it holds.
                        tr("{attribute} {value} is out of range", ["attribute": "value", "value": valueText]))
                }
                guard start - Self.origin > Int64(Int32.min), end - Self.origin < Int64(Int32.max) else {
                    throw W8FormatsError.appleHealthValue(
                        // TRANSLATORS: {attribute} is an attribute of an Apple Health record (startDate), {value} its date.
                        tr("{attribute} {value} is out of range", ["attribute": "startDate", "value": startText]))
                }
                samples.append(
                    Sample(
                        start: Int32(start - Self.origin), end: Int32(end - Self.origin), value: Float32(amount),
                        source: source, kind: kind.rawValue))
            case .water, .energy:
                let key = Measure(kind: kind, source: source, start: start, end: end, value: value)
                guard seenIntake.insert(key).inserted else {
                    duplicates += 1
                    return nil
                }
                let date = Date(timeIntervalSince1970: TimeInterval(start))
                if kind == .water {
                    let volume = try Self.whole(
                        value, valueText, unit, Self.millilitres, .water, limit: IntakeSettings.maxDrink)
                    return .intake(line: line, IntakeEvent(kind: .water, date: date, volume: volume))
                }
                let calories = try Self.whole(
                    value, valueText, unit, Self.kilocalories, .calories, limit: IntakeSettings.maxCalories)
                return .intake(line: line, IntakeEvent(kind: .calories, date: date, calories: calories))
            }
            return nil
        } catch let error as W8FormatsError {
            return .invalid(line: line, reason: error.localizedDescription)
        } catch let error as W8CoreError {
            return .invalid(line: line, reason: error.localizedDescription)
        }
    }

    /// `value` in `unit` as a whole number of the unit `units` converts to, from 1 to `limit`.
    static func whole(
        _ value: Double, _ text: String, _ unit: String, _ units: KeyValuePairs<String, Double>, _ kind: IntakeKind,
        limit: Int
    ) throws -> Int {
        guard let factor = units.first(where: { $0.key == unit })?.value else {
            throw W8FormatsError.appleHealthUnit(unit, orList(units.map(\.key)))
        }
        let scaled = (value * factor).rounded()
        // Compared as a Double first: 1e300 mL is no Int.
        guard scaled >= 1, scaled <= Double(limit) else {
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "value": text, "unit": unit, "amount": scaled < 1e15 ? String(Int(scaled)) : "\(scaled)",
                "limit": limit,
            ]
            throw W8FormatsError.appleHealthValue(
                kind == .water
                    // TRANSLATORS: why an Apple Health record is not imported. {value} and {unit} are the record's, as
                    // "5000 mL"; {amount} the same in ml; {limit} the most w8 keeps. "ml" and "kcal" are units.
                    ? tr("water {value} {unit} is {amount} ml, not 1–{limit}", values)
                    // TRANSLATORS: as the water message, for calories: {amount} in kcal.
                    : tr("energy {value} {unit} is {amount} kcal, not 1–{limit}", values))
        }
        return Int(scaled)
    }

    /// Unit names as a list people read: "mL, L, fl_oz_us or cup_us".
    static func orList(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        // TRANSLATORS: the end of a list of unit names; {names} are all but the last, with commas, {last} the last.
        return tr("{names} or {last}", ["names": names.dropLast().joined(separator: ", "), "last": names.last!])
    }

    static let metres: [String: Double] = ["m": 1, "km": 1000, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144]
    static let millilitres: KeyValuePairs<String, Double> = [
        "mL": 1, "L": 1000, "fl_oz_us": VolumeUnit.millilitresPerUSFluidOunce, "cup_us": 236.5882365,
    ]
    static let kilocalories: KeyValuePairs<String, Double> = ["kcal": 1, "Cal": 1, "kJ": 1 / 4.184]

    /// A weight in lb or kg, checked as `w8 add` checks one; grams become kg. (Stones are not read: no source
    /// for their unit string was found.)
    static func weight(_ value: Double, unit: String) throws -> Weight {
        let (amount, weightUnit): (Double, WeightUnit)
        switch unit {
        case "kg": (amount, weightUnit) = (value, .kg)
        case "lb": (amount, weightUnit) = (value, .lb)
        case "g": (amount, weightUnit) = (value / 1000, .kg)
        default: throw W8FormatsError.appleHealthUnit(unit, orList(["lb", "kg", "g"]))
        }
        let checked = try WeightInput.weight(text(amount), unit: weightUnit, defaultUnit: weightUnit)
        return Weight(amount, checked.unit)
    }

    /// `2019-03-09 08:47:05 +0100`, each date with its own offset, as seconds since 1970; not before 1900 and not
    /// in the future.
    static func instant(_ text: String, now: Date) throws -> Int64 {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            var n = 0
            for i in from..<(from + count) {
                guard i < b.count, (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count == 25, b[4] == 45, b[7] == 45, b[10] == 32, b[13] == 58, b[16] == 58, b[19] == 32,
            b[20] == 43 || b[20] == 45, let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2), (1...12).contains(month),
            hour < 24, minute < 60, second < 60, offsetHours < 24, offsetMinutes < 60,
            CalendarDay(year: year, month: month, day: day) != nil
        else {
            throw W8FormatsError.appleHealthValue(
                tr("date '{value}' is not like 2019-03-09 08:47:05 +0100", ["value": text]))
        }
        guard year >= DateInput.earliestYear else { throw W8CoreError.dateTooEarly(text) }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (b[20] == 43 ? 1 : -1)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + second - offset)
        guard Double(seconds) - now.timeIntervalSince1970 <= DateInput.futureTolerance else {
            throw W8CoreError.dateInFuture(text)
        }
        return seconds
    }

    /// The days of steps: per local day and kind, samples by rank, each counting the part of its time that no
    /// sample taken before it covers.
    private mutating func days() -> [ImportRow] {
        guard !samples.isEmpty else { return [] }
        samples.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        let calendar = options.calendar
        var rows: [ImportRow] = []
        var lo = 0
        while lo < samples.count {
            let first = Date(timeIntervalSince1970: TimeInterval(Int64(samples[lo].start) + Self.origin))
            let day = CalendarDay(first, calendar: calendar)
            let next = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: first))!
            let limit = Int32(Int64(next.timeIntervalSince1970) - Self.origin)
            var hi = lo
            while hi < samples.count, samples[hi].start < limit { hi += 1 }
            let ranks = self.ranks
            samples[lo..<hi].sort {
                ($0.kind, ranks[Int($0.source)], $0.source, $0.start, $0.end, $0.value)
                    < ($1.kind, ranks[Int($1.source)], $1.source, $1.start, $1.end, $1.value)
            }
            var totals: [Double] = [0, 0]
            var covered: [(Int32, Int32)] = []
            var kind: UInt8 = 255
            var previous: Sample?
            var leader: UInt16?
            for sample in samples[lo..<hi] {
                if sample.kind != kind {
                    (kind, covered, previous) = (sample.kind, [], nil)
                }
                if let p = previous, p.source == sample.source, p.start == sample.start, p.end == sample.end,
                    p.value == sample.value
                {
                    duplicates += 1
                    continue
                }
                previous = sample
                if kind == Kind.steps.rawValue, leader == nil { leader = sample.source }
                let share = Self.uncoveredShare(sample.start, sample.end, &covered)
                totals[kind == Kind.steps.rawValue ? 0 : 1] += Double(sample.value) * share
            }
            let steps = Int(totals[0].rounded())
            let distance = Int(totals[1].rounded())
            if steps > 0 || distance > 0 {
                rows.append(.activity(ActivityDay(day: day, steps: steps, distance: distance, source: Self.source)))
                if let leader { daysLedBy[sources[Int(leader)], default: 0] += 1 }
            }
            lo = hi
        }
        return rows
    }

    /// The fraction of `start..<end` outside `covered` (sorted, disjoint), which then takes it in.
    static func uncoveredShare(_ start: Int32, _ end: Int32, _ covered: inout [(Int32, Int32)]) -> Double {
        if end == start {
            // A moment: counted unless a sample already covers it.
            return covered.contains { $0.0 <= start && start < $0.1 } ? 0 : 1
        }
        var free = Int64(end) - Int64(start)
        var mergedStart = start
        var mergedEnd = end
        var kept: [(Int32, Int32)] = []
        kept.reserveCapacity(covered.count + 1)
        var placed = false
        for interval in covered {
            if interval.1 < start {
                kept.append(interval)
            } else if interval.0 > end {
                if !placed {
                    kept.append((mergedStart, mergedEnd))
                    placed = true
                }
                kept.append(interval)
            } else {
                let overlap = Int64(min(interval.1, end)) - Int64(max(interval.0, start))
                if overlap > 0 { free -= overlap }
                mergedStart = min(mergedStart, interval.0)
                mergedEnd = max(mergedEnd, interval.1)
            }
        }
        if !placed { kept.append((mergedStart, mergedEnd)) }
        covered = kept
        return Double(free) / Double(Int64(end) - Int64(start))
    }
}

extension ImportFormat {
    /// Whether a first chunk starts an XML document whose root is Apple Health's `HealthData`: its DOCTYPE or its
    /// root tag shows within the chunk. Nil when the chunk is XML that does not say yet.
    public static func isAppleHealthXML(_ bytes: [UInt8]) -> Bool? {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard body.first(where: { !HealthXMLScanner.isBlank($0) }) == UInt8(ascii: "<") else { return false }
        let head = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        if head.contains("<!DOCTYPE HealthData") || head.contains("<HealthData") { return true }
        return body.count >= 64 * 1024 ? false : nil
    }
}
