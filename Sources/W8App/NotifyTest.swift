import Foundation
import W8Core

extension NotificationSink {
    /// `w8 notify-test`: posts the sample notification of `category` and returns the server's id for it; a failure
    /// is `AppError.unavailable` (exit 69) with its cause.
    public func postSample(_ category: String) throws -> UInt32 {
        do {
            return try post(.sample(category))
        } catch {
            throw AppError.unavailable("notification not shown: \(error.localizedDescription)")
        }
    }
}
