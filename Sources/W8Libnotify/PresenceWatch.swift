import CLibnotify
import CW8Linux
import CW8X11
import Foundation
import Synchronization
import W8Core

/// Whether the person is at the screen, read from the desktop's own signals (issue 39): logind's `LockedHint` and
/// `PrepareForSleep` on the system bus; on the session bus, the Do Not Disturb of dunst (`paused`), swaync
/// (`GetDnd`), Plasma (`Inhibited`), mako (its `do-not-disturb` mode), xfce4-notifyd (xfconf `/do-not-disturb`) and
/// GNOME (`show-banners`); and idle time from GNOME's idle monitor, the X server, or a `swayidle` child under other
/// Wayland compositors (sway, KWin). Event-driven: every signal is a `PropertiesChanged`, a signal
/// of its own or a name watch, dispatched by the libnotify thread's loop, which sleeps in `poll()` between them.
/// mako 1.7 has no signal for its modes: they are read when a reminder falls due, and once a minute only while
/// its Do Not Disturb holds.
public final class PresenceWatch: Sendable {
    private struct Reading {
        var readable = false
        var away: AwayReason?
        var since: Date?
    }

    /// The signals, in the order `w8 doctor` lists them.
    static let names = [
        Signal.locked, .sleep, .gnomeIdle, .x11Idle, .waylandIdle, .gnomeBanners, .plasma, .dunst, .swaync, .mako,
        .xfce,
    ]

    enum Signal: String, Sendable {
        case locked = "logind LockedHint"
        case sleep = "logind PrepareForSleep"
        case gnomeIdle = "GNOME idle monitor"
        case x11Idle = "X11 idle time"
        case waylandIdle = "Wayland idle timeout (swayidle)"
        case gnomeBanners = "GNOME show-banners"
        case plasma = "Plasma Inhibited"
        case dunst = "dunst paused"
        case swaync = "swaync GetDnd"
        case mako = "mako do-not-disturb mode"
        case xfce = "xfce4-notifyd do-not-disturb"

        var reason: AwayReason {
            switch self {
            case .locked: .locked
            case .sleep: .suspended
            case .gnomeIdle, .x11Idle, .waylandIdle: .idle
            case .gnomeBanners: .doNotDisturb("GNOME")
            case .plasma: .doNotDisturb("Plasma")
            case .dunst: .doNotDisturb("dunst")
            case .swaync: .doNotDisturb("swaync")
            case .mako: .doNotDisturb("mako")
            case .xfce: .doNotDisturb("xfce4-notifyd")
            }
        }
    }

    let awayAfter: TimeInterval
    let clock: @Sendable () -> Date
    let changed: @Sendable ([PresenceSignal]) -> Void
    private let readings = Mutex<[Signal: Reading]>([:])
    private let started = Mutex(false)

    /// - Parameters:
    ///   - awayAfter: the seconds without input after which the person is idle.
    ///   - changed: called on the libnotify thread whenever the person goes away or comes back, or a source appears
    ///     or vanishes, with every signal as `signals()` gives them.
    public init(
        awayAfter: TimeInterval, clock: @escaping @Sendable () -> Date,
        changed: @escaping @Sendable ([PresenceSignal]) -> Void = { _ in }
    ) {
        self.awayAfter = awayAfter
        self.clock = clock
        self.changed = changed
    }

    /// Reads every signal once and watches them from now on; returns when the first readings are in.
    /// - Parameter idleChild: whether a `swayidle` child may watch idle time under Wayland; a one-shot run starts
    ///   none, since a new child's idle time starts at nought and could never say idle.
    public func start(deadline: TimeInterval = 10, idleChild: Bool = true) throws(LibnotifyError) {
        try LibnotifyThread.process.run(deadline: deadline) { [self] _ in
            let sources = PresenceSources(watch: self, idleChild: idleChild)
            PresenceSources.current = sources
            sources.start()
        }
    }

    /// `presence()`, the watch started at the first call: for a one-shot command that may need none.
    public func presenceOnceStarted() -> Presence {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        if first { try? start(idleChild: false) }
        return presence()
    }

