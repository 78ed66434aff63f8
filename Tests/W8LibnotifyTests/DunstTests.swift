import Foundation
import Testing
import W8Core
import W8TestHarness
import W8TestSupport

/// LibnotifyNotificationSink against a real dunst on a private Xvfb display and D-Bus session bus.
///
/// The sink runs in `w8-notify-probe`, a child process with the session's environment: GLib binds a process to one
/// session bus. Each test starts its own session, so tests can run in parallel. A missing binary fails the test.
@Suite("Through a real dunst")
struct DunstTests: ProbeSuite {
    /// What dunst shows after the probe posts `notification`.
    func firstShown(after notification: DesktopNotification, on session: DunstSession) throws -> ShownNotification {
        _ = try probe.run([.post(notification)], environment: session.environment)
        return try #require(try session.history().first)
    }

    @Test("A reminder replaces the previous one while dunst shows it, and is a new notification once dunst closed it")
    func reminderReplacesOnlyAnOpenOne() throws {
        let session = try DunstSession()
        defer { session.stop() }
        let reminder = DesktopNotification.reminder(.weighIn)
        let scratch = try TemporaryDirectory(prefix: "w8-go")
        defer { scratch.remove() }
        let go = scratch.appending("go")
        let running = BackgroundProbe(
            try probe, [.post(reminder), .post(reminder), .waitForFile(go), .post(reminder)],
            environment: session.environment, user: .current)
        // The first two: the second replaced the first, still on screen.
        let deadline = Date().addingTimeInterval(10)
        while try session.displayedCount() == 0, Date() < deadline { usleep(50_000) }
        usleep(300_000)
        #expect(try session.displayedCount() == 1)
        // dunst closes it (history() closes all, as a person dismissing it would), then the third is posted.
        let closed = try session.history()
        #expect(closed.count == 1, "\(closed)")
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        let run = try running.wait(timeout: 30)
        #expect(run.outcomes.map { $0.error } == [nil, nil, nil, nil], "\(run.outcomes)")
        let ids = run.outcomes.map { $0.id }
        #expect(ids[1] == ids[0], "replaced while open: \(ids)")
        #expect(ids[3] != ids[0], "a new one once closed: \(ids)")
        #expect(try session.displayedCount() == 1, "the third is on screen")
    }

    @Test("One notification of each category reaches dunst with its text, app name, category and urgency")
    func postsEachCategory() throws {
        let session = try DunstSession()
        defer { session.stop() }
        let sent = [Sample.milestone(), Sample.summary, Sample.reminder]

        let run = try probe.run(sent.map { .post($0) }, environment: session.environment)

        #expect(run.outcomes.map(\.error) == [nil, nil, nil], "\(run.outcomes)")
        let ids = run.outcomes.compactMap(\.id)
        #expect(Set(ids).count == 3)
        let shown = try session.history()
        try #require(shown.count == 3, "\(shown)\n\(session.log)")
        for (notification, (shown, id)) in zip(sent, zip(shown, ids)) {
            #expect(shown.id == id)
            #expect(shown.summary == notification.title)
            #expect(shown.displayedBody == notification.body)
            #expect(shown.appName == "W8Trackr")
            #expect(shown.category == notification.category.rawValue)
            #expect(shown.urgency == notification.urgency)
            #expect(shown.expiry == notification.expiry)
        }
    }

    @Test("A goal milestone never expires")
    func goalNeverExpires() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let run = try probe.run([.post(Sample.milestone(expiry: .never))], environment: session.environment)

