import W8Core

/// What each command of `w8` says about itself in `--help`: its name, one line on what it does, and the
/// discussion with examples. The executable declares each command's arguments; its words live here, beside the
/// importer's and exporter's help. Names are spelled out: ArgumentParser derives a missing one by reflection.
public struct CommandHelp: Sendable {
    public let name: String
    public let abstract: String
    public let discussion: String
}

extension CommandHelp {
    public static let chart = CommandHelp(
        name: "chart", abstract: "Draw your weight, trend and goal: in the terminal, or as a PNG or SVG image.",
        discussion: """
            The terminal chart fits the terminal's width and uses colour only on a terminal (and never with \
            NO_COLOR set). --output writes an image instead, its format from the file's extension.
            Examples: w8 chart · w8 chart --days 30 · w8 chart --output weight.png
            """)

    public static let doctor = CommandHelp(
        name: "doctor", abstract: "Check notifications, files and systemd units, and say what is wrong.",
        discussion: "Example: w8 doctor --json")

    public static let notifyTest = CommandHelp(
        name: "notify-test", abstract: "Post a sample notification to check that notifications reach you.",
        discussion: "Example: w8 notify-test --category reminder")

    public static let add = CommandHelp(
        name: "add", abstract: "Log a weigh-in; celebrates the goal milestones it reaches.",
        discussion: "Examples: w8 add 182.4 · w8 add 82,5kg --date 2026-11-20T07:30 --note 'after run'")

    public static let edit = CommandHelp(
        name: "edit", abstract: "Change a logged entry; milestones are evaluated again.",
        discussion: "Example: w8 edit 12 --weight 181.9 --note 'scale was off'")

    public static let remove = CommandHelp(
        name: "rm", abstract: "Remove a logged entry; milestones are evaluated again.",
        discussion: "Example: w8 rm 12")

    public static let log = CommandHelp(
        name: "log", abstract: "Show logged weights, newest first.",
        discussion: "Example: w8 log --limit 7")

    public static let goal = CommandHelp(
        name: "goal", abstract: "Set, show or clear your goal weight.",
        discussion: """
            A change of more than 10% starts a new journey (start weight taken again, every milestone \
            re-armed); a smaller change keeps your start weight and the milestones you already reached. \
            --date moves a kept journey's start to that date (w8 goal 85 --date 2026-01-01 repairs a journey that \
            a mistyped goal restarted).
            Examples: w8 goal 160 · w8 goal 72kg · w8 goal · w8 goal --clear
            """)

    public static let status = CommandHelp(
        name: "status", abstract: "Show your current weight and progress toward your goal.",
        discussion: "Example: w8 status --json")

    public static let milestones = CommandHelp(
        name: "milestones", abstract: "List the milestones you have reached, newest first.",
        discussion: "Example: w8 milestones --json")

    public static let config = CommandHelp(
        name: "config", abstract: "List, show or change settings (kept in $XDG_CONFIG_HOME/w8trackr/config.toml).",
        discussion: SettingKey.allCases.reduce(
            "Examples: w8 config · w8 config unit · w8 config unit kg · w8 config summary.day mon\nKeys:"
        ) { text, key in text + "\n  \(key.rawValue): \(key.help)" })

    public static let sync = CommandHelp(
        name: "sync", abstract: "Keep one history on every machine you use, through a folder Syncthing keeps in step.",
        discussion: """
            Each machine appends its changes to its own journal in FOLDER/w8trackr and merges every other \
            machine's; the database itself never goes into the folder. Every command that reads data merges what \
            has arrived first.
            Examples: w8 sync start ~/Sync · w8 sync status · w8 sync now · w8 sync stop
            """)

    public static let syncStart = CommandHelp(
        name: "start", abstract: "Join a sync folder and write this machine's history into its journal there.",
        discussion: "Example: w8 sync start ~/Sync")

    public static let syncStatus = CommandHelp(
        name: "status", abstract: "Show the folder, each device, the lines waiting to be complete and any problem.",
        discussion: "Example: w8 sync status --json")

    public static let syncNow = CommandHelp(
        name: "now", abstract: "Merge what has arrived in the sync folder, and write what changed here.",
        discussion: "Example: w8 sync now")

    public static let syncStop = CommandHelp(
        name: "stop", abstract: "Leave the sync folder; the data here and this machine's journal there stay.",
        discussion: "Example: w8 sync stop")

    public static let drink = CommandHelp(
        name: "drink",
        abstract: "Log a drink: water, or with --beverage another drink. Prints the day's water against the goal.",
        discussion: IntakeInput.drinkHelp)

    public static let eat = CommandHelp(
        name: "eat", abstract: "Log a meal or a snack.",
        discussion: """
            Without --calories, a meal counts intake.meal_calories and a snack intake.snack_calories (0 counts \
            none). Examples: w8 eat meal · w8 eat snack --calories 150 --note apple
            """)

    public static let today = CommandHelp(
        name: "today",
        abstract: "Show a day's water, drinks, meals, snacks, calories and steps against your daily goals.",
        discussion: "Example: w8 today · w8 today --date 2026-11-20 --json")

