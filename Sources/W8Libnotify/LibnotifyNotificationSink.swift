import CLibnotify
import Foundation
import Synchronization
import W8Core

/// What a notification server says about itself, for `w8 doctor`.
public struct NotificationServerInfo: Sendable, Equatable, Codable {
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String
    public var capabilities: [String]

    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: [String]) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }
}

/// A `NotificationSink` that shows real desktop notifications through libnotify: the one route to the server.
///
/// Every libnotify call runs on one thread the process shares (libnotify's state is global); each call waits for
/// that thread at most `deadline` seconds and then throws `LibnotifyError.timedOut`. Between calls that thread runs
/// GLib's main context, where libnotify hears `ActionInvoked` and `NotificationClosed`.
public final class LibnotifyNotificationSink: NotificationSink {
    public let deadline: TimeInterval
    /// Directories searched for installed themed icons, in order (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`).
    public let dataDirectories: [String]
    /// Where the session bus finds the servers it starts, to name one that failed to start.
    public let serviceDirectories: [String]
    /// `$DBUS_SESSION_BUS_ADDRESS`, to explain a missing bus; nil when it is unset.
    public let sessionBusAddress: String?
    /// Who hears pressed buttons; without one, notifications are posted without their buttons.
    private let actionHandler = Mutex<(@Sendable (NotificationActionPress) -> Void)?>(nil)

    /// - Parameters:
    ///   - deadline: the longest a `post`, `close` or `serverInfo` waits for the notification server.
    ///   - dataDirectories: where themed icons may be installed; `XDGDirectories.dataSearchPath`.
    ///   - serviceDirectories: the session bus's `.service` directories; see
    ///     `XDGDirectories.sessionServiceDirectories`.
    ///   - sessionBusAddress: `$DBUS_SESSION_BUS_ADDRESS`, or nil when it is unset.
    public init(
        deadline: TimeInterval = 2.0, dataDirectories: [String], serviceDirectories: [String] = [],
        sessionBusAddress: String?
    ) {
        self.deadline = deadline
        self.dataDirectories = dataDirectories
        self.serviceDirectories = serviceDirectories
        self.sessionBusAddress = sessionBusAddress
    }

    /// Starts libnotify's thread, which loads libnotify and connects to the session bus, and returns at once: a
    /// post that follows finds that done. For the composition root, which knows when a post will follow.
    public static func connectInBackground() {
        LibnotifyThread.process.connectInBackground()
    }

    /// Shows `notification` and returns the server's id for it.
    ///
    /// Underneath: `notify_notification_new`, `notify_notification_set_*`, `notify_notification_show`, and
    /// `g_object_get (…, "id")`. With `replacesID` set, the server replaces that notification and keeps its id.
    /// With `replacesOpen`, it replaces the previous notification of its `key` that this process posted, and only
    /// while the server has not closed it: libnotify hears `NotificationClosed` and forgets the id, and then a new
    /// notification is posted (Plasma shows nothing for a `replaces_id` it has closed).
    public func post(_ notification: DesktopNotification) throws(LibnotifyError) -> UInt32 {
        let icon = resolveIcon(notification.icon)
        let handler = notification.actions.isEmpty ? nil : actionHandler.withLock { $0 }
        return try run { context throws(LibnotifyError) in
            try context.connect()
            // The capabilities are asked only when they matter: a body with nothing to escape, no image and no
            // buttons (a milestone) is posted without that round trip to the server.
            let needsEscaping = notification.body.contains { $0 == "&" || $0 == "<" || $0 == ">" }
            let body =
                needsEscaping && context.serverReadsMarkup() ? Self.escapeMarkup(notification.body) : notification.body
            guard let handle = notify_notification_new(notification.title, body, icon) else {
                throw .serverError("notify_notification_new failed")
            }
            defer { g_object_unref(handle) }
            // The previous one of this key: replaced while still open, and no longer heard (a press reaches only
            // the newest).
            let previous = context.posted.removeValue(forKey: notification.key)
            let openID = previous.map { UInt32(bitPattern: clibnotify_notification_get_id($0)) } ?? 0
            if let previous { g_object_unref(previous) }
            if let replacesID = notification.replacesID {
                clibnotify_notification_set_id(handle, gint(bitPattern: replacesID))
            } else if notification.replacesOpen, openID != 0 {
                clibnotify_notification_set_id(handle, gint(bitPattern: openID))
            }
            notify_notification_set_category(handle, notification.category.rawValue)
            notify_notification_set_urgency(handle, NotifyUrgency(UInt32(notification.urgency.rawValue)))
            notify_notification_set_timeout(handle, Self.timeout(notification.expiry))
            notify_notification_set_hint(
                handle, "desktop-entry", g_variant_new_string(DesktopNotification.desktopEntry))
            for hint in Self.replaceTagHints {
                if let tag = notification.replaceTag {
                    notify_notification_set_hint(handle, hint, g_variant_new_string(tag))
                }
            }
            if let imagePath = notification.imagePath, context.serverShowsImages() {
                // `image-path` for the servers that read a file (dunst, xfce4-notifyd, swaync), `image-data` for
                // those that read only pixels (lxqt-notificationd).
                notify_notification_set_hint(handle, "image-path", g_variant_new_string(imagePath))
                if let pixbuf = gdk_pixbuf_new_from_file(imagePath, nil) {
                    notify_notification_set_image_from_pixbuf(handle, pixbuf)
                    g_object_unref(UnsafeMutableRawPointer(pixbuf))
                }
            }
            let buttons = handler != nil && context.serverShowsActions()
            if let handler, buttons {
                for action in notification.actions {
                    let target = Unmanaged.passRetained(ActionTarget(key: notification.key, handler: handler))
                    notify_notification_add_action(
                        handle, action.id, action.label, actionInvoked, target.toOpaque(), releaseActionTarget)
                }
            }
            var error: UnsafeMutablePointer<GError>?
            guard notify_notification_show(handle, &error) != 0 else {
                throw error.map { GLibError(taking: $0).libnotifyError }
                    ?? .serverError("notify_notification_show failed")
            }
            // Kept alive to hear its buttons and its closing; released when the next of its key is posted.
            if buttons || notification.replacesOpen {
                context.posted[notification.key] = g_object_ref(handle).assumingMemoryBound(
                    to: NotifyNotification.self)
            }
            return UInt32(bitPattern: clibnotify_notification_get_id(handle))
        }
    }

