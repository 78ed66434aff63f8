#!/usr/bin/python3
"""A stand-in for systemd-logind on a private system bus, for the presence tests of issue 39.

Usage: logind_standin.py --dir DIR [--bus ADDRESS]

The system's own logind cannot run inside the test suite (it needs to be PID 1's service and owns the real seats),
so this script speaks exactly the part of the documented org.freedesktop.login1 D-Bus interface that w8 reads
(https://www.freedesktop.org/software/systemd/man/latest/org.freedesktop.login1.html):
  - /org/freedesktop/login1, org.freedesktop.login1.Manager: GetUser(u uid) -> (o user), and the signal
    PrepareForSleep(b start);
  - /org/freedesktop/login1/user/_UID, org.freedesktop.login1.User: the property Display (so), the user's graphical
    session;
  - /org/freedesktop/login1/session/_31, org.freedesktop.login1.Session: the properties LockedHint (b) and
    IdleHint (b), each change sent as org.freedesktop.DBus.Properties.PropertiesChanged on the session's own path
    (as logind does: never on session/auto).
It starts its own system bus in DIR (or owns the name on the bus at --bus, such as the GNOME harness's), prints
  {"ready": true, "address": "unix:path=..."}
and answers one JSON command per stdin line with {"ok": true} or {"ok": false, "error": ...}:
  {"cmd": "lock"} / {"cmd": "unlock"}   LockedHint true / false (PropertiesChanged)
  {"cmd": "sleep"} / {"cmd": "wake"}    PrepareForSleep(true) / PrepareForSleep(false)
  {"cmd": "vanish"} / {"cmd": "return"} releases / takes the name again (logind restarted)
  {"cmd": "quit"}
"""
import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
import traceback

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from desktop_common import StartError, connect, read_line_from  # noqa: E402

NAME = "org.freedesktop.login1"
MANAGER_PATH = "/org/freedesktop/login1"
SESSION_PATH = "/org/freedesktop/login1/session/_31"
XML = """<node>
<interface name="org.freedesktop.login1.Manager">
  <method name="GetUser"><arg type="u" direction="in"/><arg type="o" direction="out"/></method>
  <signal name="PrepareForSleep"><arg type="b"/></signal>
</interface>
<interface name="org.freedesktop.login1.User">
  <property name="Display" type="(so)" access="read"/>
</interface>
<interface name="org.freedesktop.login1.Session">
  <property name="LockedHint" type="b" access="read"/>
  <property name="IdleHint" type="b" access="read"/>
</interface>
</node>"""
SYSTEM_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path={socket}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>
<allow receive_sender="*"/></policy></busconfig>
"""


def bus_child_setup():
    """In the bus's child before exec: no signal blocked (a test process may block SIGTERM, and its children
    inherit the mask: the bus then outlived every stop), and SIGKILL when this script dies (PR_SET_PDEATHSIG)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


