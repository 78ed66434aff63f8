import Foundation
import W8TestSupport

/// The time zone every child and every in-process test that formats a local time is pinned to, unless the test
/// names another: never the host's `/etc/localtime`.
public let pinnedTimeZone = "Europe/Berlin"

/// The environment every child of the tests starts from, built here and nowhere else, so that a test passes on
/// any machine, also one where `w8` is installed: nothing in it names the developer's home, `/usr/local` or
/// `/etc/xdg`.
///
/// Under `directory`: `HOME` (`home`), `XDG_CONFIG_HOME` (`config`), `XDG_DATA_HOME` (`data`), `XDG_CACHE_HOME`
/// (`cache`), `XDG_STATE_HOME` (`state`), `XDG_DATA_DIRS` (`share-system`, standing in for `/usr/local/share` and
/// `/usr/share`; `makeSystemDataDirectory` links the MIME database into it), `XDG_CONFIG_DIRS` (`config-system`, for `/etc/xdg`) and `SYSTEMD_UNIT_PATH` (the user's two unit
/// directories and `units-system`, for `/etc/systemd/user`, `/usr/local/lib/systemd/user` and the rest of
/// systemd's path). `LANG=C.UTF-8` and `TZ` are pinned; `PATH` is the test's, and the sanitizers' options pass.
/// `W8TRACKR_LOCALEDIR` names the catalogs `make catalogs` built in this tree (`.build/locale`), never installed ones:
/// under `C.UTF-8` they are not read, and a test that sets `LANG` or `LANGUAGE` gets this tree's translations.
/// `XDG_RUNTIME_DIR` and the bus are the caller's to add. Nothing is created: the caller makes what its children
/// need, owned by the user they run as.
///
/// A child that needs something of the system's data adds it by name, with the reason: a GTK server gets
/// `:/usr/share` after the sandbox's data directory (GSettings schemas, themes, the MIME database gdk-pixbuf reads
/// image types from), and nothing gets `/usr/local/share`.
public func childEnvironment(in directory: URL, timeZone: String = pinnedTimeZone) -> [String: String] {
    let parent = ProcessInfo.processInfo.environment
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    var environment = [
        "PATH": parent["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": timeZone, "HOME": path("home"),
        "XDG_CONFIG_HOME": path("config"), "XDG_DATA_HOME": path("data"), "XDG_CACHE_HOME": path("cache"),
        "XDG_STATE_HOME": path("state"), "XDG_DATA_DIRS": path("share-system"),
        "XDG_CONFIG_DIRS": path("config-system"),
        "SYSTEMD_UNIT_PATH": [path("config/systemd/user"), path("data/systemd/user"), path("units-system")]
            .joined(separator: ":"),
        "W8TRACKR_LOCALEDIR": builtCatalogs,
    ]
    // Under `make test-sanitize` and `make test-tsan`, the instrumented children report where the run looks.
    for name in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"] { environment[name] = parent[name] }
    return environment
}

/// `.build/locale` of this source tree, where `make catalogs` compiles `po/*.po`.
public let builtCatalogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/locale").path

/// Makes `directory/share-system`, the children's `XDG_DATA_DIRS`, with the one thing of `/usr/share` that every
/// child may read: `mime`, shared-mime-info's database, through which gdk-pixbuf (in libnotify, so in `w8`) tells
/// a PNG from other files; without it `w8` sends no `image-data`. It is a link, so that nothing else of
/// `/usr/share` (icons, desktop entries, D-Bus services) is seen.
public func makeSystemDataDirectory(in directory: URL) throws {
    let share = directory.appendingPathComponent("share-system")
    try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
    let mime = share.appendingPathComponent("mime").path
    if (try? FileManager.default.destinationOfSymbolicLink(atPath: mime)) == nil {
        try FileManager.default.createSymbolicLink(atPath: mime, withDestinationPath: "/usr/share/mime")
    }
}

/// `childEnvironment` for a tool run on its own (sqlite3, mount, Xvfb, ImageMagick): in a private directory of
/// this test process, removed when it exits.
func baseChildEnvironment() -> [String: String] {
    childEnvironment(in: toolDirectory)
}

/// The directory of `baseChildEnvironment`, made once (0700).
private let toolDirectory: URL = {
    guard let directory = try? TemporaryDirectory(prefix: "w8-tools") else {
        return URL(fileURLWithPath: "/nonexistent")  // as Debian's nobody: nothing there to read
    }
    _ = try? directory.subdirectory("home")
    return directory.url
}()
