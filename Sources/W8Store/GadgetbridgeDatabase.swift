import Foundation
import GRDB
import W8Core

/// Gadgetbridge's exported database (the Android app's greenDAO schema, `GBDaoGenerator.java`), opened read only
/// and `immutable=1`: SQLite writes nothing beside it, no journal, no -wal or -shm, and never changes the file.
/// Columns are selected by name, since an upgraded database has them in another order than a new one.
public struct GadgetbridgeDatabase {
    public let path: String
    private let queue: DatabaseQueue
    /// The per-vendor activity sample tables there: every table with `TIMESTAMP`, `DEVICE_ID` and `STEPS`.
    public let stepTables: [String]
    /// Whether `MI_SCALE_WEIGHT_SAMPLE` is there.
    public let hasScale: Bool

    /// The daily summaries of Xiaomi bands: milliseconds and a day's total, repeating the minute samples.
    static let summaryTables: Set<String> = ["XIAOMI_DAILY_SUMMARY_SAMPLE"]
    static let scaleTable = "MI_SCALE_WEIGHT_SAMPLE"
    /// The tables whose `STEPS` are the day's running total so far: their sample providers call
    /// `convertCumulativeSteps` (`GarminActivitySampleProvider`, `CmfActivitySampleProvider`).
    public static let runningTotalTables: Set<String> = ["GARMIN_ACTIVITY_SAMPLE", "CMF_ACTIVITY_SAMPLE"]
    /// The distance of a sample in centimetres, for the tables whose samples give one (`getDistanceCm`, which is
    /// "not measured" for every other vendor): Garmin's `DISTANCE_CM`, Huawei's `DISTANCE` in metres.
    static let centimetres: [String: (column: String, expression: String)] = [
        "GARMIN_ACTIVITY_SAMPLE": ("DISTANCE_CM", "DISTANCE_CM"),
        "HUAWEI_ACTIVITY_SAMPLE": ("DISTANCE", "CASE WHEN DISTANCE = -1 THEN -1 ELSE DISTANCE * 100 END"),
    ]
    /// The distance expression of each step table there.
    private let distances: [String: String]

    /// Opens `path`; refuses an SQLite file that holds no Gadgetbridge `DEVICE` table.
    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: ReadOnlyDatabase.immutableURI(path), configuration: configuration)
            let columns = try queue.read { db in
                var columns: [String: Set<String>] = [:]
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                    columns[table] = Set(try db.columns(in: table).map { $0.name.uppercased() })
                }
                return columns
            }
            guard let device = columns["DEVICE"], device.isSuperset(of: ["_ID", "IDENTIFIER", "MANUFACTURER"]) else {
                throw StoreError.notGadgetbridge(path: path)
            }
            stepTables = columns.filter { table, names in
                names.isSuperset(of: ["TIMESTAMP", "DEVICE_ID", "STEPS"]) && !Self.summaryTables.contains(table)
            }.keys.sorted()
            distances = Self.centimetres.filter { table, distance in
                columns[table]?.contains(distance.column) ?? false
            }.mapValues(\.expression)
            hasScale = columns[Self.scaleTable]?.isSuperset(of: ["TIMESTAMP", "DEVICE_ID", "WEIGHT_KG"]) ?? false
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notGadgetbridge(path: path)
        } catch let error as DatabaseError {
            throw StoreError.database(path: path, message: error.message ?? "\(error.resultCode)")
        }
    }

    /// Calls `body` with every step sample of every table in timestamp order, with its table and its place there
    /// (1 for its first row, by `TIMESTAMP` and `DEVICE_ID`). A NULL `STEPS` reads as not measured (-1).
    public func forEachStepSample(_ body: (_ table: String, _ row: Int, StepSample) throws -> Void) throws {
        guard !stepTables.isEmpty else { return }
        let selects = stepTables.map { table in
            let name = table.quotedDatabaseIdentifier
            return """
                SELECT '\(table.replacingOccurrences(of: "'", with: "''"))' AS t, ROW_NUMBER() OVER (ORDER BY TIMESTAMP, DEVICE_ID) AS n,
                  TIMESTAMP AS ts, DEVICE_ID AS d, STEPS AS s, \(distances[table] ?? "-1") AS cm FROM \(name)
                """
        }
        let sql = selects.joined(separator: "\nUNION ALL\n") + "\nORDER BY ts, d"
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                let timestamp: Int64? = row["ts"]
                let device: Int64? = row["d"]
                let steps: Int? = row["s"]
                let centimetres: Int? = row["cm"]
                let sample: StepSample = (
                    timestamp ?? Int64.min, device ?? Int64.max, steps ?? -1, centimetres ?? -1
                )
                try body(row["t"], row["n"], sample)
            }
        }
    }

    /// Calls `body` with every weighing of `MI_SCALE_WEIGHT_SAMPLE`, by `TIMESTAMP` (milliseconds), with its place.
    public func forEachScaleReading(_ body: (_ row: Int, ScaleReading) throws -> Void) throws {
        guard hasScale else { return }
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT TIMESTAMP AS ts, WEIGHT_KG AS kg FROM \(Self.scaleTable) ORDER BY TIMESTAMP, DEVICE_ID"
            )
            var place = 0
            while let row = try rows.next() {
                place += 1
                let milliseconds: Int64? = row["ts"]
                let kilograms: Double? = row["kg"]
                try body(place, (milliseconds: milliseconds ?? Int64.min, kilograms: kilograms ?? .nan))
            }
        }
    }

    private func read(_ body: (Database) throws -> Void) throws {
        do {
            try queue.read(body)
        } catch let error as DatabaseError {
            throw StoreError.database(path: path, message: error.message ?? "\(error.resultCode)")
        }
    }
}
