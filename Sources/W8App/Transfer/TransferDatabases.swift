import Foundation
import W8Core
import W8Store
import W8Text

extension Importer {
    /// The database an import writes to: the person's, from `open`. A dry run with no database at `path` yet
    /// creates none: it runs against an empty one in memory.
    public static func database(dryRun: Bool, path: String, open: () throws -> AppDatabase) throws -> AppDatabase {
        dryRun && !FileManager.default.fileExists(atPath: path) ? try AppDatabase.inMemory() : try open()
    }
}

extension Exporter {
    /// The database an export reads, checked whole. A damaged one is read as far as SQLite can (`salvage`), and
    /// `warn` says so: the export is then the way to save what is left.
    public static func database(
        at path: String, warn: (String) -> Void,
        open: (String) throws -> AppDatabase = { try AppDatabase.open(at: $0, verify: true) },
        salvage: (String) throws -> AppDatabase = AppDatabase.salvaging(at:)
    ) throws -> AppDatabase {
        do {
            return try open(path)
        } catch StoreError.damaged(let path, let detail) {
            let database = try salvage(path)
            warn(
                tr(
                    // TRANSLATORS: a warning line of w8 export; {path} is the database file, {detail} SQLite's own words.
                    "database {path} is damaged ({detail}); exporting what can still be read",
                    ["path": path, "detail": detail]))
            return database
        }
    }
}
