import Foundation

/// How a command ended, as sysexits(3) numbers it; `w8 --help`, the README and w8(1) list them.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// Anything not listed below.
    case failure = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: a value the person gave is wrong; the message names it.
    case dataError = 65
    /// EX_NOINPUT: a file to read cannot be opened.
    case noInput = 66
    /// EX_UNAVAILABLE: the notification server or the systemd user manager refused.
    case unavailable = 69
    /// EX_CANTCREAT: a file cannot be created or written.
    case cannotCreate = 73
    /// EX_IOERR: the database failed.
    case ioError = 74
    /// EX_CONFIG: the config file is malformed or cannot be read or written.
    case config = 78
}

/// An error that knows how the command it ends should exit, and says why in one line.
public protocol ReportableError: LocalizedError {
    var exitStatus: ExitStatus { get }
}

extension W8CoreError: ReportableError {
    /// Every domain error is about a value the person gave.
    public var exitStatus: ExitStatus { .dataError }
}