    /// What the signals say now; mako's modes are read first, since they send no signal.
    public func presence() -> Presence {
        if readings.withLock({ $0[.mako]?.readable == true }) {
            _ = try? LibnotifyThread.process.run(deadline: 3) { _ in PresenceSources.current?.refreshMako() }
        }
        return readings.withLock { readings in
            var presence = Presence()
            for reading in readings.values {
                if let away = reading.away, let since = reading.since { presence.begin(away, at: since) }
            }
            return presence
        }
    }

    /// Every signal, readable or not, as `w8 doctor` lists them.
    public func signals() -> [PresenceSignal] {
        readings.withLock { readings in
            Self.names.map {
                let reading = readings[$0] ?? Reading()
                return PresenceSignal(
                    name: $0.rawValue, readable: reading.readable, away: reading.away, since: reading.since)
            }
        }
    }

    /// The signals that can be read, and what they say, in one line for the daemon's log.
    public static func describe(_ signals: [PresenceSignal]) -> String {
        let readable = signals.filter(\.readable)
        guard !readable.isEmpty else { return "no signal can be read here; reminders come at their time" }
        return readable.map { "\($0.name) \($0.away == nil ? "here" : "away")" }.joined(separator: ", ")
    }

    /// Records what `signal` says: nil when it cannot be read, else whether it says away.
    func set(_ signal: Signal, away: Bool?) {
        let moved = readings.withLock { readings -> Bool in
            let before = readings[signal]?.away != nil
            let wasReadable = readings[signal]?.readable == true
            var reading = readings[signal] ?? Reading()
            reading.readable = away != nil
            if away == true {
                if reading.away == nil { reading.since = clock() }
                reading.away = signal.reason
            } else {
                reading.away = nil
                reading.since = nil
            }
            readings[signal] = reading
            // A source that appears or vanishes counts too: a server that restarted may take what is held.
            return before != (reading.away != nil) || wasReadable != reading.readable
        }
        if moved { changed(signals()) }
    }

    func isAway(_ signal: Signal) -> Bool { readings.withLock { $0[signal]?.away != nil } }

    func isReadable(_ signal: Signal) -> Bool { readings.withLock { $0[signal]?.readable == true } }
}

/// The connections and watches behind a `PresenceWatch`, made and used on the libnotify thread only, and kept for
/// the life of the process (the signal and name handlers hold it).
private final class PresenceSources {
    /// The sources of this process's watch (the daemon has one), touched on the libnotify thread only.
    nonisolated(unsafe) static var current: PresenceSources?

    let watch: PresenceWatch
    let session: Bus?
    /// What the notification server calls itself, which says whose Do Not Disturb counts (xfconf's, GNOME's).
    var serverName: String?
    var settings: OpaquePointer?
    /// Mutter's watches: the idle one at `away_after`, and the one-shot user-active one while idle.
    var idleWatches: (idle: UInt32?, active: UInt32?) = (nil, nil)
    var makoTimer: UInt32 = 0
    /// The session whose `LockedHint` is watched.
    var sessionPath: String?
    /// Whether a `swayidle` child may be started; the one started, and its output not yet read as lines.
    let idleChild: Bool
    var swayidle: (pid: pid_t, output: Int32)?
    var swayidleOutput: [UInt8] = []

    init(watch: PresenceWatch, idleChild: Bool) {
        self.watch = watch
        self.idleChild = idleChild
        session = Bus.connect(G_BUS_TYPE_SESSION)
    }

    func start() {
        if let system = Bus.connect(G_BUS_TYPE_SYSTEM) {
            watchLogind(system)
        } else {
            watch.set(.locked, away: nil)
            watch.set(.sleep, away: nil)
        }
        watchX11Idle()
        watchWaylandIdle()
        guard let session else {
            for signal in PresenceWatch.names where ![.locked, .sleep, .x11Idle, .waylandIdle].contains(signal) {
                watch.set(signal, away: nil)
            }
            return
        }
        watchNotificationServer(session)
        watchSwaync(session)
        watchXfconf(session)
        watchMutterIdle(session)
    }