        #expect(run.outcomes.first?.error == nil, "\(run.outcomes)")
        let shown = try #require(try session.history().first)
        #expect(shown.timeoutMicroseconds == 0)
        #expect(shown.expiry == .never)
    }

    @Test(
        "User text is escaped, so markup characters show literally",
        arguments: ["<b>&", "Down 2 lb & <feeling> great", "a < b > c && d"])
    func escapesMarkup(text: String) throws {
        let session = try DunstSession()
        defer { session.stop() }
        var notification = Sample.summary
        notification.body = text

        let run = try probe.run([.post(notification)], environment: session.environment)

        #expect(run.outcomes.first?.error == nil, "\(run.outcomes)")
        let shown = try #require(try session.history().first)
        #expect(!shown.body.contains("<"))
        #expect(shown.displayedBody == text)
    }

    @Test("Posting with replacesID keeps the server id and leaves one notification, not two")
    func replaces() throws {
        let session = try DunstSession()
        defer { session.stop() }
        var update = Sample.reminder
        update.title = "Still time to weigh in"

        let run = try probe.run(
            [.post(Sample.reminder), .post(update, replacingStep: 0)], environment: session.environment)

        let first = try #require(run.outcomes[0].id, "\(run.outcomes)")
        #expect(run.outcomes[1].id == first)
        let shown = try session.history()
        #expect(shown.map(\.summary) == ["Still time to weigh in"])
        #expect(shown.map(\.id) == [first])
    }

    @Test("A second sink closes a notification by its server id")
    func closesFromSecondSink() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let run = try probe.run([.post(Sample.reminder), .close(step: 0, sink: 1)], environment: session.environment)

        #expect(run.outcomes.map(\.error) == [nil, nil], "\(run.outcomes)")
        #expect(try session.displayedCount() == 0)
        #expect(try session.history().map(\.id) == [try #require(run.outcomes[0].id)])
    }

    @Test("Another process closes a notification by its server id")
    func closesFromAnotherProcess() throws {
        let session = try DunstSession()
        defer { session.stop() }
        let posted = try probe.run([.post(Sample.reminder), .post(Sample.summary)], environment: session.environment)
        let id = try #require(posted.outcomes[0].id, "\(posted.outcomes)")
        #expect(try session.displayedCount() == 2)

        let closed = try probe.run([.close(id: id)], environment: session.environment)

        #expect(closed.outcomes.first?.error == nil, "\(closed.outcomes)")
        #expect(try session.displayedCount() == 1)
    }

    @Test("Without the icon file installed, the themed name is sent for the server's theme to resolve")
    func sendsThemedNameWithoutIconFile() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let shown = try firstShown(after: Sample.summary, on: session)
        #expect(shown.iconPath == session.themeDirectory.appendingPathComponent("w8trackr.svg").path)
    }

    @Test("With the icon installed under XDG_DATA_HOME, its file is sent, where dunst finds no theme for it")
    func sendsInstalledIconFile() throws {
        let session = try DunstSession()
        defer { session.stop() }
        let installed = session.iconDirectory.appendingPathComponent("w8trackr.svg")
        try FileManager.default.copyItem(
            at: dataDirectory.appendingPathComponent("icons/hicolor/scalable/apps/w8trackr.svg"), to: installed)

        let shown = try firstShown(after: Sample.summary, on: session)
        #expect(shown.iconPath == installed.path)
    }

    @Test("imagePath is sent as the image-path hint")
    func sendsImagePath() throws {
        let session = try DunstSession()
        defer { session.stop() }
        var notification = Sample.milestone()
        notification.imagePath = dataDirectory.appendingPathComponent("icons/hicolor/scalable/apps/w8trackr.svg").path

        let monitor = try NotifyCallMonitor(bus: session.bus)

        let shown = try firstShown(after: notification, on: session)
        // As the server received it. dunst itself draws the image-data that w8 sends beside it once gdk-pixbuf can
        // tell the file's type (the MIME database, as on any desktop), so its history shows no path.
        let call = try #require(try monitor.calls().first { $0.summary == shown.summary })
        #expect(call.hints["image-path"] == notification.imagePath)
    }

    @Test("serverInfo names dunst and lists its capabilities")
    func serverInfo() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let run = try probe.run([.serverInfo()], environment: session.environment)

        let info = try #require(run.outcomes.first?.serverInfo, "\(run.outcomes)")
        #expect(info.name == "dunst")
        #expect(info.capabilities.contains("body"))
        #expect(info.capabilities.contains("body-markup"))
        #expect(info.specVersion == "1.2")
    }

    @Test("A post returns quickly and the notification is on screen")
    func showsOnScreen() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let run = try probe.run([.post(Sample.milestone()), .post(Sample.summary)], environment: session.environment)

        #expect(run.outcomes.map(\.error) == [nil, nil], "\(run.outcomes)")
        // The first post connects to the bus; the second is the steady-state cost.
        #expect(run.outcomes[1].seconds < 0.5 * testTimeScale)
        #expect(try session.displayedCount() == 2)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("w8-shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        try session.screenshot(to: shot)
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
