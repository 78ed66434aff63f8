import Foundation
import Testing
import W8App
import W8Core
import W8Store
import W8TestSupport

/// What the composition root did itself before W8Runtime only composed: the summary's sparkline, the chart's
/// picture, the import's and export's databases, the widget's query and `w8 notify-test`.
@Suite final class CompositionTests: SchedulingSuite {
    /// A chart drawer that keeps what it was asked to draw and writes an empty file, or fails.
    final class RecordingDrawer: @unchecked Sendable {
        let lock = NSLock()
        var drawn: [(picture: ChartPicture, sparkline: Bool, path: String)] = []
        var failure: (any Error)?

        var drawer: ChartDrawer {
            ChartDrawer(
                canWrite: { $0.hasSuffix(".png") || $0.hasSuffix(".svg") },
                write: { picture, sparkline, path in
                    try self.lock.withLock {
                        if let failure = self.failure { throw failure }
                        self.drawn.append((picture, sparkline, path))
                        FileManager.default.createFile(atPath: path, contents: Data())
                    }
                },
                text: { picture, color, _ in "\(picture.width)x\(picture.height) color \(color)\n" })
        }
    }

    struct DiskFull: Error {}
    struct ServerGone: LocalizedError {
        var errorDescription: String? { "no server" }
    }

    let sunday: Date
    let cache: TemporaryDirectory

    override init() throws {
        sunday = PinnedCalendar.berlin.date(2026, 11, 22, 9)
        cache = try TemporaryDirectory()
        try super.init()
    }

    func log(_ pounds: Double, daysBefore days: Double) throws {
        let date = sunday.addingTimeInterval(-days * 86400)
        _ = try store.database.write {
            try $0.saveEntry(WeightEntry(weight: Weight(pounds, .lb), date: date), createdAt: date)
        }
    }

    func charts(_ recording: RecordingDrawer) -> WeightCharts {
        WeightCharts(database: store.database, calendar: calendar, drawer: recording.drawer)
    }

    @Test("The summary's image is a 128 px sparkline of the last 30 days, in a 0700 cache directory")
    func summaryImage() throws {
        // Given weigh-ins 40 and 10 and 2 days before the summary
        for days in [40.0, 10, 2] { try log(180 - days / 10, daysBefore: days) }
        let recording = RecordingDrawer()
        let directory = cache.path + "/w8trackr"
        let summary = try EventRunner(database: store.database, sink: sink, settings: Settings(), calendar: calendar)
            .summary(at: sunday)

        // When the summary's image is drawn
        let path = charts(recording).summaryImage(summary, cacheDirectory: directory)

        // Then one sparkline of the last 30 days is written there
        #expect(path == directory + "/summary-chart.png")
        let drawn = try #require(recording.drawn.first)
        #expect(recording.drawn.count == 1)
        #expect(drawn.path == path)
        #expect(drawn.sparkline && drawn.picture.width == 128 && drawn.picture.height == 128)
        #expect(drawn.picture.title == nil)
        #expect(drawn.picture.points.allSatisfy { $0.date >= sunday.addingTimeInterval(-30 * 86400) })
        #expect(drawn.picture.weighIns.count == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("No summary image without weigh-ins, or when it cannot be written: the summary goes out without it")
    func noSummaryImage() throws {
        let recording = RecordingDrawer()
        let runner = EventRunner(database: store.database, sink: sink, settings: Settings(), calendar: calendar)
        #expect(charts(recording).summaryImage(try runner.summary(at: sunday), cacheDirectory: cache.path) == nil)
        #expect(recording.drawn.isEmpty)

        try log(180, daysBefore: 2)
        recording.failure = DiskFull()
        #expect(charts(recording).summaryImage(try runner.summary(at: sunday), cacheDirectory: cache.path) == nil)
    }

    @Test("w8 chart --output draws the full chart with its title; without one, the terminal chart is returned")
    func chart() throws {
        try log(180, daysBefore: 3)
        try log(179, daysBefore: 1)
        let recording = RecordingDrawer()
        let output = cache.path + "/chart.svg"

        let written = try charts(recording).chart(
            days: 30, unit: .lb, now: sunday, output: output, width: nil, height: nil,
            terminal: (columns: 60, color: false))

        #expect(written == "Wrote \(output).\n")
        let drawn = try #require(recording.drawn.first)
        #expect(drawn.path == output && !drawn.sparkline)
        #expect(drawn.picture.width == 800 && drawn.picture.height == 400)
        #expect(drawn.picture.title == "W8Trackr: the last 30 days")
        #expect(drawn.picture.weighIns.count == 2)

        let text = try charts(recording).chart(
            days: 30, unit: .lb, now: sunday, output: nil, width: nil, height: nil,
            terminal: (columns: 60, color: false))
        #expect(recording.drawn.count == 1)
        // The terminal's width and 16 lines, in the terminal's colours
        #expect(text == "60x16 color false\n")
    }

    @Test("A dry-run import with no database yet creates none; with one, it opens the person's")
    func dryRunDatabase() throws {
        let path = cache.path + "/w8trackr.sqlite"
        var opened = 0
        let open = {
            opened += 1
            return try AppDatabase.open(at: path)
        }

        _ = try Importer.database(dryRun: true, path: path, open: open)
        #expect(opened == 0)
        #expect(!FileManager.default.fileExists(atPath: path))

        _ = try Importer.database(dryRun: false, path: path, open: open)
        #expect(opened == 1)
        _ = try Importer.database(dryRun: true, path: path, open: open)
        #expect(opened == 2)
    }

    @Test("An export of a damaged database salvages it and says so; of a sound one, says nothing")
    func exportSalvages() throws {
        var warnings: [String] = []
        var salvaged: [String] = []
        let damaged: (String) throws -> AppDatabase = { throw StoreError.damaged(path: $0, detail: "page 3") }
        let salvage: (String) throws -> AppDatabase = {
            salvaged.append($0)
            return try AppDatabase.inMemory()
        }

        _ = try Exporter.database(at: "/data/w8.sqlite", warn: { warnings.append($0) }, open: damaged, salvage: salvage)
        #expect(salvaged == ["/data/w8.sqlite"])
        #expect(warnings == ["database /data/w8.sqlite is damaged (page 3); exporting what can still be read"])

        _ = try Exporter.database(
            at: "/data/w8.sqlite", warn: { warnings.append($0) }, open: { _ in try AppDatabase.inMemory() },
            salvage: salvage)
        #expect(salvaged.count == 1 && warnings.count == 1)
    }

    @Test("The widget reads the latest weight and the week's direction from the database")
    func widgetEntry() throws {
        try log(182, daysBefore: 5)
        try log(180, daysBefore: 1)
        var settings = Settings()
        settings.unit = .lb

        let entry = try WidgetEntry(database: store.database, settings: settings, now: sunday, calendar: calendar)

        #expect(entry.currentWeight == 180)
        #expect(entry.unit == .lb)
        #expect(entry.entryDate == sunday.addingTimeInterval(-86400))
        #expect(entry.trend == .down)
    }

    @Test("w8 notify-test posts the sample; a failure is exit 69 with its cause")
    func notifyTest() throws {
        #expect(try sink.postSample("summary") == 1)
        #expect(sink.posted.map(\.category) == [DesktopNotification.sample("summary").category])

        let failing = InMemoryNotificationSink(failure: ServerGone())
        #expect(throws: AppError.unavailable("notification not shown: no server")) {
            try failing.postSample("milestone")
        }
    }
}
