import Testing

@testable import W8DBus

@Suite("The session bus's address")
struct BusAddressTests {
    static func none(_ path: String) -> Bool { false }

    @Test(
        "Unix socket addresses are read as GDBus reads them",
        arguments: [
            ("unix:path=/run/user/1000/bus", [UnixSocketAddress.path("/run/user/1000/bus")]),
            ("unix:path=/tmp/dbus-QMSFxs99Nw,guid=fa382be31a5b5ed25e22b28b6b0523be", [.path("/tmp/dbus-QMSFxs99Nw")]),
            ("unix:abstract=/tmp/dbus-AbC,guid=00ff", [.abstract("/tmp/dbus-AbC")]),
            ("unix:path=/tmp/with%20space%2cand%3bmore", [.path("/tmp/with space,and;more")]),
            ("unix:path=/a;unix:abstract=b", [.path("/a"), .abstract("b")]),
            ("unix:path=/a;", [.path("/a")]),
        ])
    func unixSockets(address: String, expected: [UnixSocketAddress]) {
        #expect(
            SessionBusAddress.sockets(busAddress: address, runtimeDirectory: "/run/user/1", exists: Self.none)
                == expected)
    }

    @Test(
        "Anything but a Unix socket, or a malformed address, is left to GDBus",
        arguments: [
            "tcp:host=localhost,port=4000", "autolaunch:", "unixexec:path=/usr/bin/ssh", "launchd:env=X",
            "unix:tmpdir=/tmp", "unix:runtime=yes", "unix:path=/a,abstract=b", "unix:path=", "unix:path=/a%2",
            "unix:path=/a%zz", "unix:path=%ff", "unix:", "path=/a", "unix:path=/a;tcp:host=x,port=1", ";",
        ])
    func leftToGDBus(address: String) {
        #expect(SessionBusAddress.sockets(busAddress: address, runtimeDirectory: nil, exists: Self.none) == nil)
    }

    @Test("Without an address, $XDG_RUNTIME_DIR/bus is used when it exists, as systemd's user bus")
    func runtimeDirectory() {
        let exists: (String) -> Bool = { $0 == "/run/user/1000/bus" }
        #expect(
            SessionBusAddress.sockets(busAddress: nil, runtimeDirectory: "/run/user/1000", exists: exists)
                == [.path("/run/user/1000/bus")])
        #expect(
            SessionBusAddress.sockets(busAddress: "", runtimeDirectory: "/run/user/1000", exists: exists)
                == [.path("/run/user/1000/bus")])
        #expect(SessionBusAddress.sockets(busAddress: nil, runtimeDirectory: "/run/user/2", exists: exists) == nil)
        #expect(SessionBusAddress.sockets(busAddress: nil, runtimeDirectory: "relative", exists: { _ in true }) == nil)
        #expect(SessionBusAddress.sockets(busAddress: nil, runtimeDirectory: nil, exists: { _ in true }) == nil)
    }
}
