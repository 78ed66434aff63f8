import Foundation
import W8Core
import W8Formats
import W8FuzzSupport

/// `config.toml`: any text gives settings or one error naming a line; settings that were read can be written back
/// with `w8 config KEY VALUE` and read again to the same values.
@main enum Target {
    static func main() { runFuzzer(fuzzConfig) }
}

func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    // As ConfigFile reads it: text that is not UTF-8 is refused before parsing.
    guard let text = String(validating: input.bytes, as: UTF8.self) else { return 0 }
    let document = ConfigDocument(text: text)
    guard let settings = try? document.settings() else { return 0 }
    let key = SettingKey.allCases[Int(input.selector) % SettingKey.allCases.count]
    let value = key.value(in: settings)
    do {
        let rewritten = try document.setting(key, to: value)
        let reread = try rewritten.settings()
        fuzzCheck(reread == settings, "\(key) = \(value) did not survive a rewrite of:\n\(text)")
    } catch {
        fuzzCheck(false, "setting \(key) to its own value \(value) failed: \(error)")
    }
    return 0
}
