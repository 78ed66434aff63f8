import CW8Linux
import Foundation
import W8App
import W8Core
import W8Text

#if canImport(Glibc)
    import Glibc
#endif

/// What the terminal on stdout can show.
enum Terminal {
    /// The terminal's width, else `$COLUMNS`, else 80.
    static func columns(_ environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// Colour on a terminal, unless `NO_COLOR` is set (no-color.org) or the terminal is dumb.
    static func wantsColor(_ environment: [String: String]) -> Bool {
        isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }
}

// What the commands print: reports on stdout; warnings and notes on stderr, each one line starting "w8:".

/// Prints a report's lines.
func show(_ lines: [String]) {
    for line in lines { print(line) }
}

/// Keeps descriptors 0, 1 and 2 taken from the start: one that the caller closed (`w8 status >&-`) is filled with
/// `/dev/null` opened the wrong way round, so that a read of stdin or a write to stdout fails with EBADF as on a
/// closed descriptor, and no file w8 opens later (a lock file) gets the number and receives what `print` writes.
func reserveStandardDescriptors() {
    for fd: Int32 in 0...2 {
        var info = stat()
        guard fstat(fd, &info) == -1, errno == EBADF else { continue }
        _ = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
    }
}

/// Output that did not reach its reader is an error (coreutils' `close_stdout`): flushes standard output
/// (`fflush`, `ferror`) and, when a write failed, prints one line and exits 74. A reader that went away (`| head`)
/// has already ended w8 with SIGPIPE, whose default action w8 keeps.
func flushStandardOutput() {
    let failure = cw8_flush_stdout()
    guard failure != 0 else { return }
    let reason = String(cString: strerror(failure))
    // TRANSLATORS: an error; {reason} is the system's ("No space left on device").
    let message = tr("cannot write to standard output: {reason}", ["reason": reason])
    FileHandle.standardError.write(Data("w8: \(message)\n".utf8))
    exit(ExitStatus.ioError.rawValue)
}

/// Prints a warning line on stderr; the command still succeeds.
func warn(_ text: String) {
    // TRANSLATORS: a warning on the terminal, after "w8: "; the command still succeeds.
    note(tr("warning: {message}", ["message": text]))
}

/// Prints a line on stderr about what a command did, such as the file it wrote.
func note(_ text: String) {
    FileHandle.standardError.write(Data("w8: \(text.withQuotedValuesCapped.visibleOnTerminal)\n".utf8))
}

/// Prints what the systemd installer did: lines to stdout, warnings to stderr.
func say(_ message: SystemdMessage) {
    if case .warning(let line) = message { warn(line) } else if case .info(let line) = message { print(line) }
}
