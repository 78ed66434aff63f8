import Foundation
import Testing
import W8App

/// The encoder the backup is written through takes every numeric type Codable has, as JSONEncoder does.
@Suite struct JSONEncodingTests {
    struct Numbers: Encodable {
        var int8: Int8 = -8
        var int16: Int16 = -16
        var uint8: UInt8 = 8
        var uint16: UInt16 = 16
        var uint: UInt = 64
        var uint64: UInt64 = 1 << 40
        var int32: Int32 = -32
        var float: Float = 0.1
        var double: Double = 82.5
        var whole: Double = 180
    }

    @Test func everyNumericTypeIsWritten() throws {
        #expect(
            try JSONValueEncoder().encode(Numbers()).compact
                == #"{"int8":-8,"int16":-16,"uint8":8,"uint16":16,"uint":64,"uint64":1099511627776,"int32":-32,"#
                + #""float":0.1,"double":82.5,"whole":180.0}"#)
    }

    @Test func anIntegerBeyondJSONsIsRefused() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }
}
