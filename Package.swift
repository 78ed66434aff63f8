// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "W8Trackr",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "w8", targets: ["w8"]),
        .library(name: "W8Core", targets: ["W8Core"]),
        // For the fuzz targets in Fuzz/, a package of their own: they read the files people import through W8Formats.
        .library(name: "W8Formats", targets: ["W8Formats"]),
    ],
    // Pinned with `exact:`, as an application pins what it ships: Package.resolved cannot be committed here (the
    // local package mirror's commit ids are not GitHub's), and with `from:` the .deb, the bench and CI could each
    // resolve another GRDB, argument parser or swift-system than the one the tests passed with. A new version is
    // taken on purpose, here, with the tests run on it.
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
    ],
    targets: [
        // Pure domain: entries, units, goals, progress, milestones, intake, settings, the chart's picture.
        // Foundation only, no I/O: time, calendar, time zone and environment are passed in.
        .target(name: "W8Core", dependencies: ["W8Text"]),
        // Other apps' and our own file formats, read as their bytes arrive: the import layouts (W8Trackr CSV, the
        // iPhone app's CSV and JSON, openScale, Libra, TrendWeight, date,weight), the CSV reader and writer, the JSON
        // backup and its stream, and the TOML config document. Foundation and W8Core only.
        // Apple Health's ZIP through its central directory, inflated with zlib (CZlib): ZipMember.
        .target(name: "W8Formats", dependencies: ["W8Core", "W8Text", "CZlib"]),
        // SQLite through GRDB. The only module that imports GRDB. It stores and applies no rule: a workflow runs its
        // change, the milestone rules included, in one `StoreTransaction`.
        .target(
            name: "W8Store",
            dependencies: [
                "W8Core", "W8System", "W8Text", "CW8SQLite", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // The SQLite calls Swift cannot make (variadic), as small C functions; only W8Store imports it.
        .target(name: "CW8SQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libnotify's, GIO's and GLib's C API, loaded with dlopen when a notification is posted, closed or asked
        // about: the commands that post nothing never load libnotify, gdk-pixbuf, GIO and GLib; `add`, `edit` and
        // `rm` start that load before main (load_early.c, a start-up trick). Only W8Libnotify imports it.
        .target(name: "CLibnotify", dependencies: ["CDynamicLibrary", "CW8Linux"]),
        // What CCairo and CLibnotify share: a library's functions resolved with dlopen and dlsym, once per process.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
        // The NotificationSink that posts real desktop notifications through libnotify, the one route to the server.
        .target(name: "W8Libnotify", dependencies: ["W8Core", "W8Text", "CLibnotify", "CW8Linux", "CW8X11"]),
        // The X server's idle time (XSync's IDLETIME alarms) for the presence watch; libX11 and libXext dlopened.
        .target(name: "CW8X11", dependencies: ["CDynamicLibrary"]),
        // Linux calls Glibc's Swift module does not export (timerfd, signalfd, eventfd, inotify, the signal mask,
        // SIGRTMIN) and stdout's flush, as small C wrappers; and one start-up trick in a file of its own, a thread
        // started on another CPU, or parked before main for that (thread_elsewhere.c, parked_thread.c;
        // bench/README.md, "Start-up tricks").
        .target(name: "CW8Linux"),
        // gettext's calls (libintl.h, which Glibc's Swift module does not export) and the locale's day, month and
        // decimal-separator data, as small C functions; W8Text is their Swift face: tr, trn and the locale's names.
        .target(name: "CW8Gettext"),
        .target(name: "W8Text", dependencies: ["CW8Gettext"]),
        // The small POSIX layer every module's file and system calls go through: errors that carry the call and
        // errno, the EINTR retry, and the durable atomic file writer (its descriptors through swift-system).
        .target(name: "W8System", dependencies: ["W8Text", .product(name: "SystemPackage", package: "swift-system")]),
        // The scheduler thread: sleeps until the next event by the wall clock, wakes on config changes.
        .target(name: "W8Scheduler", dependencies: ["W8Core", "W8App", "CW8Linux", "W8System"]),
        // Test doubles and fixtures shipped as a real target (like swift-log's InMemoryLogHandler): the in-memory
        // sink, temporary directories and databases, calendars pinned to time zones, the seeded generator.
        .target(name: "W8TestSupport", dependencies: ["W8Core", "W8Store"]),
        // The workflows: Tracker (each change and its milestone rules in one write transaction), IntakeLog,
        // EventRunner, import and export, the charts (through the ChartDrawer interface), the systemd installer, the
        // config file, paths and the XDG and D-Bus service directories, and the presentation (text and JSON reports).
        .target(
            name: "W8App", dependencies: ["W8Core", "W8Formats", "W8Store", "CW8Linux", "W8System", "W8Text"]),
        // zlib's inflate and crc32, for the deflated export inside Apple Health's export.zip; only W8Formats
        // imports it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // cairo's C API, for the chart image, loaded with dlopen when a chart is drawn: the commands that draw none
        // never load cairo and X11. Only W8Chart imports it (its tests too, to decode the PNGs).
        .target(name: "CCairo", dependencies: ["CDynamicLibrary"]),
        // The weight chart (W8Core's ChartPicture) as a PNG or SVG file, drawn with cairo, and as text for a
        // terminal; W8Runtime wires it into W8App's ChartDrawer.
        .target(name: "W8Chart", dependencies: ["W8Core", "W8Text", "CCairo", "W8System"]),
        // The composition root, as isowords' bootstrap: the environment a command runs in (the clock's reading,
        // the calendar, the paths, the database, the sink, W8Chart as the chart drawer), wired into W8App's
        // workflows; the only place that reads the clock, the time zone and the environment. It neither prints
        // nor exits.
        .target(
            name: "W8Runtime",
            dependencies: [
                "W8Core", "W8Text", "W8Store", "W8App", "W8Libnotify", "W8Scheduler", "W8Chart", "CW8Linux",
            ]),
        // The command line: parse, one call into W8App through the Runtime, print, exit; owns the daemon's thread.
        .executableTarget(
            name: "w8",
            dependencies: [
                "W8Core", "W8Formats", "W8App", "W8Scheduler", "W8Runtime", "CW8Linux", "W8Text",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "W8TextTests", dependencies: ["W8Text"]),
        .testTarget(name: "W8CoreTests", dependencies: ["W8Core", "W8TestSupport"]),
        .testTarget(name: "W8FormatsTests", dependencies: ["W8Core", "W8Formats", "W8TestSupport"]),
        .testTarget(name: "W8StoreTests", dependencies: ["W8Core", "W8Store", "W8TestSupport", "W8TestHarness"]),
        .testTarget(
            name: "W8SchedulerTests", dependencies: ["W8Core", "W8App", "W8Scheduler", "W8System", "W8TestSupport"]),
        .testTarget(name: "W8AppTests", dependencies: ["W8Core", "W8Formats", "W8Store", "W8App", "W8TestSupport"]),
        .testTarget(name: "W8SystemTests", dependencies: ["W8System", "W8TestSupport"]),
        .testTarget(name: "W8ChartTests", dependencies: ["W8Core", "W8Chart", "CCairo", "W8TestSupport"]),
        .testTarget(
            name: "W8CLITests", dependencies: ["W8Core", "W8Formats", "W8Text", "W8TestSupport", "W8TestHarness"]),
        // Test-only, not shipped: the sandbox that runs the built w8, faults, and real desktops on private session
        // buses (Xvfb, sway, dunst and the other servers, waybar, screenshots), one file per server.
        .target(
            name: "W8TestHarness", dependencies: ["W8Core", "W8Libnotify", "W8TestSupport"],
            path: "Tests/W8TestHarness"),
        // Test-only: drives LibnotifyNotificationSink in its own process, with the session bus of its environment.
        .executableTarget(
            name: "w8-notify-probe",
            dependencies: ["W8Core", "W8App", "W8Libnotify", "W8TestSupport", "W8TestHarness"],
            path: "Tests/w8-notify-probe"),
        .testTarget(
            name: "W8LibnotifyTests",
            dependencies: [
                "W8Core", "W8Libnotify", "CLibnotify", "W8TestSupport", "W8TestHarness", "w8-notify-probe",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
