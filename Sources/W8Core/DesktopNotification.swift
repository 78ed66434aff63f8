import Foundation
import W8Text

/// How urgent a notification is, as the freedesktop notification spec defines it.
public enum NotificationUrgency: UInt8, Sendable, Codable {
    case low = 0
    case normal = 1
    case critical = 2
}

/// What a notification is about, as a vendor category of the freedesktop spec (`x-vendor.class.name`).
public enum NotificationCategory: String, Sendable, Codable, CaseIterable {
    case milestone = "x-w8trackr.milestone"
    case summary = "x-w8trackr.summary"
    case reminder = "x-w8trackr.reminder"
    /// A daily intake goal reached.
    case intake = "x-w8trackr.intake"
}

/// How long the server keeps a notification on screen.
public enum NotificationExpiry: Sendable, Equatable {
    /// The server's default.
    case serverDefault
    /// Stays until the person dismisses it, where the server supports persistence.
    case never
    case milliseconds(Int32)
}

/// A desktop notification, independent of how it is delivered.
///
/// Named so as not to clash with Foundation's `Notification`.
public struct DesktopNotification: Sendable, Equatable {
    /// A stable key for notifications that replace each other, such as "reminder.weigh-in".
    public var key: String
    public var title: String
    /// Plain text: the sink escapes it for servers that read markup.
    public var body: String
    public var urgency: NotificationUrgency
    public var category: NotificationCategory
    /// A themed icon name (or a file); sinks send the installed file of a themed icon where they find one.
    public var icon: String
    public var expiry: NotificationExpiry
    /// The server id of an earlier notification that this one replaces.
    public var replacesID: UInt32?
    /// A file to show as the notification's image, where the server supports images.
    public var imagePath: String?
    /// Buttons, shown where the server advertises the `actions` capability; a press reaches the sink's handler.
    public var actions: [NotificationAction]
    /// A tag for servers that replace a notification still on screen (or waiting) with a later one of the same tag
    /// instead of showing both; the sink sends it in the hints those servers read. Unlike `replacesID`, it needs
    /// no server id, so a run that died before it could record one still replaces what it showed.
    public var replaceTag: String?
    /// Replace the previous notification of this `key` that this process posted, but only while the server still
    /// shows it: once the server says it closed it (expired, dismissed), a new notification is posted instead.
    /// Plasma shows nothing for a `replaces_id` it has already closed, and ids are never carried across processes
    /// (a restarted daemon posts a new one).
    public var replacesOpen: Bool

    public static let appName = "W8Trackr"
    public static let iconName = "w8trackr"
    public static let desktopEntry = "w8trackr"

    public init(
        key: String, title: String, body: String, urgency: NotificationUrgency = .normal,
        category: NotificationCategory, icon: String = DesktopNotification.iconName,
        expiry: NotificationExpiry = .serverDefault, replacesID: UInt32? = nil, imagePath: String? = nil,
        actions: [NotificationAction] = [], replaceTag: String? = nil, replacesOpen: Bool = false
    ) {
        self.key = key
        self.title = title
        self.body = body
        self.urgency = urgency
        self.category = category
        self.icon = icon
        self.expiry = expiry
        self.replacesID = replacesID
        self.imagePath = imagePath
        self.actions = actions
        self.replaceTag = replaceTag
        self.replacesOpen = replacesOpen
    }

    /// The tag of the weekly summary of the scheduled occurrence `key` (`summary@2026-11-22T09:00`):
    /// `w8trackr-summary-2026-11-22`, one a week.
    public static func summaryTag(occurrence key: String) -> String {
        let day = key.split(separator: "@", maxSplits: 1).last?.split(separator: "T").first ?? Substring(key)
        return "w8trackr-summary-\(day)"
    }

    /// The freedesktop/HIG limits for a readable notification (`001_*`).
    public static let maxTitleLength = 50
    public static let maxBodyLength = 150
}

/// Something that can show notifications to the person: libnotify on a desktop, memory in tests.
extension DesktopNotification {
    /// What `w8 notify-test` posts, in the category whose name ends with `category` (milestone, summary, reminder).
    public static func sample(_ category: String) -> DesktopNotification {
        DesktopNotification(
            // TRANSLATORS: the sample notification of `w8 notify-test`: its title, then its body.
            key: "test", title: tr("W8Trackr is set up"),
            body: tr("Milestones, summaries and reminders will appear like this. Keep it up!"),
            category: NotificationCategory.allCases.first { $0.rawValue.hasSuffix(category) } ?? .milestone)
    }
}

public protocol NotificationSink: Sendable {
    /// Shows `notification` and returns the server's id for it, to replace or close it later.
    func post(_ notification: DesktopNotification) throws -> UInt32
    /// Closes a notification shown earlier, by its server id.
    func close(id: UInt32) throws
    /// Sets who hears the buttons pressed on notifications this sink posts from now on.
    ///
    /// The handler may run on any thread, and must not call the sink before it returns: hand the press on.
    func onAction(_ handler: @escaping @Sendable (NotificationActionPress) -> Void)
}

extension NotificationSink {
    /// Sinks that show no buttons never call a handler.
    public func onAction(_ handler: @escaping @Sendable (NotificationActionPress) -> Void) {}
}

/// A button on a notification: `id` comes back when it is pressed, `label` is what the person reads.
public struct NotificationAction: Sendable, Equatable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// A button pressed on a posted notification.
public struct NotificationActionPress: Sendable, Equatable {
    /// The server id of the notification, to close it.
    public var notificationID: UInt32
    /// The notification's `key`, such as "reminder.hydration".
    public var key: String
    /// The pressed action's `id`.
    public var actionID: String

    public init(notificationID: UInt32, key: String, actionID: String) {
        self.notificationID = notificationID
        self.key = key
        self.actionID = actionID
    }
}
