import Foundation

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
