import Foundation
import W8Core

/// What can go wrong with the database, in words a person can act on.
public enum StoreError: ReportableError, Equatable {
    case newerSchema(path: String)
    case cannotCreate(path: String, reason: String)
    case database(path: String, message: String)
    case entryNotFound(Int64)
    case intakeNotFound(Int64)

    public var errorDescription: String? {
        switch self {
        case .newerSchema(let path):
            "database \(path) was written by a newer version of w8; upgrade w8 (the file was left untouched)"
        case .cannotCreate(let path, let reason):
            "cannot create \(path): \(reason)"
        case .database(let path, let message):
            "database \(path): \(message)"
        case .entryNotFound(let id):
            "no entry with id \(id); 'w8 log' lists the ids"
        case .intakeNotFound(let id):
            "no intake event with id \(id); 'w8 intake' lists the ids"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .entryNotFound, .intakeNotFound, .newerSchema: .dataError
        case .cannotCreate: .cannotCreate
        case .database: .ioError
        }
    }
}
