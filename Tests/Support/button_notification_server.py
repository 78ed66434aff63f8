#!/usr/bin/python3
"""A notification server for tests that presses a button.

Usage: button_notification_server.py EVENTS CAPABILITIES [PRESS]

Owns org.freedesktop.Notifications on the session bus in DBUS_SESSION_BUS_ADDRESS and advertises CAPABILITIES
(comma-separated, such as "actions,body"). Every Notify and CloseNotification call is appended to the file EVENTS
as one JSON line. When a Notify carries the action PRESS, the server emits ActionInvoked(id, PRESS) half a second
later, as a person clicking it would. CloseNotification emits NotificationClosed(id, 3). Prints "ready" once the
name is owned. Needs python3-dbus and python3-gi (Debian's /usr/bin/python3).
"""
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class ButtonServer(dbus.service.Object):
    def __init__(self, bus, events, capabilities, press):
        super().__init__(bus, PATH)
        self.events = events
        self.capabilities = capabilities
        self.press = press
        self.next_id = 1

    def record(self, event):
        with open(self.events, "a") as file:
            file.write(json.dumps(event) + "\n")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, icon, summary, body, actions, hints, timeout):
        notification_id = int(replaces_id) or self.next_id
        self.next_id = max(self.next_id, notification_id + 1)
        self.record({"method": "Notify", "id": notification_id, "summary": str(summary),
                     "actions": [str(a) for a in actions]})
        keys = [str(a) for a in actions[0::2]]
        if self.press and self.press in keys:
            GLib.timeout_add(500, self.invoke, notification_id, self.press)
        elif self.press:
            # What a test waits for to know that no press will come: the button was not offered.
            self.record({"method": "NotOffered", "id": notification_id, "action": self.press})
        return dbus.UInt32(notification_id)

    def invoke(self, notification_id, action):
        self.record({"method": "ActionInvoked", "id": notification_id, "action": action})
        self.ActionInvoked(dbus.UInt32(notification_id), action)
        return False

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.record({"method": "CloseNotification", "id": int(notification_id)})
        self.NotificationClosed(dbus.UInt32(notification_id), dbus.UInt32(3))

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return dbus.Array(self.capabilities, signature="s")

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("button-test-server", "W8Trackr tests", "1.0", "1.2")

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass


def main():
    events, capabilities = sys.argv[1], [c for c in sys.argv[2].split(",") if c]
    press = sys.argv[3] if len(sys.argv) > 3 else None
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(INTERFACE, bus, do_not_queue=True)
    server = ButtonServer(bus, events, capabilities, press)
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name, server


if __name__ == "__main__":
    sys.exit(main())
