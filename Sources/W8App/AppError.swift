import Foundation

/// Errors of the application layer: files around the database.
public enum AppError: Error, LocalizedError, Equatable {
    case config(path: String, message: String)

    public var errorDescription: String? {
        switch self {
        case .config(let path, let message): "\(path): \(message)"
        }
    }
}
