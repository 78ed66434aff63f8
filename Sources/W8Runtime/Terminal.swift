import Foundation
import W8App

#if canImport(Glibc)
    import Glibc
#endif

/// What the terminal on stdout can show.
public enum Terminal {
    /// The terminal's width, else `$COLUMNS`, else 80.
    public static func columns(_ environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// Colour on a terminal, unless `NO_COLOR` is set (no-color.org) or the terminal is dumb.
    public static func wantsColor(_ environment: [String: String]) -> Bool {
        isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }
}

// What the commands print: reports on stdout; warnings and notes on stderr, each one line starting "w8:".

/// Prints a report's lines.
public func show(_ lines: [String]) {
    for line in lines { print(line) }
}

/// Prints a warning line on stderr; the command still succeeds.
public func warn(_ text: String) {
    note("warning: \(text)")
}

/// Prints a line on stderr about what a command did, such as the file it wrote.
public func note(_ text: String) {
    FileHandle.standardError.write(Data("w8: \(text)\n".utf8))
}

/// Prints what the systemd installer did: lines to stdout, warnings to stderr.
public func say(_ message: SystemdMessage) {
    if case .warning(let line) = message { warn(line) } else if case .info(let line) = message { print(line) }
}
