import Foundation
import Testing
import W8TestHarness

/// The systemd user units under a real systemd 252 user manager (issue 25): Debian's `systemd --user` for a
/// throwaway user in a private mount namespace, with its socket-activated session bus, a volatile journal and dunst
/// as a unit of its own (`Tests/Support/user_manager.py`). The built `w8` is copied where that user can run it.
@Suite(.serialized, .ownThread) struct UserManagerTests {
    /// A command's outcome as the user ran it.
    struct Run {
        var status: Int
        var stdout: String
        var stderr: String
    }

    final class Manager {
        let script: HarnessScript
        let w8: String
        let home: String

        /// `arguments` go to user_manager.py (`--lang de_DE.UTF-8`). The binary is DIR/bin/w8 and this tree's
        /// catalogs DIR/share/locale, as `make install` lays them out: w8 finds them beside itself.
        init(_ arguments: [String] = []) throws {
            script = try HarnessScript(
                "user_manager.py", name: "systemd --user", prefix: "w8-um", arguments: arguments, deadline: 90)
            home = script.ready["home"] as? String ?? ""
            let bin = script.directory.appending("bin")
            try FileManager.default.createDirectory(
                atPath: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            w8 = bin + "/w8"
            try FileManager.default.copyItem(atPath: try W8Sandbox.locateW8(), toPath: w8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: w8)
            let share = script.directory.appending("share")
            try FileManager.default.createDirectory(
                atPath: share, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try FileManager.default.copyItem(atPath: builtCatalogs, toPath: share + "/locale")
        }

        @discardableResult
        func run(_ argv: [String], timeout: Double = 30) throws -> Run {
            let answer = try script.command(["cmd": "run", "argv": argv, "timeout": timeout], timeout: timeout + 10)
            return Run(
                status: answer["status"] as? Int ?? -1, stdout: answer["stdout"] as? String ?? "",
                stderr: answer["stderr"] as? String ?? "")
        }

        func w8(_ arguments: String...) throws -> Run { try run([w8] + arguments) }

        func systemctl(_ arguments: String...) throws -> Run { try run(["systemctl", "--user"] + arguments) }

        /// What dunst showed, oldest first.
        func notifications() throws -> [[String: Any]] {
            try script.command(["cmd": "notifications"])["notifications"] as? [[String: Any]] ?? []
        }

        /// Polls dunst until a notification of `category` is there, at most `timeout` seconds.
        func waitForNotification(category: String, timeout: TimeInterval) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(timeout)
            repeat {
                if let found = try notifications().first(where: { $0["category"] as? String == category }) {
                    return found
                }
                usleep(500_000)
            } while Date() < deadline
            throw NotificationServerFixtureError.timedOut(
                "a \(category) notification; journal: \(try journal(nil).suffix(30))")
        }

        func journal(_ unit: String?) throws -> [String] {
            try script.command(["cmd": "journal"].merging(unit.map { ["unit": $0] } ?? [:]) { $1 })["lines"]
                as? [String] ?? []
        }

        func stop() { script.stop() }
    }