    // logind

    static let login1 = "org.freedesktop.login1"

    /// `PrepareForSleep` on the manager; `LockedHint` on the session that the user object's `Display` names,
    /// watched on that session's own path (logind sends no signal on `session/auto`).
    func watchLogind(_ bus: Bus) {
        bus.subscribe(
            sender: Self.login1, interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            path: "/org/freedesktop/login1"
        ) { [self] _, parameters in
            watch.set(.sleep, away: parameters[0]?.bool ?? false)
        }
        bus.subscribe(
            sender: Self.login1, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: nil
        ) { [self] _, parameters in
            guard parameters[0]?.string == "org.freedesktop.login1.Session", sessionPath != nil else { return }
            if let locked = parameters[1]?.value(forKey: "LockedHint")?.bool {
                watch.set(.locked, away: locked)
            } else if parameters[2]?.strings.contains("LockedHint") == true {
                readLocked(bus)
            }
        }
        bus.watch(
            Self.login1, appeared: { [self] in readLocked(bus) },
            vanished: { [self] in
                sessionPath = nil
                watch.set(.locked, away: nil)
                watch.set(.sleep, away: nil)
            })
        readLocked(bus)
    }

    func readLocked(_ bus: Bus) {
        let user = bus.call(
            Self.login1, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetUser",
            [g_variant_new_uint32(getuid())])?[0]?.string
        let display = user.flatMap { bus.property(Self.login1, $0, "org.freedesktop.login1.User", "Display") }
        guard let path = display?[1]?.string, path != "/" else {
            sessionPath = nil
            watch.set(.locked, away: nil)
            // PrepareForSleep needs no session: it is readable while logind is there.
            watch.set(.sleep, away: user == nil ? nil : watch.isAway(.sleep))
            return
        }
        sessionPath = path
        let locked = bus.property(Self.login1, path, "org.freedesktop.login1.Session", "LockedHint")?.bool
        watch.set(.locked, away: locked)
        watch.set(.sleep, away: watch.isAway(.sleep))
    }

    // The notification server: dunst, Plasma, mako; and whose server it is, for xfconf's and GNOME's settings.

    static let notifications = "org.freedesktop.Notifications"
    static let notificationsPath = "/org/freedesktop/Notifications"

    func watchNotificationServer(_ bus: Bus) {
        bus.subscribe(
            sender: Self.notifications, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: Self.notificationsPath
        ) { [self] _, parameters in
            switch parameters[0]?.string {
            case "org.dunstproject.cmd0":
                if let paused = parameters[1]?.value(forKey: "paused")?.bool { watch.set(.dunst, away: paused) }
            case Self.notifications:
                if let inhibited = parameters[1]?.value(forKey: "Inhibited")?.bool {
                    watch.set(.plasma, away: inhibited)
                }
            default: break
            }
        }
        bus.watch(
            Self.notifications, appeared: { [self] in readNotificationServer(bus) },
            vanished: { [self] in
                serverName = nil
                for signal in [PresenceWatch.Signal.dunst, .plasma, .mako, .xfce, .gnomeBanners] {
                    watch.set(signal, away: nil)
                }
                stopMakoTimer()
            })
        readNotificationServer(bus)
    }

    func readNotificationServer(_ bus: Bus) {
        serverName =
            bus.call(
                Self.notifications, Self.notificationsPath, Self.notifications, "GetServerInformation")?[0]?.string
        let paused = bus.property(Self.notifications, Self.notificationsPath, "org.dunstproject.cmd0", "paused")
        watch.set(.dunst, away: paused?.bool)
        let inhibited = bus.property(Self.notifications, Self.notificationsPath, Self.notifications, "Inhibited")
        watch.set(.plasma, away: inhibited?.bool)
        refreshMako()
        readXfconf(bus)
        readBanners()
    }

    /// mako's modes, read again when asked (`PresenceWatch.presence`), since mako 1.7 sends no signal for them.
    func refreshMako() {
        let modes = session?.call(Self.notifications, "/fr/emersion/Mako", "fr.emersion.Mako", "ListModes")?[0]
        watch.set(.mako, away: modes.map { $0.strings.contains("do-not-disturb") })
        if watch.isAway(.mako) { startMakoTimer() }
    }

