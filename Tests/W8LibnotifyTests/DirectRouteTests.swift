import Foundation
import Testing
import W8Core
import W8TestSupport

/// The sink's direct route (`NotificationsOverDBus`): a notification without buttons goes to the server over the
/// session bus without libnotify. What the server receives must be what libnotify sends, so each case is posted
/// by a probe that never loads libnotify and by one that goes through libnotify only, and the two `Notify` calls
/// a D-Bus monitor saw on the same real dunst are compared, argument by argument and hint by hint with its type.
@Suite("Straight to the server over D-Bus, as libnotify would send it")
struct DirectRouteTests: ProbeSuite {
    static let cases: [DesktopNotification] = {
        var summary = Sample.summary
        summary.replaceTag = "w8trackr-summary-2026-11-22"
        summary.imagePath = "/tmp/w8-summary-chart.png"
        summary.expiry = .serverDefault
        var markup = Sample.summary
        markup.body = "Down 2 lb & <feeling> great > \"last\" week's"
        var unicode = Sample.milestone(expiry: .milliseconds(5000))
        unicode.title = "Objectif atteint : 75 kg 🎉"
        unicode.body = "Plus que 0,5 kg — bravo ! 日本語"
        return [Sample.milestone(), summary, Sample.reminder, markup, unicode]
    }()

    @Test("Every argument and hint of Notify is libnotify's, and libnotify is never loaded")
    func sameCallsAsLibnotify() throws {
        let session = try NotificationServerSession(.dunst)
        defer { session.stop() }
        // The reminder replaces what the first post showed, by id, on both routes.
        func steps(libnotifyOnly: Bool) -> [NotificationProbe.Step] {
            Self.cases.enumerated().map { index, notification in
                .post(
                    notification, replacingStep: index == 2 ? 0 : nil, libnotifyOnly: libnotifyOnly)
            }
        }

        let direct = try probe.run(steps(libnotifyOnly: false), environment: session.environment)
        let viaLibnotify = try probe.run(steps(libnotifyOnly: true), environment: session.environment)

        #expect(direct.outcomes.map(\.error) == Array(repeating: nil, count: Self.cases.count), "\(direct.outcomes)")
        #expect(viaLibnotify.outcomes.map(\.error) == direct.outcomes.map(\.error), "\(viaLibnotify.outcomes)")
        #expect(direct.outcomes.map(\.libnotifyLoaded) == Array(repeating: false, count: Self.cases.count))
        #expect(viaLibnotify.outcomes.last?.libnotifyLoaded == true)
        let calls = try session.monitor.answeredCalls(count: 2 * Self.cases.count)
        try #require(calls.count == 2 * Self.cases.count, "\(calls)")
        let directPID = try #require(direct.outcomes.first?.pid)
        let libnotifyPID = try #require(viaLibnotify.outcomes.first?.pid)
        for (index, (sent, expected)) in zip(calls.prefix(Self.cases.count), calls.suffix(Self.cases.count))
            .enumerated()
        {
            // Each was shown, with the id the probe returned; the reminder kept the id of what it replaced.
            #expect(sent.reply?.id == direct.outcomes[index].id, "\(sent)")
            #expect(expected.reply?.id == viaLibnotify.outcomes[index].id, "\(expected)")
            #expect(sent.hints["sender-pid"] == String(directPID))
            #expect(expected.hints["sender-pid"] == String(libnotifyPID))
            var comparable = sent
            var reference = expected
            comparable.reply = nil
            reference.reply = nil
            comparable.hints["sender-pid"] = nil
            reference.hints["sender-pid"] = nil
            if index == 2 {
                #expect(comparable.replacesID == direct.outcomes[0].id && comparable.replacesID != 0)
                #expect(reference.replacesID == viaLibnotify.outcomes[0].id)
                comparable.replacesID = 0
                reference.replacesID = 0
            }
            #expect(comparable == reference, "case \(index)")
        }
        // The escaped body: dunst reads markup, so both routes escaped the user's text.
        #expect(calls[3].body == "Down 2 lb &amp; &lt;feeling&gt; great &gt; \"last\" week's")
    }

    @Test("A closed notification leaves the screen, closed without libnotify")
    func closes() throws {
        let session = try DunstSession()
        defer { session.stop() }

        let run = try probe.run([.post(Sample.reminder), .close(step: 0)], environment: session.environment)

        #expect(run.outcomes.map(\.error) == [nil, nil], "\(run.outcomes)")
        #expect(run.outcomes.map(\.libnotifyLoaded) == [false, false])
        #expect(try session.displayedCount() == 0)
    }

    /// A bus with no notification server, as given, or with its address naming a socket that is not there.
    enum BrokenBus: String, CaseIterable, Sendable {
        case noServer, missingSocket
    }

    @Test(
        "Without a server or a socket, the error is libnotify's, word for word; only a missing socket loads it",
        arguments: BrokenBus.allCases)
    func sameErrorAsLibnotify(_ broken: BrokenBus) throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        var environment = bus.environment
        if broken == .missingSocket {
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(bus.runtimeDirectory.path)/no-such-socket"
        }

        let direct = try probe.run([.post(Sample.reminder)], environment: environment)
        let viaLibnotify = try probe.run([.post(Sample.reminder, libnotifyOnly: true)], environment: environment)

        let outcome = try #require(direct.outcomes.first)
        #expect(outcome.error == (broken == .noServer ? "noNotificationServer" : "noSessionBus"), "\(outcome)")
        #expect(outcome.message == viaLibnotify.outcomes.first?.message)
        // The bus answered the direct route without a server; a socket that is not there is left to GDBus.
        #expect(outcome.libnotifyLoaded == (broken == .missingSocket))
    }

    @Test("A bus address of another transport goes through libnotify, which reaches the server")
    func otherTransportFallsBack() throws {
        let session = try DunstSession()
        defer { session.stop() }
        var environment = session.environment
        // The same socket, named so that only GDBus can use it: an unknown transport first, then the real one.
        let address = try #require(environment["DBUS_SESSION_BUS_ADDRESS"])
        environment["DBUS_SESSION_BUS_ADDRESS"] = "tcp:host=127.0.0.1,port=1;" + address

        let run = try probe.run([.post(Sample.milestone())], environment: environment)

        #expect(run.outcomes.first?.error == nil, "\(run.outcomes)")
        #expect(run.outcomes.first?.libnotifyLoaded == true)
        #expect(try session.history().first?.summary == Sample.milestone().title)
    }
}
