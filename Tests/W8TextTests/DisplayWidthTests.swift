import Testing
import W8Text

/// Labels padded to terminal columns, not characters: a Japanese or Korean character takes two.
@Suite struct DisplayWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndMarksNone() {
        #expect("Water".terminalColumns == 5)
        #expect("水".terminalColumns == 2)
        #expect("セッションバス:".terminalColumns == 15)
        #expect("걸음 수".terminalColumns == 7)
        #expect("Größe".terminalColumns == 5)
        // "e" and a combining acute accent: one column.
        #expect("e\u{301}".terminalColumns == 1)
        #expect("５０ｋｇ".terminalColumns == 8)
    }

    @Test func paddingFillsColumns() {
        #expect("Water".padded(toColumns: 8) == "Water   ")
        #expect("水".padded(toColumns: 8) == "水      ")
        #expect("食事".padded(toColumns: 8).terminalColumns == 8)
        #expect("a longer label".padded(toColumns: 8) == "a longer label")
    }
}
