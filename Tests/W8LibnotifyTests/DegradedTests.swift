import Foundation
import Testing
import W8Core
import W8TestHarness
import W8TestSupport

/// LibnotifyNotificationSink when there is no bus, no server, or a server that never answers.
///
/// The product requires an answer within 3 s in every case, so these measure the probe process end to end.
@Suite("Without a working notification server")
struct DegradedTests: ProbeSuite {
    @Test("No session bus: noSessionBus at once, naming the variable to set")
    func noSessionBus() throws {
        let environment = try NoSessionBus()

        let run = try probe.run([.post(Sample.reminder), .close(id: 1)], environment: environment.environment)

        #expect(run.outcomes.map(\.error) == ["noSessionBus", "noSessionBus"], "\(run.outcomes)")
        #expect(run.outcomes[0].message?.contains("DBUS_SESSION_BUS_ADDRESS is unset") == true)
        #expect(run.seconds < 1 * testTimeScale)
    }

    @Test("A bus without a notification server: noNotificationServer at once")
    func noServer() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }

        let run = try probe.run([.post(Sample.reminder), .serverInfo()], environment: bus.environment)

        #expect(run.outcomes.map(\.error) == ["noNotificationServer", "noNotificationServer"], "\(run.outcomes)")
        #expect(run.seconds < 1 * testTimeScale)
    }

    @Test("An installed server that dies as D-Bus starts it: serverFailedToStart at once, naming it")
    func serverFailsToStart() throws {
        // dunst's own service file; dunst with no DISPLAY is activated and aborts.
        let service = URL(fileURLWithPath: "/usr/share/dbus-1/services/org.knopwob.dunst.service")
        try #require(FileManager.default.fileExists(atPath: service.path), "install dunst: apt-get install dunst")
        let bus = try PrivateSessionBus(serviceFiles: [service])
        defer { bus.stop() }

        let run = try probe.run([.post(Sample.reminder), .serverInfo()], environment: bus.environment)

        #expect(run.outcomes.map(\.error) == ["serverFailedToStart", "serverFailedToStart"], "\(run.outcomes)")
        for outcome in run.outcomes {
            #expect(outcome.message?.contains("the notification server (dunst) failed to start (") == true)
        }
        #expect(run.seconds < 1 * testTimeScale)
    }

    @Test("A hung server: timedOut within the deadline, and later calls fail fast instead of queueing")
    func hungServer() throws {
        let server = try HungNotificationServer()
        defer { server.stop() }

        let run = try probe.run(
            [.post(Sample.milestone(), deadline: 2), .post(Sample.summary, deadline: 2), .close(id: 1)],
            environment: server.environment)

        #expect(run.outcomes.map(\.error) == ["timedOut", "timedOut", "timedOut"], "\(run.outcomes)")
        #expect(run.outcomes[0].seconds >= 1.9 && run.outcomes[0].seconds < 3 * testTimeScale)
        #expect(run.outcomes[1].seconds < 0.1 * testTimeScale)
        #expect(run.outcomes[2].seconds < 0.1 * testTimeScale)
        #expect(run.seconds < 3 * testTimeScale, "the whole probe took \(run.seconds) s")
    }

    @Test("A hung server: serverInfo times out too")
    func hungServerInfo() throws {
        let server = try HungNotificationServer()
        defer { server.stop() }

        let run = try probe.run([.serverInfo(deadline: 1)], environment: server.environment)

        #expect(run.outcomes.map(\.error) == ["timedOut"], "\(run.outcomes)")
        #expect(run.seconds < 2 * testTimeScale)
    }
}
