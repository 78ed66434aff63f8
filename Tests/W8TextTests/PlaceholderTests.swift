import Testing
import W8Text

@Suite struct PlaceholderTests {
    @Test func namedPlaceholdersAreFilledInAnyOrder() {
        #expect(
            Placeholders.fill("{year}年{month}{day}日", ["day": 23, "month": "11月", "year": 2026]) == "2026年11月23日")
        #expect(Placeholders.fill("{n} steps", ["n": 8000]) == "8000 steps")
    }

    @Test func unknownOrUnclosedPlaceholdersStayAsWritten() {
        #expect(Placeholders.fill("{a} {b}", ["a": "x"]) == "x {b}")
        #expect(Placeholders.fill("{a", ["a": "x"]) == "{a")
        #expect(Placeholders.fill("no braces", ["a": "x"]) == "no braces")
    }

    @Test func namesAreListedInOrder() {
        #expect(Placeholders.names("{weekday}, {day}. {month} {year}") == ["weekday", "day", "month", "year"])
        #expect(Placeholders.names("none").isEmpty)
    }

    @Test func withoutACatalogAMessageIsItsEnglishAndPluralsFollowEnglish() {
        // The test process binds its own directory, where no catalog is: the English of the sources.
        #expect(tr("Goal reached!") == "Goal reached!")
        #expect(trn("{n} day", "{n} days", 1, ["n": 1]) == "1 day")
        #expect(trn("{n} day", "{n} days", 3, ["n": 3]) == "3 days")
    }
}