    /// Sets who hears the buttons pressed on notifications posted from now on.
    ///
    /// The handler runs on the libnotify thread (`notify_notification_add_action`'s callback, from
    /// `ActionInvoked`), so it must hand the press on rather than call this sink.
    public func onAction(_ handler: @escaping @Sendable (NotificationActionPress) -> Void) {
        actionHandler.withLock { $0 = handler }
    }

    /// Closes the notification with server id `id`, whichever process showed it.
    ///
    /// Underneath: a `NotifyNotification` whose "id" property is `id`, then `notify_notification_close`.
    public func close(id: UInt32) throws(LibnotifyError) {
        try run { context throws(LibnotifyError) in
            try context.connect()
            guard let handle = notify_notification_new("", nil, nil) else {
                throw .serverError("notify_notification_new failed")
            }
            defer { g_object_unref(handle) }
            clibnotify_notification_set_id(handle, gint(bitPattern: id))
            var error: UnsafeMutablePointer<GError>?
            guard notify_notification_close(handle, &error) != 0 else {
                throw error.map { GLibError(taking: $0).libnotifyError }
                    ?? .serverError("notify_notification_close failed")
            }
        }
    }

    /// Runs `body` on the libnotify thread within `deadline`; a server that failed to start is named from
    /// `serviceDirectories`.
    private func run<T: Sendable>(
        _ body: @escaping @Sendable (inout LibnotifyContext) throws(LibnotifyError) -> T
    ) throws(LibnotifyError) -> T {
        do {
            return try LibnotifyThread.process.run(deadline: deadline, body)
        } catch {
            throw error.namingServers(from: serviceDirectories).onBus(sessionBusAddress)
        }
    }

    /// Asks the session's notification server who it is and what it can do.
    ///
    /// Underneath: `notify_get_server_info` and `notify_get_server_caps`, on the libnotify thread. A server that
    /// failed to start is named from `serviceDirectories`; a missing bus is explained by `sessionBusAddress`
    /// (`$DBUS_SESSION_BUS_ADDRESS`, nil when unset).
    public static func serverInfo(
        deadline: TimeInterval = 2.0, serviceDirectories: [String] = [], sessionBusAddress: String?
    ) throws(LibnotifyError) -> NotificationServerInfo {
        do {
            return try serverInfoOnThread(deadline: deadline)
        } catch {
            throw error.namingServers(from: serviceDirectories).onBus(sessionBusAddress)
        }
    }

    private static func serverInfoOnThread(deadline: TimeInterval) throws(LibnotifyError) -> NotificationServerInfo {
        try LibnotifyThread.process.run(deadline: deadline) { context throws(LibnotifyError) in
            try context.connect()
            var name: UnsafeMutablePointer<CChar>?
            var vendor: UnsafeMutablePointer<CChar>?
            var version: UnsafeMutablePointer<CChar>?
            var specVersion: UnsafeMutablePointer<CChar>?
            guard notify_get_server_info(&name, &vendor, &version, &specVersion) != 0 else {
                throw context.diagnoseServer(timeoutMilliseconds: Int32(min(deadline, 25) * 1000))
            }
            let info = (takeString(name), takeString(vendor), takeString(version), takeString(specVersion))
            guard let capabilities = context.capabilities() else {
                throw context.diagnoseServer(timeoutMilliseconds: Int32(min(deadline, 25) * 1000))
            }
            return NotificationServerInfo(
                name: info.0, vendor: info.1, version: info.2, specVersion: info.3, capabilities: capabilities)
        }
    }

