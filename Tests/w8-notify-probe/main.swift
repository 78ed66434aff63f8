// A test-only driver: runs the NotificationProbe.Step list in the JSON file argv[1] through
// LibnotifyNotificationSink in this process, and prints one NotificationProbe.Outcome per step as JSON.
// It exists because libnotify binds to the session bus of the process environment; see NotificationProbe.
import Foundation
import W8App
import W8Core
import W8Libnotify
import W8TestHarness
import W8TestSupport

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: w8-notify-probe STEPS.json\n".utf8))
    exit(64)
}
let steps = try JSONDecoder().decode(
    [NotificationProbe.Step].self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
let environment = ProcessInfo.processInfo.environment
let xdg = XDGDirectories(environment: environment, accountHome: NSHomeDirectory())
let dataDirectories = xdg.dataSearchPath
let serviceDirectories = xdg.sessionServiceDirectories
var sinks: [Int: LibnotifyNotificationSink] = [:]
var outcomes: [NotificationProbe.Outcome] = []

for step in steps {
    let sink =
        sinks[step.sink]
        ?? LibnotifyNotificationSink(
            deadline: step.deadline, dataDirectories: dataDirectories, serviceDirectories: serviceDirectories,
            sessionBusAddress: environment["DBUS_SESSION_BUS_ADDRESS"])
    sinks[step.sink] = sink
    let earlierID = step.idFromStep.flatMap { outcomes[$0].id }
    let start = ContinuousClock.now
    var outcome = NotificationProbe.Outcome(seconds: 0)
    do throws(LibnotifyError) {
        switch step.operation {
        case .post:
            var notification = step.notification!.desktopNotification
            notification.replacesID = earlierID ?? notification.replacesID
            outcome.id = try sink.post(notification)
        case .close:
            try sink.close(id: earlierID ?? step.id ?? 0)
        case .waitForFile:
            let until = Date().addingTimeInterval(step.deadline)
            while access(step.path ?? "", F_OK) != 0, Date() < until { usleep(50_000) }
            if access(step.path ?? "", F_OK) != 0 { outcome.error = "timedOut" }
        case .serverInfo:
            let info = try LibnotifyNotificationSink.serverInfo(
                deadline: step.deadline, serviceDirectories: serviceDirectories,
                sessionBusAddress: environment["DBUS_SESSION_BUS_ADDRESS"])
            outcome.serverInfo = .init(
                name: info.name, vendor: info.vendor, version: info.version, specVersion: info.specVersion,
                capabilities: info.capabilities)
        }
    } catch {
        outcome.message = error.localizedDescription
        outcome.error =
            switch error {
            case .noSessionBus: "noSessionBus"
            case .noNotificationServer: "noNotificationServer"
            case .serverFailedToStart: "serverFailedToStart"
            case .serverError: "serverError"
            case .timedOut: "timedOut"
            case .libraryUnavailable: "libraryUnavailable"
            }
    }
    let elapsed = ContinuousClock.now - start
    outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    outcome.pid = getpid()
    outcome.libnotifyLoaded = dlopen("libnotify.so.4", RTLD_LAZY | RTLD_NOLOAD) != nil
    outcomes.append(outcome)
}

FileHandle.standardOutput.write(try JSONEncoder().encode(outcomes))
// A call may still be stuck in libnotify on its thread; leave without waiting for it.
exit(0)
