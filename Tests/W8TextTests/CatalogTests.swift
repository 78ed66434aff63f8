import Foundation
import Testing
import W8Text

/// One message of a catalog: its ids, its translations (one per plural form) and whether it is marked fuzzy.
struct CatalogMessage {
    var msgid = ""
    var plural: String?
    var translations: [String] = []
    var fuzzy = false
}

/// Reads a .po or .pot file: enough of the format for the checks below (msgid, msgid_plural, msgstr, msgstr[N],
/// continuation lines, the fuzzy flag); the header (the empty msgid) is left out.
func readCatalog(_ path: String) throws -> [CatalogMessage] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var messages: [CatalogMessage] = []
    var current = CatalogMessage()
    var field: WritableKeyPath<CatalogMessage, String>?
    var translation: Int?
    func unquote(_ s: Substring) -> String {
        var body = s.trimmingCharacters(in: .whitespaces)
        body = String(body.dropFirst().dropLast())
        var out = ""
        var escaped = false
        for c in body {
            if escaped {
                out.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
    func flush() {
        if !current.msgid.isEmpty { messages.append(current) }
        current = CatalogMessage()
        field = nil
        translation = nil
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("#,") {
            if !current.msgid.isEmpty || !current.translations.isEmpty { flush() }
            current.fuzzy = line.contains("fuzzy")
        } else if line.hasPrefix("msgid_plural ") {
            current.plural = unquote(line.dropFirst("msgid_plural ".count))
            field = nil
        } else if line.hasPrefix("msgid ") {
            if !current.translations.isEmpty { flush() }
            current.msgid = unquote(line.dropFirst("msgid ".count))
            field = \.msgid
        } else if line.hasPrefix("msgstr") {
            let value = line.drop { $0 != " " }
            current.translations.append(unquote(value))
            translation = current.translations.count - 1
            field = nil
        } else if line.hasPrefix("\"") {
            if let field {
                current[keyPath: field] += unquote(line)
            } else if let translation {
                current.translations[translation] += unquote(line)
            } else if current.plural != nil {
                current.plural! += unquote(line)
            }
        } else if line.isEmpty {
            flush()
        }
    }
    flush()
    return messages
}

/// The catalogs in po/: complete, checked by msgfmt, their placeholders kept; and the template made from the sources.
private let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The languages of po/LINGUAS.
private let catalogLanguages: [String] = {
    let text =
        (try? String(contentsOfFile: sourceRoot.appendingPathComponent("po/LINGUAS").path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
}()

@Suite struct CatalogTests {
    static let root = sourceRoot
    static func po(_ name: String) -> String { root.appendingPathComponent("po/\(name)").path }
    static let languages = catalogLanguages

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("The ten languages: English in the sources, nine catalogs")
    func languages() {
        #expect(Self.languages == ["de", "es", "fr", "it", "ja", "ko", "pt_BR", "ru", "zh_CN"])
    }

    @Test("Each catalog compiles with msgfmt --check", arguments: catalogLanguages)
    func compiles(language: String) throws {
        let result = try Self.run("msgfmt", ["--check", "--output-file=/dev/null", Self.po("\(language).po")])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "Every message of the template is translated or marked fuzzy, with its placeholders",
        arguments: catalogLanguages)
    func complete(language: String) throws {
        let template = try readCatalog(Self.po("w8trackr.pot"))
        let catalog = Dictionary(
            try readCatalog(Self.po("\(language).po")).map { ($0.msgid, $0) }, uniquingKeysWith: { a, _ in a })
        for message in template {
            guard let found = catalog[message.msgid] else {
                Issue.record("\(language): '\(message.msgid)' is missing")
                continue
            }
            #expect(
                found.fuzzy || found.translations.allSatisfy { !$0.isEmpty },
                "\(language): '\(message.msgid)' is neither translated nor fuzzy")
            let wanted = Set(Placeholders.names(message.msgid) + Placeholders.names(message.plural ?? ""))
            for form in found.translations where !form.isEmpty {
                #expect(
                    Set(Placeholders.names(form)).isSubset(of: wanted),
                    "\(language): '\(form)' has a placeholder that '\(message.msgid)' does not")
            }
        }
    }

    @Test("The template holds exactly the messages of the sources (make pot)")
    func templateIsCurrent() throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("w8-\(getpid())-template.pot").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let sources = try FileManager.default.subpathsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path
        )
        .filter { $0.hasSuffix(".swift") }.sorted().map { Self.root.appendingPathComponent("Sources/\($0)").path }
        let result = try Self.run(
            "xgettext",
            [
                "--language=C", "--from-code=UTF-8", "--keyword=", "--keyword=tr", "--keyword=trn:1,2",
                "--output=\(fresh)",
            ]
                + sources)
        #expect(result.status == 0, "\(result.output)")
        let made = FileManager.default.fileExists(atPath: fresh) ? try readCatalog(fresh) : []
        #expect(
            Set(made.map(\.msgid)) == Set(try readCatalog(Self.po("w8trackr.pot")).map(\.msgid)),
            "po/w8trackr.pot is out of date: run 'make po-update'")
    }
}