    /// The manager's language reaches the units: `w8 systemd install` writes no LANG of its own, so the summary the
    /// timer's service posts is in the language the manager was started with (as a desktop session starts it).
    @Test func theUnitsSpeakTheManagersLanguage() throws {
        let manager = try Manager(["--lang", "de_DE.UTF-8"])
        defer { manager.stop() }
        let environment = try manager.systemctl("show-environment").stdout
        #expect(environment.contains("LANG=de_DE.UTF-8"), "\(environment)")
        let now = try manager.run(["env", "LC_ALL=C", "date", "+%a %H"]).stdout.split(separator: " ").map(String.init)
        for (key, value) in [
            ("summary.day", now[0].lowercased()),
            ("summary.hour", String(Int(now[1].trimmingCharacters(in: .newlines))!)),
            ("quiet_hours.enabled", "false"),
        ] {
            #expect(try manager.w8("config", key, value).status == 0)
        }
        for (days, weight) in [("2", "182"), ("1", "180")] {
            let date = try manager.run(["date", "-d", "-\(days) days", "+%Y-%m-%dT08:00"]).stdout
            #expect(try manager.w8("add", weight, "--date", date.trimmingCharacters(in: .newlines)).status == 0)
        }
        let install = try manager.w8("systemd", "install", "--no-enable")
        #expect(install.status == 0, "\(install.stderr)")
        let units = try manager.run(["sh", "-c", "cat \(manager.home)/.config/systemd/user/w8trackr*"]).stdout
        #expect(!units.contains("LANG") && !units.contains("LANGUAGE"), "a unit sets the language: \(units)")
        #expect(try manager.systemctl("start", "w8trackr-summary.service").status == 0)
        let summary = try manager.waitForNotification(category: "x-w8trackr.summary", timeout: 40)
        let title = LocaleCLITests.fill(
            try LocaleCLITests.gettext("Your week: down {weight}", ["LANG": "de_DE.UTF-8"]), ["weight": "2,0 lb"])
        #expect(title != "Your week: down 2,0 lb", "no German translation of the summary's title")
        #expect(summary["summary"] as? String == title, "\(summary)")
    }

    @Test func installRunsTheTimerAndTheDaemonThenUninstallRemovesThem() throws {
        let manager = try Manager()
        defer { manager.stop() }
        let now = try manager.run(["date", "+%a %H %M %S"]).stdout.split(separator: " ").map(String.init)
        let (weekday, hour, second) = (now[0].lowercased(), now[1], Int(now[3].trimmingCharacters(in: .newlines))!)
        // The weigh-in reminder a minute or two ahead: after the daemon has started.
        let ahead = second < 40 ? "+1 min" : "+2 min"
        let reminder = try manager.run(["date", "-d", ahead, "+%H:%M"]).stdout.trimmingCharacters(in: .newlines)
        for (key, value) in [
            ("summary.day", weekday), ("summary.hour", String(Int(hour)!)), ("reminders.weigh_in", "true"),
            ("reminders.weigh_in_time", reminder), ("quiet_hours.enabled", "false"),
        ] {
            let set = try manager.w8("config", key, value)
            #expect(set.status == 0, "w8 config \(key) \(value): \(set.stderr)")
        }
        for days in ["2", "1"] {
            let date = try manager.run(["date", "-d", "-\(days) days", "+%Y-%m-%dT08:00"]).stdout
            #expect(
                try manager.w8("add", days == "2" ? "182" : "180", "--date", date.trimmingCharacters(in: .newlines))
                    .status == 0)
        }

