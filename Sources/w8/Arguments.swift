import Foundation
import W8Core

extension W8 {
    /// The command line, `w8` first: `CommandLine.arguments`, else the kernel's copy in /proc/self/cmdline. Swift
    /// finds `argv` by walking back from `environ` on the initial stack, and leaves the arguments empty when a
    /// preloaded library moved `environ` in its constructor (libfaketime's `setenv` may): `w8 add 80` would print
    /// the help and exit 0 without adding.
    static func commandLine(_ swiftArguments: @autoclosure () -> [String] = CommandLine.arguments) -> [String] {
        let swiftArguments = swiftArguments()
        guard swiftArguments.isEmpty, let handle = FileHandle(forReadingAtPath: "/proc/self/cmdline") else {
            return swiftArguments
        }
        defer { try? handle.close() }
        let bytes = (try? handle.readToEnd()) ?? Data()
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast(bytes.last == 0 ? 1 : 0)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Moves a negative number such as `-5` behind `--`, so that it reaches validation as a bad weight
    /// instead of being taken for an unknown option. After an option that takes one (`--calories -1`), it stays
    /// that option's value, to be refused with the value named.
    static func arguments(_ args: ArraySlice<String>) -> [String] {
        var args = Array(args)
        guard !args.contains("--"),
            let index = args.indices.first(where: { index in
                isNegativeNumber(args[index])
                    && (index == 0 || !negativeValueOptions.contains(args[index - 1]))
            })
        else { return args }
        let negative = args.remove(at: index)
        return args + ["--", negative]
    }

    /// `-[0-9][0-9.,]*[A-Za-z]*`, matched by hand: a Regex is compiled when first used, on every start.
    static func isNegativeNumber(_ argument: String) -> Bool {
        var bytes = argument.utf8[...]
        guard bytes.popFirst() == UInt8(ascii: "-"), let first = bytes.first, (48...57).contains(first) else {
            return false
        }
        return bytes.drop { (48...57).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }
            .allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    /// Options whose value may look like a negative number, and is read unconditionally.
    static let negativeValueOptions: Set<String> = ["--calories"]

    /// The exit status and the one line for stderr that end a command with `error`: its own status for the
    /// library's errors, else `usageStatus` and the argument parser's `message`, on one line, `w8: ` first.
    static func failure(
        _ error: any Error, usageStatus: Int32, message: () -> String
    ) -> (status: Int32, line: String) {
        var (status, text) =
            if let error = error as? any ReportableError {
                (error.exitStatus.rawValue, error.localizedDescription)
            } else {
                (usageStatus, message())
            }
        // Lines joined into one; a control character of a quoted value (a note, a row of a file) is shown, not run.
        text =
            text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
            .withQuotedValuesCapped.visibleOnTerminal
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        return (status, "w8: " + text)
    }
}
