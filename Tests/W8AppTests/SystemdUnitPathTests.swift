import Testing
import W8Core

@testable import W8App

/// Where the doctor looks for the units: systemd.unit(5)'s user unit search path, and `$SYSTEMD_UNIT_PATH`.
@Suite struct SystemdUnitPathTests {
    static let xdg = XDGDirectories(
        environment: [
            "HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_CONFIG_DIRS": "/etc/xdg:/opt/xdg",
        ], accountHome: "/nowhere")

    static let standard = [
        "/home/ann/.config/systemd/user", "/etc/xdg/systemd/user", "/opt/xdg/systemd/user", "/etc/systemd/user",
        "/run/user/1000/systemd/user", "/run/systemd/user", "/home/ann/.local/share/systemd/user",
        "/usr/local/share/systemd/user", "/usr/share/systemd/user", "/usr/local/lib/systemd/user",
        "/usr/lib/systemd/user",
    ]

    @Test("Unset: the XDG directories and systemd's own, in systemd's order")
    func standardPath() {
        #expect(Paths.systemdUnitSearchPath(xdg: Self.xdg, variable: nil) == Self.standard)
        #expect(
            Paths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"], accountHome: "/nowhere")
                .systemdUnitPath.count == 10)
    }

    @Test("SYSTEMD_UNIT_PATH replaces the path; a trailing ':' puts the standard path after it; empty is nothing")
    func variable() {
        #expect(Paths.systemdUnitSearchPath(xdg: Self.xdg, variable: "/a:/b") == ["/a", "/b"])
        #expect(Paths.systemdUnitSearchPath(xdg: Self.xdg, variable: "/a:") == ["/a"] + Self.standard)
        // A repeat is dropped, the first kept.
        #expect(
            Paths.systemdUnitSearchPath(xdg: Self.xdg, variable: "/etc/systemd/user:")
                == ["/etc/systemd/user"] + Self.standard.filter { $0 != "/etc/systemd/user" })
        #expect(Paths.systemdUnitSearchPath(xdg: Self.xdg, variable: "") == [])
        #expect(
            Paths(environment: ["HOME": "/h", "SYSTEMD_UNIT_PATH": "/units"], accountHome: "/nowhere").systemdUnitPath
                == ["/units"])
    }
}
