import Foundation
import GRDB
import W8Core
import W8System
import W8Text

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
            // TRANSLATORS: errors of the database, printed after "w8: "; {path} is a file or directory.
            tr(
                "database {path} was written by a newer version of w8; upgrade w8 (the file was left untouched)",
                ["path": path])
        case .cannotCreate(let path, let reason):
            // TRANSLATORS: {reason} says why: "Permission denied", "it or its directory is read-only".
            tr("cannot write {path}: {reason}", ["path": path, "reason": reason])
        case .notRegular(let path, .symlink):
            tr("the database {path} is a symbolic link; w8 opens only a regular file there", ["path": path])
        case .notRegular(let path, .notRegular):
            tr("the database {path} is not a regular file; w8 leaves it alone (move it away)", ["path": path])
        case .notRegular(let path, .notDirectory):
            tr("the data directory {path} is not a directory; w8 leaves it alone (move it away)", ["path": path])
        case .database(let path, let message):
            // TRANSLATORS: {message} is SQLite's, in English.
            tr("database {path}: {message}", ["path": path, "message": message])
        case .damaged(let path, let detail):
            // TRANSLATORS: {detail} is SQLite's, in English; keep 'w8 doctor' as written: it is the command.
            tr(
                "database {path} is damaged ({detail}); it was left untouched: 'w8 doctor' says what to do",
                ["path": path, "detail": detail])
        case .diskFull(let path):
            tr(
                "cannot write the database {path}: the disk is full; free some space and try again (nothing was written)",
                ["path": path])
        case .entryNotFound(let id):
            // TRANSLATORS: {id} is a number; keep 'w8 log' as written: it is the command.
            tr("no entry with id {id}; 'w8 log' lists the ids", ["id": id])
        case .intakeNotFound(let id):
            // TRANSLATORS: {id} is a number; keep 'w8 intake' as written: it is the command.
            tr("no intake event with id {id}; 'w8 intake' lists the ids", ["id": id])
        case .notGadgetbridge(let path):
            // TRANSLATORS: {path} is the file given to 'w8 import'; DEVICE is the name of a table.
            tr(
                "{path} is an SQLite database but not Gadgetbridge's (it has no DEVICE table); nothing imported",
                ["path": path])
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
                // TRANSLATORS: why the database cannot be written, after "cannot write PATH: ".
                self = .cannotCreate(
                    path: path, reason: tr("its file system is mounted read-only (nothing was written)"))
                return
            }
            let why = PrivateFiles.owner(of: directory, after: Errno(rawValue: EACCES))
            // TRANSLATORS: why the database cannot be written, after "cannot write PATH: ".
            self = .cannotCreate(path: path, reason: tr("it or its directory is read-only") + why)
        default: self = .database(path: path, message: message)
        }
    }
}
