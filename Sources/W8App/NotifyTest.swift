import Foundation
import W8Core
import W8Text

extension NotificationSink {
    /// `w8 notify-test`: posts the sample notification of `category` and returns the server's id for it; a failure
    /// is `AppError.unavailable` (exit 69) with its cause.
    public func postSample(_ category: String) throws -> UInt32 {
        do {
            return try post(Localization.inUsersLanguage { .sample(category) })
        } catch {
            // TRANSLATORS: an error of `w8 notify-test`; {reason} is the notification server's or D-Bus's.
            throw AppError.unavailable(tr("notification not shown: {reason}", ["reason": error.localizedDescription]))
        }
    }
}