def emit(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


class Logind:
    def __init__(self, connection):
        self.connection = connection
        self.locked = False
        self.owner_id = 0
        self.uid = os.getuid()
        self.user_path = f"/org/freedesktop/login1/user/_{self.uid}"
        info = Gio.DBusNodeInfo.new_for_xml(XML)
        interfaces = {i.name: i for i in info.interfaces}
        for path, interface in ((MANAGER_PATH, "org.freedesktop.login1.Manager"),
                                (self.user_path, "org.freedesktop.login1.User"),
                                (SESSION_PATH, "org.freedesktop.login1.Session")):
            connection.register_object(path, interfaces[interface], self.on_call, self.on_get, None)

    def own(self):
        self.owner_id = Gio.bus_own_name_on_connection(
            self.connection, NAME, Gio.BusNameOwnerFlags.NONE, None, None)

    def disown(self):
        if self.owner_id:
            Gio.bus_unown_name(self.owner_id)
            self.owner_id = 0

    def on_call(self, _connection, _sender, _path, _interface, method, parameters, invocation):
        # One user, whose session is the only one: the client may run as another account than this script (the
        # desktops' clients run as w8test when the suite runs as root).
        if method == "GetUser":
            invocation.return_value(GLib.Variant("(o)", (self.user_path,)))
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def on_get(self, _connection, _sender, _path, _interface, name):
        return {
            "Display": GLib.Variant("(so)", ("31", SESSION_PATH)),
            "LockedHint": GLib.Variant("b", self.locked),
            "IdleHint": GLib.Variant("b", False),
        }[name]

    def set_locked(self, locked):
        self.locked = locked
        self.connection.emit_signal(
            None, SESSION_PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            GLib.Variant("(sa{sv}as)", ("org.freedesktop.login1.Session",
                                        {"LockedHint": GLib.Variant("b", locked)}, [])))

    def sleep(self, start):
        self.connection.emit_signal(
            None, MANAGER_PATH, "org.freedesktop.login1.Manager", "PrepareForSleep", GLib.Variant("(b)", (start,)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--bus")
    options = parser.parse_args()
    # SIGTERM must reach this script and its bus, whatever mask the test process handed down.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    bus_process = None
    address = options.bus
    if address is None:
        # Reachable by a client running as another account; the directory stays unlistable.
        os.chmod(options.dir, 0o711)
        socket_path = os.path.join(options.dir, "system.sock")
        config = os.path.join(options.dir, "system.conf")
        with open(config, "w") as file:
            file.write(SYSTEM_CONFIG.format(socket=socket_path))
        log = open(os.path.join(options.dir, "system-bus.log"), "w")
        # The bus writes its address once it listens (--print-address): the socket's path alone exists from bind(),
        # before listen(), and a client that connects in between is refused.
        read_end, write_end = os.pipe()
        bus_process = subprocess.Popen(
            ["dbus-daemon", "--config-file", config, "--nofork", "--nosyslog", f"--print-address={write_end}"],
            stdout=log, stderr=log, start_new_session=True, preexec_fn=bus_child_setup, pass_fds=(write_end,))
        os.close(write_end)
        try:
            address = read_line_from(read_end, time.monotonic() + 30, "the private system bus")
        except StartError as error:
            emit({"ready": False, "error": str(error)})
            return 1
        finally:
            os.close(read_end)
    connection = connect(address)
    logind = Logind(connection)
    logind.own()
    loop = GLib.MainLoop()

    def stop(*_):
        loop.quit()

    signal.signal(signal.SIGTERM, stop)
    context = GLib.MainContext.default()
    # Ready once the name is owned. A loaded machine (the suite runs eight desktops on two cores) may take longer
    # than a call's timeout to answer: that is a reason to ask again, not to die without a word.
    deadline = time.monotonic() + 25
    while True:
        context.iteration(False)
        try:
            reply = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "NameHasOwner", GLib.Variant("(s)", (NAME,)), None, 0, 5000, None)
            if reply.unpack()[0]:
                break
        except GLib.Error:
            pass
        if time.monotonic() > deadline:
            emit({"ready": False, "error": f"{NAME} was not owned within 25 s"})
            return 1
        time.sleep(0.02)
    emit({"ready": True, "address": address})

    def on_line(channel, _condition):
        line = channel.readline()
        if not line:
            loop.quit()
            return False
        try:
            command = json.loads(line)["cmd"]
            if command == "quit":
                emit({"ok": True})
                loop.quit()
                return False
            {"lock": lambda: logind.set_locked(True), "unlock": lambda: logind.set_locked(False),
             "sleep": lambda: logind.sleep(True), "wake": lambda: logind.sleep(False),
             "vanish": logind.disown, "return": logind.own}[command]()
            connection.flush_sync(None)
            emit({"ok": True})
        except (KeyError, ValueError, GLib.Error) as error:
            emit({"ok": False, "error": str(error)})
        return True

    channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(channel, GLib.IO_IN | GLib.IO_HUP, on_line)
    loop.run()
    logind.disown()
    connection.close_sync(None)
    if bus_process is not None:
        bus_process.terminate()
        try:
            bus_process.wait(5)
        except subprocess.TimeoutExpired:
            bus_process.kill()
            bus_process.wait(5)
    return 0


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001 -- the harness reads the ready line, not stderr: say why, then fail
        emit({"ready": False, "error": traceback.format_exc()})
        sys.exit(1)
