import W8App
import W8Core

// Start-up trick, bench row "w8 add posting a milestone / notify-send"; bench/README.md, "Start-up tricks".
extension W8.Add {
    /// What a person types most, `w8 add WEIGHT` and `w8 add WEIGHT --json` with a weight that starts with a
    /// digit: the input and output ArgumentParser would make of them, without building the command. Nil for
    /// anything else, which ArgumentParser parses.
    static func quick(_ arguments: [String]) -> (input: EntryInput, json: Bool)? {
        guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--json"), arguments[0] == "add",
            let first = arguments[1].utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        return (EntryInput(weight: arguments[1], unit: nil, date: nil, note: nil, bodyFat: nil), arguments.count == 3)
    }
}
