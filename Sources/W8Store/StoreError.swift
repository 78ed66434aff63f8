import Foundation
import GRDB
import W8Core
import W8System

/// What can go wrong with the database, in words a person can act on.
public enum StoreError: ReportableError, Equatable {
    case newerSchema(path: String)
    case cannotCreate(path: String, reason: String)
    /// The database, one of its files or its directory is not what w8 would have made there; it is left alone.
    case notRegular(path: String, kind: UnexpectedFile)
    case database(path: String, message: String)
    /// SQLite found the file damaged or not a database at all; it is left as it is.
    case damaged(path: String, detail: String)
    /// The file system holding the database is full; nothing was written.
    case diskFull(path: String)
    case entryNotFound(Int64)
    case intakeNotFound(Int64)
    /// An import file that is an SQLite database, but not Gadgetbridge's.
    case notGadgetbridge(path: String)

    public var errorDescription: String? {
        switch self {
        case .newerSchema(let path):
            "database \(path) was written by a newer version of w8; upgrade w8 (the file was left untouched)"
        case .cannotCreate(let path, let reason):
            "cannot write \(path): \(reason)"
        case .notRegular(let path, .symlink):
            "the database \(path) is a symbolic link; w8 opens only a regular file there"
        case .notRegular(let path, .notRegular):
            "the database \(path) is not a regular file; w8 leaves it alone (move it away)"
        case .notRegular(let path, .notDirectory):
            "the data directory \(path) is not a directory; w8 leaves it alone (move it away)"
        case .database(let path, let message):
            "database \(path): \(message)"
        case .damaged(let path, let detail):
            "database \(path) is damaged (\(detail)); it was left untouched: 'w8 doctor' says what to do"
        case .diskFull(let path):
            "cannot write the database \(path): the disk is full; free some space and try again (nothing was written)"
        case .entryNotFound(let id):
            "no entry with id \(id); 'w8 log' lists the ids"
        case .intakeNotFound(let id):
            "no intake event with id \(id); 'w8 intake' lists the ids"
        case .notGadgetbridge(let path):
            "\(path) is an SQLite database but not Gadgetbridge's (it has no DEVICE table); nothing imported"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .entryNotFound, .intakeNotFound, .newerSchema, .notGadgetbridge: .dataError
        case .cannotCreate, .notRegular: .cannotCreate
        case .database, .damaged, .diskFull: .ioError
        }
    }
}

/// What stands where w8 expected its own file or directory.
public enum UnexpectedFile: Sendable, Equatable {
    case symlink
    /// A device, a FIFO, a socket or a directory where a file should be.
    case notRegular
    case notDirectory
}

extension StoreError {
    /// A GRDB error in words a person can act on: a damaged file and a full disk are named as such.
    init(_ error: DatabaseError, path: String) {
        let message = error.message ?? error.description
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .damaged(path: path, detail: message)
        case .SQLITE_FULL: self = .diskFull(path: path)
        case .SQLITE_READONLY:
            // SQLite writes beside the file too (its -wal and -shm files): name the directory's owner or mode.
            let directory = (path as NSString).deletingLastPathComponent
            if access(directory.isEmpty ? "." : directory, W_OK) != 0, errno == EROFS {
                self = .cannotCreate(path: path, reason: "its file system is mounted read-only (nothing was written)")
                return
            }
            let why = PrivateFiles.owner(of: directory, after: Errno(rawValue: EACCES))
            self = .cannotCreate(path: path, reason: "it or its directory is read-only" + why)
        default: self = .database(path: path, message: message)
        }
    }
}