    /// The hints that carry `DesktopNotification.replaceTag`: `x-dunst-stack-tag` (dunst) and
    /// `x-canonical-private-synchronous` (dunst, notify-osd).
    static let replaceTagHints = ["x-dunst-stack-tag", "x-canonical-private-synchronous"]

    /// Escapes `&`, `<` and `>` so that a server reading markup shows `text` as written.
    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The libnotify timeout for `expiry`: `NOTIFY_EXPIRES_DEFAULT`, `NOTIFY_EXPIRES_NEVER` or milliseconds.
    static func timeout(_ expiry: NotificationExpiry) -> gint {
        switch expiry {
        case .serverDefault: clibnotify_expires_default
        case .never: clibnotify_expires_never
        case .milliseconds(let milliseconds): max(1, milliseconds)
        }
    }

    /// The file of the installed icon `name`, or `name` itself when no file is installed (or it is a path).
    ///
    /// Servers resolve a themed name in their own way, and two common ones miss a correct install: dunst skips a
    /// hicolor folder without `index.theme` (as `/usr/local/share/icons/hicolor` is), mako reads only
    /// `/usr/share/icons/hicolor`. Every server tried opens an absolute path, so the file is sent instead.
    /// The first data directory holding any file of `name` wins, as the XDG base directory spec orders them.
    func resolveIcon(_ name: String) -> String {
        guard !name.hasPrefix("/") else { return name }
        for directory in dataDirectories {
            let hicolor = directory + "/icons/hicolor"
            // The best file there can be, looked for first: a 48 px PNG (`iconPreference` puts none before it).
            let preferred = "\(hicolor)/\(Self.preferredIconPixels)x\(Self.preferredIconPixels)/apps/\(name).png"
            if access(preferred, F_OK) == 0 { return preferred }
            guard let sizes = try? FileManager.default.contentsOfDirectory(atPath: hicolor) else { continue }
            let files = sizes.flatMap { size in
                ["png", "svg"].map { "\(hicolor)/\(size)/apps/\(name).\($0)" }
            }
            .filter { (path: String) in access(path, F_OK) == 0 }
            if let best = files.min(by: { Self.iconPreference($0) < Self.iconPreference($1) }) { return best }
        }
        return name
    }

    /// How well an icon file suits a notification; lower is better.
    ///
    /// A 48 px PNG first: 48 px is what xfce4-notifyd and notification-daemon draw, within dunst's default 32–128
    /// and under mako's 64, so no server has to scale it; and every gdk-pixbuf reads PNG, while SVG needs librsvg's
    /// loader. Then the nearest larger PNG (scaling down looks better than up), then smaller ones, then the SVG.
    static func iconPreference(_ path: String) -> (Int, Int, String) {
        let size = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        let pixels = size.split(separator: "x").first.flatMap { Int($0) }
        switch (path.hasSuffix(".png"), pixels) {
        case (true, let pixels?) where pixels >= preferredIconPixels: return (0, pixels - preferredIconPixels, path)
        case (true, let pixels?): return (1, preferredIconPixels - pixels, path)
        case (true, nil): return (2, 0, path)
        case (false, _): return (3, 0, path)
        }
    }

    /// The icon size notifications are drawn at by most servers (see `iconPreference`).
    static let preferredIconPixels = 48
}

/// What one button's callback needs: the notification's key and the handler to tell.
private final class ActionTarget {
    let key: String
    let handler: @Sendable (NotificationActionPress) -> Void

    init(key: String, handler: @escaping @Sendable (NotificationActionPress) -> Void) {
        self.key = key
        self.handler = handler
    }
}

/// libnotify's `NotifyActionCallback`, on the libnotify thread: tells the target's handler.
private let actionInvoked: NotifyActionCallback = { notification, action, data in
    guard let notification, let action, let data else { return }
    let target = Unmanaged<ActionTarget>.fromOpaque(data).takeUnretainedValue()
    let id = UInt32(bitPattern: clibnotify_notification_get_id(notification))
    target.handler(NotificationActionPress(notificationID: id, key: target.key, actionID: String(cString: action)))
}

/// The `GFreeFunc` libnotify calls when the action goes away with its notification.
private let releaseActionTarget: GFreeFunc = { data in
    guard let data else { return }
    Unmanaged<ActionTarget>.fromOpaque(data).release()
}
