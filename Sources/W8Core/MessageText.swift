import Foundation
import W8Text

extension String {
    /// How many characters of a quoted value a message shows.
    public static let quotedValueLimit = 60
    /// The longest message line: what is left after the quoted values are cut is cut here.
    public static let messageLimit = 1000

    /// The message with every quoted value longer than `quotedValueLimit` characters cut to its first 60, then
    /// `…` and its length: `date '2222…' (10000000 characters) is not a date`. A 10 MB field of a file or a long
    /// argument is then named in one short line. The one place every error and warning line goes through
    /// (`Runtime.failure`, `note`, an import's row reasons).
    ///
    /// A value is quoted as the messages quote it: `'` after the start of the line, a space or one of `(=:`, to the
    /// next `'` followed by the end, a space or punctuation. A line still longer than `messageLimit` is cut too.
    public var withQuotedValuesCapped: String {
        guard count > String.quotedValueLimit else { return self }
        var out = ""
        var index = startIndex
        var previous: Character = " "
        while index < endIndex {
            let character = self[index]
            out.append(character)
            index = self.index(after: index)
            let opens = character == "'" && " (=:".contains(previous)
            previous = character
            guard opens, let close = closingQuote(from: index) else { continue }
            let value = self[index..<close]
            // A value cut already (60 characters and `…`) is not cut again.
            let length = value.count
            let cut = length > String.quotedValueLimit + 1
            out += cut ? "\(value.prefix(String.quotedValueLimit))…' \(Self.characters(length))" : "\(value)'"
            index = self.index(after: close)
            previous = "'"
        }
        guard out.count > String.messageLimit else { return out }
        return String(out.prefix(String.messageLimit)) + "… " + Self.characters(out.count)
    }

    /// "(10000000 characters)": how long a value or line was before it was cut.
    private static func characters(_ count: Int) -> String {
        // TRANSLATORS: after a value of an error message cut to its first 60 characters: how long it was.
        trn("({count} character)", "({count} characters)", count, ["count": count])
    }

    /// The `'` that closes a value opened before `start`: one followed by the end, a space or punctuation.
    private func closingQuote(from start: Index) -> Index? {
        var index = start
        while let quote = self[index...].firstIndex(of: "'") {
            let next = self.index(after: quote)
            if next == endIndex || " .,;:)!?".contains(self[next]) { return quote }
            index = next
        }
        return nil
    }
}
