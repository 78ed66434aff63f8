import Testing
import W8App

/// The XDG Base Directory rules, in the one place that reads them.
@Suite struct XDGDirectoriesTests {
    @Test("Unset variables take their defaults under HOME")
    func defaults() {
        let xdg = XDGDirectories(environment: ["HOME": "/home/ann"], accountHome: "/nowhere")
        #expect(xdg.dataHome == "/home/ann/.local/share")
        #expect(xdg.configHome == "/home/ann/.config")
        #expect(xdg.cacheHome == "/home/ann/.cache")
        #expect(xdg.dataDirectories == ["/usr/local/share", "/usr/share"])
        #expect(xdg.dataSearchPath.first == "/home/ann/.local/share")
    }

    @Test("Absolute values are used; relative ones are ignored, as the specification says")
    func relativeIgnored() {
        let xdg = XDGDirectories(
            environment: [
                "HOME": "/home/ann", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "relative/config",
                "XDG_CACHE_HOME": "", "XDG_DATA_DIRS": "/opt/share:share:/usr/share",
            ], accountHome: "/nowhere")
        #expect(xdg.dataHome == "/data")
        #expect(xdg.configHome == "/home/ann/.config")
        #expect(xdg.cacheHome == "/home/ann/.cache")
        #expect(xdg.dataDirectories == ["/opt/share", "/usr/share"])
    }

    @Test("The session's service directories follow the D-Bus spec")
    func serviceDirectories() {
        let xdg = XDGDirectories(
            environment: ["HOME": "/home/a", "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_DATA_DIRS": "/usr/share"],
            accountHome: "/nowhere")
        #expect(
            xdg.sessionServiceDirectories == [
                "/run/user/1000/dbus-1/services", "/home/a/.local/share/dbus-1/services", "/usr/share/dbus-1/services",
            ])
        #expect(XDGDirectories(environment: ["XDG_RUNTIME_DIR": "run"], accountHome: "/h").runtimeDirectory == nil)
    }

    @Test("An empty or unset HOME falls back to the account's home directory")
    func accountHome() {
        #expect(
            XDGDirectories(environment: ["HOME": ""], accountHome: "/var/lib/ann").configHome == "/var/lib/ann/.config")
        #expect(XDGDirectories(environment: [:], accountHome: "/var/lib/ann").dataHome == "/var/lib/ann/.local/share")
    }

    @Test("With HOME set, the account's home directory is never looked up")
    func accountHomeOnlyWhenNeeded() {
        var asked = 0
        func lookUp() -> String {
            asked += 1
            return "/var/lib/ann"
        }
        #expect(XDGDirectories(environment: ["HOME": "/home/ann"], accountHome: lookUp()).home == "/home/ann")
        #expect(asked == 0)
        #expect(XDGDirectories(environment: [:], accountHome: lookUp()).home == "/var/lib/ann")
        #expect(asked == 1)
    }
}
