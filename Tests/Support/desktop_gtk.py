#!/usr/bin/python3
"""A real GTK notification server for tests: xfce4-notifyd or notification-daemon under Xvfb on a private bus.

Usage: desktop_gtk.py --dir DIR --server xfce4-notifyd|notification-daemon

The same as desktop_lxqt.py, whose Desktop this extends: Xvfb, a private dbus-daemon with no service to activate,
an AT-SPI accessibility bus, then the server, whose GTK 3 widgets are read back through AT-SPI. For xfce4-notifyd,
xfconfd runs first on the private bus, its store in DIR's XDG_CONFIG_HOME and empty, so the server keeps its
defaults; it holds the server's Do Not Disturb. Everything runs as root, and so must the clients.

The ready line and the commands are desktop_lxqt.py's, and for xfce4-notifyd
  {"cmd": "dnd", "on": B}    Do Not Disturb on or off as its settings dialog sets it:
                             `xfconf-query -c xfce4-notifyd -p /do-not-disturb -n -t bool -s B`
What differs is how a popup is read:
  - a popup is a top-level window of the server that xwininfo reports viewable, and the accessible frame (xfce4-
    notifyd) or alert (notification-daemon) with the same place and size;
  - its labels in order are the summary and the body; its named push buttons are the actions (the close button of
    notification-daemon has no name);
  - "has_image": the icon slot shows a picture that is not the app icon. Both servers draw image-path or
    image-data in place of the icon, scaled into the same slot, so a screenshot of the slot is compared with the
    app icon (the file w8 sent as app_icon) scaled to the slot: "image_difference" is their mean difference per
    channel (0-255), and over IMAGE_DIFFERENCE is an image.
notification-daemon shows one popup at a time and queues the others.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import (  # noqa: E402
    IMAGE_DIFFERENCE, NOTIFICATIONS, CommandError, StartError, image_difference, plain, serve, server_information,
    strip, wait_for_owner)
import desktop_lxqt  # noqa: E402

import gi  # noqa: E402

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

EXECUTABLES = {
    "xfce4-notifyd": ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd",
                      "/usr/lib/aarch64-linux-gnu/xfce4/notifyd/xfce4-notifyd"],
    "notification-daemon": ["/usr/lib/notification-daemon/notification-daemon"],
}
XFCONFD = ["/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd", "/usr/lib/aarch64-linux-gnu/xfce4/xfconf/xfconfd"]
START_DEADLINE = 30
XFCONF = "org.xfce.Xfconf"


def flatten(entry):
    yield entry
    for child in entry["children"]:
        yield from flatten(child)


def shown(extents):
    return bool(extents) and extents["w"] > 0 and extents["h"] > 0


class Desktop(desktop_lxqt.Desktop):
    """A GTK server under Xvfb, run as root; xdotool is the person."""

    def __init__(self, directory, server):
        super().__init__(directory)
        self.SERVER = server

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        executable = next((path for path in EXECUTABLES[self.SERVER] if os.path.exists(path)), None)
        if executable is None:
            raise StartError(f"{self.SERVER} is not installed: run scripts/install-deps")
        self.start_x11(deadline)
        # The accessibility bus first: GTK's atk-bridge looks for it once, when GTK starts. GSETTINGS_BACKEND=memory:
        # nothing can start dconf on this bus.
        self.start_accessibility(deadline)
        if self.SERVER == "xfce4-notifyd":
            xfconfd = next((path for path in XFCONFD if os.path.exists(path)), None)
            if xfconfd is None:
                raise StartError("xfconfd is not installed: run scripts/install-deps")
            self.children.spawn("xfconfd", [xfconfd], self.base_env)
            wait_for_owner(self.connection, XFCONF, deadline, self.children, "xfconfd")
        self.children.spawn(self.SERVER, [executable], dict(self.base_env, GSETTINGS_BACKEND="memory"))
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, self.SERVER)
        information = server_information(self.connection)
        return self.ready_line({"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": self.display}, information,
                               started, deadline)

    def handle(self, command):
        if command.get("cmd") == "dnd" and self.SERVER == "xfce4-notifyd":
            value = "true" if command["on"] else "false"
            subprocess.run(["xfconf-query", "-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool",
                            "-s", value], env=self.base_env, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=10, check=True)
            return {}
        return super().handle(command)

    # Reading the screen

    def popups(self):
        application = self.accessibility.application(self.SERVER)
        if application is None:
            raise CommandError(f"{self.SERVER} is not in the AT-SPI registry")
        windows = [(w["x"], w["y"], w["w"], w["h"]) for w in self.window_popups()]
        found = []
        for node in self.accessibility.children(application):
            tree = self.accessibility.tree(node)
            extents = tree["extents"]
            if not shown(extents) or (extents["x"], extents["y"], extents["w"], extents["h"]) not in windows:
                continue
            nodes = list(flatten(tree))
            labels = [n for n in nodes if n["role"] == "label" and n["name"] and shown(n["extents"])]
            icon = next((n for n in nodes if n["role"] == "icon" and shown(n["extents"])), None)
            found.append({
                "app_name": "",
                "summary": labels[0]["name"] if labels else "",
                "body": "\n".join(label["name"] for label in labels[1:]),
                "extents": extents,
                "summary_extents": labels[0]["extents"] if labels else None,
                "body_extents": labels[1]["extents"] if len(labels) > 1 else None,
                "image_extents": icon["extents"] if icon else None,
                "buttons": [{"label": n["name"], "extents": n["extents"]} for n in nodes
                            if n["role"] == "push button" and n["name"] and shown(n["extents"])],
            })
        return found

    def window_pattern(self):
        return re.compile(r'\s*(0x[0-9a-f]+) "[^"]*": \("' + re.escape(self.SERVER) +
                          r'" [^)]*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)')

    def notifications(self):
        popups = self.popups()
        screen = None
        if popups:
            path = os.path.join(self.directory, "slot.png")
            self.screenshot(path)
            screen = GdkPixbuf.Pixbuf.new_from_file(path)
            os.unlink(path)
        listed = []
        for popup, match, labels in self.matched(popups):
            difference = image_difference(popup["image_extents"], (match or {}).get("app_icon", ""), screen)
            listed.append({
                "id": match["id"] if match else None,
                "summary": popup["summary"],
                "body": popup["body"],
                "popup": True,
                "actions": [{"id": labels.get(b["label"]), "label": b["label"]} for b in popup["buttons"]],
                "has_image": difference is not None and difference > IMAGE_DIFFERENCE,
                "image_difference": difference,
                "x": popup["extents"]["x"], "y": popup["extents"]["y"],
                "w": popup["extents"]["w"], "h": popup["extents"]["h"],
            })
        return listed

    @staticmethod
    def matches(record, popup):
        """Whether the popup shows the Notify call record: its summary and body labels read as the ones sent."""
        return plain(record["summary"]) == plain(popup["summary"]) and plain(record["body"]) == plain(popup["body"])

    def tree(self):
        return strip(self.accessibility.tree(self.accessibility.application(self.SERVER)))


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--server", choices=sorted(EXECUTABLES), required=True)
    server = parser.parse_known_args()[0].server
    return serve(lambda directory: Desktop(directory, server), __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