    /// Reads mako's modes once a minute while its Do Not Disturb holds, to show what was held when it ends; no
    /// timer runs otherwise.
    func startMakoTimer() {
        guard makoTimer == 0 else { return }
        makoTimer = g_timeout_add_seconds(
            60,
            { data in
                let sources = Unmanaged<PresenceSources>.fromOpaque(data!).takeUnretainedValue()
                sources.refreshMako()
                guard sources.watch.isAway(.mako) else {
                    sources.makoTimer = 0
                    return 0
                }
                return 1
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    func stopMakoTimer() {
        if makoTimer != 0 { _ = g_source_remove(makoTimer) }
        makoTimer = 0
    }

    // swaync

    static let swaync = "org.erikreider.swaync.cc"
    static let swayncPath = "/org/erikreider/swaync/cc"

    /// `GetDnd`, read again on each of swaync's `Subscribe` signals (which it sends when Do Not Disturb changes).
    func watchSwaync(_ bus: Bus) {
        bus.subscribe(sender: Self.swaync, interface: Self.swaync, member: nil, path: Self.swayncPath) {
            [self] member, parameters in
            // Subscribe and SubscribeV2: (count, dnd, cc_open[, inhibited]).
            if member.hasPrefix("Subscribe"), let dnd = parameters[1]?.bool {
                watch.set(.swaync, away: dnd || parameters[3]?.bool == true)
            }
        }
        bus.watch(
            Self.swaync, appeared: { [self] in readSwaync(bus) },
            vanished: { [self] in watch.set(.swaync, away: nil) })
        readSwaync(bus)
    }

    func readSwaync(_ bus: Bus) {
        let dnd = bus.call(Self.swaync, Self.swayncPath, Self.swaync, "GetDnd")?[0]?.bool
        let inhibited = bus.call(Self.swaync, Self.swayncPath, Self.swaync, "IsInhibited")?[0]?.bool
        watch.set(.swaync, away: dnd.map { $0 || inhibited == true })
    }

    // xfce4-notifyd's xfconf setting, which counts while xfce4-notifyd is the server

    static let xfconf = "org.xfce.Xfconf"

    func watchXfconf(_ bus: Bus) {
        bus.subscribe(sender: Self.xfconf, interface: Self.xfconf, member: nil, path: "/org/xfce/Xfconf") {
            [self] member, parameters in
            guard parameters[0]?.string == "xfce4-notifyd", parameters[1]?.string == "/do-not-disturb" else { return }
            guard serverName == "Xfce Notify Daemon" else { return }
            switch member {
            case "PropertyChanged": watch.set(.xfce, away: parameters[2]?.unboxed.bool ?? false)
            case "PropertyRemoved": watch.set(.xfce, away: false)
            default: break
            }
        }
        bus.watch(
            Self.xfconf, appeared: { [self] in readXfconf(bus) }, vanished: { [self] in watch.set(.xfce, away: nil) })
    }

    func readXfconf(_ bus: Bus) {
        guard serverName == "Xfce Notify Daemon" else { return watch.set(.xfce, away: nil) }
        guard
            bus.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                [g_variant_new_string(Self.xfconf)])?[0]?.bool == true
        else { return watch.set(.xfce, away: nil) }
        // An unset property is an error: Do Not Disturb is off.
        let value = bus.call(
            Self.xfconf, "/org/xfce/Xfconf", Self.xfconf, "GetProperty",
            [g_variant_new_string("xfce4-notifyd"), g_variant_new_string("/do-not-disturb")])?[0]?.unboxed.bool
        watch.set(.xfce, away: value ?? false)
    }

    // GNOME: show-banners, while GNOME Shell is the server; Mutter's idle monitor

    func readBanners() {
        guard serverName == "gnome-shell" else { return watch.set(.gnomeBanners, away: nil) }
        if settings == nil {
            guard let source = g_settings_schema_source_get_default(),
                let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.notifications", 1)
            else { return watch.set(.gnomeBanners, away: nil) }
            let hasKey = g_settings_schema_has_key(schema, "show-banners") != 0
            g_settings_schema_unref(schema)
            guard hasKey, let made = g_settings_new("org.gnome.desktop.notifications") else {
                return watch.set(.gnomeBanners, away: nil)
            }
            settings = made
            let changed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = {
                _, _, data in
                Unmanaged<PresenceSources>.fromOpaque(data!).takeUnretainedValue().readBanners()
            }
            _ = g_signal_connect_data(
                UnsafeMutableRawPointer(made), "changed::show-banners", unsafeBitCast(changed, to: GCallback.self),
                Unmanaged.passUnretained(self).toOpaque(), nil, 0)
        }
        watch.set(.gnomeBanners, away: g_settings_get_boolean(settings, "show-banners") == 0)
    }

    /// The X server's idle time, in an X11 session (not under Wayland, where Xwayland sees only X clients' input):
    /// XSync alarms at `away_after` and back below it, on the X connection's descriptor in this thread's loop.
    func watchX11Idle() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"]?.isEmpty == false, environment["WAYLAND_DISPLAY"] == nil,
            environment["XDG_SESSION_TYPE"] != "wayland"
        else { return watch.set(.x11Idle, away: nil) }
        let descriptor = cw8x11_idle_open(UInt(watch.awayAfter * 1000))
        guard descriptor >= 0 else { return watch.set(.x11Idle, away: nil) }
        watch.set(.x11Idle, away: cw8x11_idle_now() == 1)
        _ = g_unix_fd_add(
            descriptor, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue),
            { _, _, data in
                let sources = Unmanaged<PresenceSources>.fromOpaque(data!).takeUnretainedValue()
                switch cw8x11_idle_dispatch() {
                case 1: sources.watch.set(.x11Idle, away: true)
                case 0: sources.watch.set(.x11Idle, away: false)
                case -2:
                    sources.watch.set(.x11Idle, away: nil)
                    return 0
                default: break
                }
                return 1
            }, Unmanaged.passUnretained(self).toOpaque())
        // Events that arrived while the alarms were made.
        switch cw8x11_idle_dispatch() {
        case 1: watch.set(.x11Idle, away: true)
        case 0: watch.set(.x11Idle, away: false)
        default: break
        }
    }

