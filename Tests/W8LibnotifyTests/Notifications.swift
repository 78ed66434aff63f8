import Foundation
import W8Core
import W8TestSupport

/// Notifications as the app would post them, with text that would break if it were read as markup.
enum Sample {
    static func milestone(expiry: NotificationExpiry = .never) -> DesktopNotification {
        DesktopNotification(
            key: "milestone.goal", title: "Goal reached: 75 kg", body: "You reached your goal of 75 kg.",
            urgency: .critical, category: .milestone, expiry: expiry)
    }

    static let summary = DesktopNotification(
        key: "summary.weekly", title: "Your week", body: "Down 0.6 kg this week; 4.2 kg to go.", urgency: .normal,
        category: .summary)

    static let reminder = DesktopNotification(
        key: "reminder.weigh-in", title: "Time to weigh in", body: "Step on the scale before breakfast.",
        urgency: .low, category: .reminder, expiry: .milliseconds(120_000))
}

/// The repository's `data/` directory.
let dataDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data")
