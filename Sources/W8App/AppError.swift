import Foundation

/// Errors of the application layer: files around the database.
public enum AppError: Error, LocalizedError, Equatable {
    case config(path: String, message: String)
    /// A file the person asked for (a chart image) could not be written; the message names it.
    case cannotWrite(String)

    public var errorDescription: String? {
        switch self {
        case .config(let path, let message): "\(path): \(message)"
        case .cannotWrite(let message): message
        }
    }

    /// sysexits(3): 78 for a configuration file, 73 for an output file.
    public var exitCode: Int32 {
        switch self {
        case .config: 78
        case .cannotWrite: 73
        }
    }
}
