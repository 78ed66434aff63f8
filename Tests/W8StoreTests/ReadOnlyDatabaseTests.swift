import Testing

@testable import W8Store

/// The URI a read-only data directory's database is opened by: SQLite reads `file:` names as URIs, so the
/// characters a URI gives a meaning to must reach it escaped, and the others as they are.
@Suite struct ReadOnlyDatabaseTests {
    @Test(arguments: [
        ("/home/a/w8trackr.sqlite", "file:/home/a/w8trackr.sqlite?immutable=1"),
        ("/home/100%/w8?#x.sqlite", "file:/home/100%25/w8%3F%23x.sqlite?immutable=1"),
        ("/home/ä b/w8.sqlite", "file:/home/ä b/w8.sqlite?immutable=1"),
    ])
    func immutableURI(path: String, uri: String) {
        #expect(ReadOnlyDatabase.immutableURI(path) == uri)
    }
}
