import Foundation
import W8Core
import W8Text

/// Errors of the application layer: files around the database.
public enum AppError: ReportableError, Equatable {
    case config(path: String, message: String)
    /// A file the person asked for (a chart image) could not be written; the message names it.
    case cannotWrite(String)
    /// Output that did not reach its reader: a write to standard output or to an opened file failed.
    case writeFailed(String)
    /// An input file (`w8 import`) could not be opened or read.
    case cannotRead(String)
    /// Input that was refused as a whole (an import with bad rows); the rows were reported already.
    case badInput(String)
    /// A service the command needs refused (the notification server for `w8 notify-test`).
    case unavailable(String)

    public var errorDescription: String? {
        switch self {
        // TRANSLATORS: an error about a file: {path} names it, {message} says what is wrong ("line 3: ...").
        case .config(let path, let message): tr("{path}: {message}", ["path": path, "message": message])
        case .cannotWrite(let message), .writeFailed(let message), .cannotRead(let message), .badInput(let message),
            .unavailable(let message):
            message
        }
    }

    /// sysexits(3): 78 for a configuration file, 73 for an output file, 74 for output that could not be written,
    /// 66 for an input file, 65 for its data.
    public var exitStatus: ExitStatus {
        switch self {
        case .config: .config
        case .cannotWrite: .cannotCreate
        case .writeFailed: .ioError
        case .cannotRead: .noInput
        case .badInput: .dataError
        case .unavailable: .unavailable
        }
    }
}