    /// What the `swayidle` child's commands print when the session becomes idle and when input comes back.
    static let idleLine = "w8-idle"
    static let activeLine = "w8-active"

    /// Idle time under a Wayland compositor that offers an idle protocol (`ext-idle-notify-v1`, or KDE's
    /// `org_kde_kwin_idle`, which sway 1.7 and KWin have): a `swayidle` child, as Safe Eyes runs it, with one
    /// timeout at `away_after` whose commands print a line to this thread, and no configuration of the person's
    /// (`-C /dev/null`: their own swayidle's lock commands do not run twice). It dies with this thread
    /// (`cw8_spawn_tied`). Readable once it says it registered the timeout (`-d`); a compositor without the protocol
    /// (GNOME's Mutter) makes it exit at once, and the signal stays unreadable. Its idle time starts at nought.
    func watchWaylandIdle() {
        let environment = ProcessInfo.processInfo.environment
        guard idleChild, environment["WAYLAND_DISPLAY"]?.isEmpty == false,
            let path = Self.executable("swayidle", in: environment["PATH"] ?? "/usr/bin:/bin")
        else { return watch.set(.waylandIdle, away: nil) }
        let seconds = max(1, Int(watch.awayAfter.rounded()))
        let arguments = [
            path, "-C", "/dev/null", "-d", "-w", "timeout", String(seconds), "echo \(Self.idleLine)", "resume",
            "echo \(Self.activeLine)",
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        var output: Int32 = -1
        let pid = cw8_spawn_tied(path, &argv, &output)
        for argument in argv { free(argument) }
        guard pid > 0 else { return watch.set(.waylandIdle, away: nil) }
        swayidle = (pid, output)
        // The first reading, so that `start` returns with it: the timeout registered, or the child gone.
        let until = Date().addingTimeInterval(2)
        while swayidle != nil, !watch.isReadable(.waylandIdle), Date() < until {
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(max(1, until.timeIntervalSinceNow * 1000)))
            readSwayidle()
        }
        guard swayidle != nil else { return }
        _ = g_unix_fd_add(
            output, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue),
            { _, _, data in
                let sources = Unmanaged<PresenceSources>.fromOpaque(data!).takeUnretainedValue()
                sources.readSwayidle()
                return sources.swayidle == nil ? 0 : 1
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Reads what the `swayidle` child printed, line by line; at its end, reaps it and the signal is unreadable.
    func readSwayidle() {
        guard let child = swayidle else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(child.output, &chunk, chunk.count)
            if count > 0 {
                swayidleOutput += chunk[..<count]
                while let end = swayidleOutput.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: swayidleOutput[..<end], as: UTF8.self)
                    swayidleOutput.removeSubrange(...end)
                    switch line {
                    case Self.idleLine: watch.set(.waylandIdle, away: true)
                    case Self.activeLine: watch.set(.waylandIdle, away: false)
                    default:
                        if line.contains("] Register with timeout:") || line.contains("] Not enabling timeouts") {
                            watch.set(.waylandIdle, away: watch.isAway(.waylandIdle))
                        }
                    }
                }
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                return
            } else {
                close(child.output)
                var status: Int32 = 0
                while waitpid(child.pid, &status, 0) < 0, errno == EINTR {}
                swayidle = nil
                swayidleOutput = []
                return watch.set(.waylandIdle, away: nil)
            }
        }
    }

    /// The first executable file named `name` in `path`'s directories.
    static func executable(_ name: String, in path: String) -> String? {
        path.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    static let idleMonitor = "org.gnome.Mutter.IdleMonitor"
    static let idleMonitorPath = "/org/gnome/Mutter/IdleMonitor/Core"

    /// An idle watch at `away_after` (Mutter fires it each time the idle time reaches it), then a one-shot
    /// user-active watch for the return.
    func watchMutterIdle(_ bus: Bus) {
        bus.subscribe(
            sender: Self.idleMonitor, interface: Self.idleMonitor, member: "WatchFired", path: Self.idleMonitorPath
        ) { [self] _, parameters in
            guard let id = parameters[0]?.unsigned.map({ UInt32($0) }) else { return }
            if id == idleWatches.idle {
                watch.set(.gnomeIdle, away: true)
                addActiveWatch(bus)
            } else if id == idleWatches.active {
                idleWatches.active = nil
                watch.set(.gnomeIdle, away: false)
            }
        }
        bus.watch(
            Self.idleMonitor, appeared: { [self] in readIdle(bus) },
            vanished: { [self] in
                idleWatches = (nil, nil)
                watch.set(.gnomeIdle, away: nil)
            })
        readIdle(bus)
    }

    func readIdle(_ bus: Bus) {
        let milliseconds = UInt64(watch.awayAfter * 1000)
        guard
            let idle = bus.call(Self.idleMonitor, Self.idleMonitorPath, Self.idleMonitor, "GetIdletime")?[0]?
                .unsigned
        else { return watch.set(.gnomeIdle, away: nil) }
        if idleWatches.idle == nil {
            idleWatches.idle = bus.call(
                Self.idleMonitor, Self.idleMonitorPath, Self.idleMonitor, "AddIdleWatch",
                [g_variant_new_uint64(milliseconds)])?[0]?.unsigned.map { UInt32($0) }
        }
        watch.set(.gnomeIdle, away: idle >= milliseconds)
        if idle >= milliseconds { addActiveWatch(bus) }
    }

    func addActiveWatch(_ bus: Bus) {
        guard idleWatches.active == nil else { return }
        idleWatches.active = bus.call(Self.idleMonitor, Self.idleMonitorPath, Self.idleMonitor, "AddUserActiveWatch")?[
            0]?
            .unsigned.map { UInt32($0) }
    }
}
