import Foundation
import Testing

@testable import W8Formats

/// The hand-written XML scanner against libxml2: seeded random Apple Health documents, a third of them malformed,
/// made and judged by `Tests/Support/health_xml_scanner_differential.py` (xmllint). The scanner must refuse every
/// document libxml2 calls malformed, and on the others read the same attributes for every Record under the root.
@Suite struct HealthXMLScannerDifferentialTests {
    struct Case: Decodable {
        let file: String
        let kind: String
        let libxml2: String
        let records: [[[String]]]
    }

    /// What the scanner reads of `bytes` fed `chunk` at a time: each top-level Record's attributes (name and
    /// decoded value, sorted as libxml2's canonical form sorts them), or why it refuses.
    static func scan(_ bytes: [UInt8], chunk: Int) -> Result<[[[String]]], HealthXMLScanner.Malformed> {
        var scanner = HealthXMLScanner()
        var records: [[[String]]] = []
        do {
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try scanner.feed(Array(bytes[start..<min(start + chunk, bytes.count)])) { depth, name, attributes in
                    guard depth == 1, name.elementsEqual("Record".utf8) else { return }
                    var pairs: [[String]] = []
                    var undecodable = false
                    try HealthXMLScanner.attributes(attributes) { name, value in
                        guard let text = HealthXMLScanner.decode(value) else {
                            undecodable = true
                            return false
                        }
                        pairs.append([String(decoding: name, as: UTF8.self), text])
                        return true
                    }
                    if undecodable { throw HealthXMLScanner.Malformed(reason: "an attribute value does not decode") }
                    records.append(pairs.sorted { $0[0] < $1[0] })
                }
            }
            try scanner.finish()
        } catch let error as HealthXMLScanner.Malformed {
            return .failure(error)
        } catch {
            return .failure(HealthXMLScanner.Malformed(reason: "\(error)"))
        }
        return .success(records)
    }

    // Given 600 documents from seed 2026, when the scanner reads each whole and in 7-byte chunks, then it refuses
    // exactly those libxml2 refuses, and reads what libxml2 reads from the rest.
    @Test func theScannerAgreesWithLibxml2() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("w8-xml-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/health_xml_scanner_differential.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [harness, "2026", "600", directory.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the harness needs python3 and xmllint (libxml2-utils)")
        let cases = try JSONDecoder().decode(
            [Case].self, from: Data(contentsOf: directory.appendingPathComponent("results.json")))
        #expect(cases.count == 600)
        var disagreements: [String] = []
        for item in cases {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: item.file)))
            for chunk in [bytes.count + 1, 7] {
                switch (Self.scan(bytes, chunk: chunk), item.libxml2 == "ok") {
                case (.success(let records), true) where records == item.records: break
                case (.failure, false): break
                case (.success(let records), true):
                    disagreements.append("\(item.file) (\(item.kind)): scanner \(records), libxml2 \(item.records)")
                case (.success, false):
                    disagreements.append("\(item.file) (\(item.kind)): accepted; libxml2: \(item.libxml2)")
                case (.failure(let error), true):
                    disagreements.append("\(item.file) (\(item.kind)): refused (\(error.reason)); libxml2 reads it")
                }
            }
        }
        #expect(
            disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.joined(separator: "\n"))")
    }
}