    public static let steps = CommandHelp(
        name: "steps", abstract: "Record a day's steps by hand; a new total for the day replaces the old one.",
        discussion: """
            N is the day's whole total, 0 to \(ActivityDay.maxSteps). A total typed by hand wins over the steps \
            imported for that day. With activity.step_goal set, the day is shown against it. \
            Examples: w8 steps 8000 · w8 steps 12500 --date 2026-11-20
            """)

    public static let activity = CommandHelp(
        name: "activity", abstract: "List the days' steps and distance, newest first.",
        discussion: """
            Only days with steps are listed. The JSON is an array of objects with date (YYYY-MM-DD), steps and \
            distance_m (whole metres). Examples: w8 activity · w8 activity --days 30 --json
            """)

    public static let intake = CommandHelp(
        name: "intake",
        abstract: "List the drinks, meals and snacks you logged, newest first with ids; 'rm ID' removes one.",
        discussion: "Examples: w8 intake · w8 intake --days 7 --json · w8 intake rm 12")

    public static let intakeRemove = CommandHelp(
        name: "rm", abstract: "Remove a logged drink, meal or snack.",
        discussion: "Example: w8 intake rm 12")

    public static let summary = CommandHelp(
        name: "summary", abstract: "Show or send this week's progress summary.",
        discussion: """
            The week is the 7 days up to now. --send posts it as a notification; with --if-due it posts only \
            when the latest scheduled occurrence (summary.day, summary.hour) is due and was not sent by any \
            process yet: the systemd timer's command, safe to run as often as you like. A summary that could not             be shown (no notification server) exits 69 and stays unsent, so the next run sends it.
            Examples: w8 summary · w8 summary --json · w8 summary --send --if-due
            """)

    public static let schedule = CommandHelp(
        name: "schedule", abstract: "List the next time of every enabled event.",
        discussion: """
            The hydration reminder is counted from the last drink logged ('w8 drink'). \
            Example: w8 schedule --json
            """)

    public static let daemon = CommandHelp(
        name: "daemon",
        abstract: "Run the scheduler in the foreground: weekly summary and reminders at their local times.",
        discussion: """
            Logs one line per event to stderr (the journal under systemd). Stops on SIGTERM or SIGINT. \
            Changes to config.toml take effect at once; a summary missed while it was not running is sent \
            once when it starts. Example: systemctl --user enable --now w8trackr.service
            """)

    public static let systemd = CommandHelp(
        name: "systemd",
        abstract: "Install or remove the systemd user units that run the daemon and the weekly summary.",
        discussion: "Example: w8 systemd install")

    public static let systemdInstall = CommandHelp(
        name: "install",
        abstract: "Write the units for this w8 to $XDG_CONFIG_HOME/systemd/user, then enable and start them.",
        discussion: """
            Then runs 'systemctl --user daemon-reload' and '\(SystemdInstaller.enableCommand)'. Without a \
            reachable user manager (containers, ssh) the files stay, enabled for the next graphical session if \
            systemctl is there, and a warning says what to run later. \
            Run it again after moving w8; it is safe to repeat. Example: w8 systemd install
            """)

    public static let systemdUninstall = CommandHelp(
        name: "uninstall",
        abstract: "Stop and disable the units, and remove the unit files that 'w8 systemd install' wrote.",
        discussion: "Your data and config.toml stay. Example: w8 systemd uninstall")

    public static let systemdPrint = CommandHelp(
        name: "print", abstract: "Print the units, with ExecStart= running this w8 or --executable.",
        discussion: """
            For packaging and checks. Example: w8 systemd print --executable /usr/bin/w8 w8trackr.service
            """)

    public static let export = CommandHelp(
        name: "export", abstract: "Write every entry as CSV, or everything as a JSON backup.",
        discussion: Exporter.help)

    public static let `import` = CommandHelp(
        name: "import", abstract: "Read weigh-ins from a file: another app's export, a CSV, or a W8Trackr backup.",
        discussion: Importer.help)

    public static let w8 = CommandHelp(
        name: "w8", abstract: "Track your weight and get desktop notifications at your goal's milestones.",
        discussion: """
            Data: $XDG_DATA_HOME/w8trackr/w8trackr.sqlite. Settings: $XDG_CONFIG_HOME/w8trackr/config.toml.
            Exit codes: 0 success, 64 usage error, 65 bad data, 66 input file unreadable, \
            69 notification server or systemd unavailable, 73 cannot create a file, 74 database error, 78 bad config file.
            """)

    public static let widget = CommandHelp(
        name: "widget", abstract: "Your weight, 7-day trend, goal progress and today's water for a status bar.",
        discussion: """
            Formats: text (one line, '175.0 lb ↓ 25%'), json (the widget entry, with water_ml and water_goal_ml), waybar (a custom module's \
            JSON line: text, tooltip with today's water against intake.water_goal_ml, class = the trend, \
            percentage = progress capped 0 to 100), i3blocks \
            (full and short text lines), polybar (one line). Set 'w8 config widget.signal N' and "signal": N \
            in the waybar module to refresh it on every change. Example: w8 widget --format waybar
            """)
}