        // 1. The summary timer fires and its service posts the summary, which is due this hour. Its first run
        // finds no session bus, as a catch-up at login may run before the desktop's server is there: it exits 69,
        // and systemd runs it again (Restart=on-failure; RestartSec shortened from 2 minutes by a drop-in), by
        // when the bus is there (a symlink made after the first failure) and the summary is shown.
        #expect(try manager.w8("systemd", "install", "--no-enable").status == 0)
        let soon = try manager.run(["date", "-d", "+6 sec", "+%H:%M:%S"]).stdout.trimmingCharacters(in: .newlines)
        let units = manager.home + "/.config/systemd/user"
        try manager.run(["mkdir", "-p", units + "/w8trackr-summary.timer.d", units + "/w8trackr-summary.service.d"])
        try manager.run([
            "sh", "-c",
            "printf '[Timer]\\nOnCalendar=\\nOnCalendar=*-*-* \(soon)\\n' > "
                + "\(units)/w8trackr-summary.timer.d/soon.conf",
        ])
        try manager.run([
            "sh", "-c",
            "printf '[Service]\\nEnvironment=DBUS_SESSION_BUS_ADDRESS=unix:path=%%t/late-bus\\nRestartSec=5s\\n' > "
                + "\(units)/w8trackr-summary.service.d/late.conf",
        ])
        #expect(try manager.systemctl("daemon-reload").status == 0)
        #expect(try manager.systemctl("enable", "--now", "w8trackr-summary.timer").status == 0)
        let deadline = Date().addingTimeInterval(40)
        var failed: [String] = []
        while failed.isEmpty, Date() < deadline {
            failed = try manager.journal("w8trackr-summary.service").filter { $0.contains("status=69") }
            if failed.isEmpty { usleep(250_000) }
        }
        let firstRun = try manager.journal("w8trackr-summary.service")
        #expect(!failed.isEmpty, "\(firstRun)")
        let runtime = try manager.run(["sh", "-c", "echo $XDG_RUNTIME_DIR"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try manager.run(["ln", "-s", runtime + "/bus", runtime + "/late-bus"]).status == 0)
        let summary = try manager.waitForNotification(category: "x-w8trackr.summary", timeout: 40)
        #expect(summary["summary"] as? String == "Your week: down 2.0 lb", "\(summary)")
        let summaryLog = try manager.journal("w8trackr-summary.service")
        #expect(summaryLog.contains { $0.contains(": sent (server id") }, "\(summaryLog)")
        #expect(summaryLog.contains { $0.contains("Scheduled restart job") }, "\(summaryLog)")
        try manager.run(["rm", "-r", units + "/w8trackr-summary.service.d"])
        #expect(try manager.systemctl("daemon-reload").status == 0)

        // 2. install enables and starts the daemon, which posts the weigh-in reminder at its time.
        let install = try manager.w8("systemd", "install")
        #expect(install.status == 0, "\(install.stderr)")
        let active = try manager.systemctl("is-active", "w8trackr.service", "w8trackr-summary.timer")
        #expect(active.stdout == "active\nactive\n", "\(active)")
        let posted = try manager.waitForNotification(category: "x-w8trackr.reminder", timeout: 150)
        #expect(posted["summary"] as? String == "Time to weigh in", "\(posted)")
        #expect(posted["urgency"] as? String == "NORMAL")
        let daemonLog = try manager.journal("w8trackr.service")
        #expect(daemonLog.contains { $0.contains("weigh-in@") && $0.contains(": sent") }, "\(daemonLog)")
        let doctor = try manager.w8("doctor")
        #expect(doctor.stdout.contains("Unit w8trackr.service:        "), "\(doctor.stdout)")
        #expect(doctor.stdout.contains(", enabled, active (running)\n"), "\(doctor.stdout)")

        // 3. A session that never reaches graphical-session.target (startx, a bare window manager): the daemon is
        // enabled but dead, and the doctor says why and what to run.
        try manager.script.command(["cmd": "restart"], timeout: 60)
        let bare = try manager.w8("doctor")
        #expect(bare.stdout.contains(", enabled, inactive (dead)\n"), "\(bare.stdout)")
        #expect(bare.stdout.contains("graphical-session.target, which this session has not reached"), "\(bare.stdout)")
        #expect(bare.stdout.contains("Start it now: systemctl --user start w8trackr.service"))
        try manager.script.command(["cmd": "login"], timeout: 60)
        #expect(try manager.systemctl("is-active", "w8trackr.service").stdout == "active\n")

        // 4. uninstall stops and removes everything it installed.
        let uninstall = try manager.w8("systemd", "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        let after = try manager.systemctl("is-active", "w8trackr.service", "w8trackr-summary.timer")
        #expect(after.stdout == "inactive\ninactive\n", "\(after)")
        // What is left is the test's own drop-in: uninstall removes only what w8 wrote.
        let left = try manager.run(["ls", "-A", manager.home + "/.config/systemd/user"]).stdout
        #expect(left == "w8trackr-summary.timer.d\n", "\(left)")
        // And the manager knows no unit of w8 any more: none from /usr/local/lib/systemd/user either, where
        // `make install` puts them (CI installs before testing); the namespace hides the host's /usr/local.
        let files = try manager.systemctl("list-unit-files", "--no-legend", "w8trackr*").stdout
        #expect(files == "", "\(files)")
    }
}
