#!/usr/bin/python3
"""A hung notification server for tests.

Owns org.freedesktop.Notifications on the session bus in DBUS_SESSION_BUS_ADDRESS, registers the interface, and
never answers any call, so clients block until their own D-Bus timeout. Prints "ready" once the name is owned,
and "call METHOD" as each call arrives.
Needs python3-dbus and python3-gi (Debian's /usr/bin/python3).
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class HungServer(dbus.service.Object):
    """Accepts every call and keeps its reply callbacks, never calling them."""

    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.pending = []

    def hold(self, method, reply, error):
        """Keeps the call unanswered, and says on stdout that it arrived."""
        self.pending.append((reply, error))
        print("call " + method, flush=True)

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u",
                         async_callbacks=("reply", "error"))
    def Notify(self, app_name, replaces_id, icon, summary, body, actions, hints, timeout, reply, error):
        self.hold("Notify", reply, error)

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="", async_callbacks=("reply", "error"))
    def CloseNotification(self, notification_id, reply, error):
        self.hold("CloseNotification", reply, error)

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as", async_callbacks=("reply", "error"))
    def GetCapabilities(self, reply, error):
        self.hold("GetCapabilities", reply, error)

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss", async_callbacks=("reply", "error"))
    def GetServerInformation(self, reply, error):
        self.hold("GetServerInformation", reply, error)


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(INTERFACE, bus, do_not_queue=True)
    server = HungServer(bus)
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name, server


if __name__ == "__main__":
    sys.exit(main())
