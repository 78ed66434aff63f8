import Foundation

/// An X display of its own (Xvfb picks a free number with `-displayfd`).
final class XvfbDisplay {
    let display: String
    private let xvfb: ChildProcess

    init(logDirectory: URL, screen: String = "1024x768x24") throws {
        let path = try requireExecutable("Xvfb", debianPackage: "xvfb")
        xvfb = try ChildProcess(
            name: "Xvfb", executable: path, arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen],
            environment: baseChildEnvironment(), logDirectory: logDirectory)
        let number = try xvfb.readLine(timeout: 5).trimmingCharacters(in: .whitespaces)
        guard Int(number) != nil else {
            xvfb.stop()
            throw NotificationServerFixtureError.didNotStart("Xvfb", log: "display \(number)\n" + xvfb.log)
        }
        display = ":" + number
    }

    /// `import -window root` (imagemagick).
    func screenshot(to url: URL) throws {
        let importPath = try requireExecutable("import", debianPackage: "imagemagick")
        var environment = baseChildEnvironment()
        environment["DISPLAY"] = display
        let output = try runCommand(importPath, ["-window", "root", url.path], environment: environment)
        guard output.status == 0 else {
            throw NotificationServerFixtureError.commandFailed(
                "import -window root", status: output.status, stderr: output.stderr)
        }
    }

    func stop() { xvfb.stop() }
}
