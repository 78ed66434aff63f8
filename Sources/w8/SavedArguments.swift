import CW8Linux
import Foundation

// Start-up trick, bench row "w8 --version / notify-send --help"; bench/README.md, "Start-up tricks".
extension W8 {
    /// The command line, `w8` first, as glibc passed it to the executable's constructors (`cw8_argument`), not
    /// `CommandLine.arguments`, which a preloaded library that calls `setenv` in its constructor (libfaketime, for
    /// every process it fakes the clock of) leaves empty: `w8 add 80` would print the help and exit 0. Where no
    /// constructor saw the arguments, `CommandLine.arguments`, then the kernel's copy in /proc/self/cmdline.
    static func commandLine(_ swiftArguments: @autoclosure () -> [String] = CommandLine.arguments) -> [String] {
        let count = cw8_argument_count()
        if count > 0 { return (0..<count).map { String(cString: cw8_argument($0)) } }
        let swiftArguments = swiftArguments()
        guard swiftArguments.isEmpty, let handle = FileHandle(forReadingAtPath: "/proc/self/cmdline") else {
            return swiftArguments
        }
        defer { try? handle.close() }
        let bytes = (try? handle.readToEnd()) ?? Data()
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast(bytes.last == 0 ? 1 : 0)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
