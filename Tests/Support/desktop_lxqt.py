#!/usr/bin/python3
"""A real LXQt notification server for tests: lxqt-notificationd under Xvfb on a private session bus.

Usage: desktop_lxqt.py --dir DIR

DIR is an existing empty directory; everything this script makes (the bus socket and config, logs, the runtime
directory) lives in it. It starts Xvfb (a free display through -displayfd), a private dbus-daemon whose only service
directory is empty (nothing is D-Bus-activated), an AT-SPI accessibility bus (at-spi-bus-launcher) and
lxqt-notificationd with Qt's AT-SPI bridge switched on, so that the popups' labels and buttons can be read back.
Everything runs as root, and so must the clients.

Once org.freedesktop.Notifications has an owner and lxqt-notificationd is in the AT-SPI registry it prints one
JSON line:
  {"ready": true, "env": {"DBUS_SESSION_BUS_ADDRESS": ..., "DISPLAY": ...}, "user": "root",
   "server": {"name", "vendor", "version", "spec_version", "capabilities"}, "seconds_to_start": S}
or {"ready": false, "error": ..., "log": ...} and exits 1. Then it answers one JSON command per stdin line with one
JSON line that has "ok" (and "error" when it is false):
  {"cmd": "notifications"}   the popups on screen, read through AT-SPI from lxqt-notificationd's own widgets: each
                             {"id", "app_name", "summary", "body" (the label's text, markup rendered), "popup",
                             "actions": [{"id", "label"}] (the buttons shown), "has_image" (the icon slot holds a
                             picture: image-data or an app_icon; lxqt ignores image-path), "x", "y", "w", "h"}.
                             "id" is the Notify answer whose summary and body match (a bus monitor records them).
                             If AT-SPI fails: ok false and "popups" (mapped windows, from xwininfo).
  {"cmd": "signals"}         every NotificationClosed and ActionInvoked the server emitted since start
  {"cmd": "expire"}          waits (at most 15 s) until no popup is on screen. lxqt-notificationd expires every
                             popup after 10 s, critical ones too, except expire_timeout 0 (kept until clicked: an
                             error here), and not while the pointer is over it, so the pointer is parked first.
  {"cmd": "press", "id": N, "action": KEY}   clicks that button with xdotool, waits for ActionInvoked
  {"cmd": "click", "id": N}  clicks the notification's body text with xdotool; answers the signals that followed
  {"cmd": "screenshot", "path": P}  the whole screen as a PNG (imagemagick's import -window root)
  {"cmd": "tree"}            (debugging) the server's whole accessible tree
  {"cmd": "quit"}            stops everything it started and exits 0; so do EOF, SIGTERM and SIGINT.
After each click the pointer is parked at (0, 0), away from the popups.
The plumbing (child processes, the private bus, the bus monitor, AT-SPI reads, the command loop) is
desktop_common.py's, in the same directory; desktop_swaync.py shares it.
Needs python3-gi (Debian's /usr/bin/python3), xvfb, dbus, at-spi2-core, lxqt-notificationd, xdotool, x11-utils and
imagemagick.
"""
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import (  # noqa: E402
    NOTIFICATIONS, PATH, AtspiDesktop, BusRecorder, CommandError, GLib, StartError, connect, plain,
    read_line_from, serve, server_information, start_bus, strip, wait_for_owner)

SERVER = "lxqt-notificationd"
START_DEADLINE = 30
EXPIRE_DEADLINE = 15


def start_xvfb(children, deadline):
    """Xvfb on a free display (-displayfd); returns the display, ":N"."""
    read_end, write_end = os.pipe()
    children.spawn(
        "Xvfb", ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        env={"PATH": PATH, "LANG": "C.UTF-8"}, pass_fds=(write_end,))
    os.close(write_end)
    try:
        number = read_line_from(read_end, deadline, "Xvfb -displayfd")
    finally:
        os.close(read_end)
    if not number.isdigit():
        raise StartError(f"Xvfb printed {number!r} as its display")
    return ":" + number


# Reading lxqt-notificationd's widgets


def shown(extents):
    return bool(extents) and extents["w"] > 0 and extents["h"] > 0


def popups_in(tree):
    """The Notification widgets in lxqt-notificationd's accessible tree: a node whose children are the icon (a
    "label", or a "graphic" once it holds an image), the labels app name, summary and body, the close button "x"
    and the actions widget (buttons, or a combo box when there are many actions)."""
    found = []

    def visit(entry):
        children = entry["children"]
        labels = [c for c in children if c["role"] in ("label", "graphic")]
        if len(labels) >= 4 and any(c["role"] == "push button" and c["name"] == "x" for c in children):
            found.append(entry)
            return
        for child in children:
            visit(child)

    visit(tree)
    return found


def describe_popup(entry):
    icon, app, summary, body = [c for c in entry["children"] if c["role"] in ("label", "graphic")][:4]
    actions = []

    def collect(node):
        for child in node["children"]:
            if child["role"] == "push button" and shown(child["extents"]):
                actions.append({"label": child["name"], "extents": child["extents"]})
            elif child["role"] in ("combo box", "menu item", "list item"):
                actions.append({"label": child["name"], "extents": child["extents"], "role": child["role"]})
            else:
                collect(child)

    for child in entry["children"]:
        if child["role"] not in ("label", "graphic", "push button"):
            collect(child)
    return {
        "app_name": app["name"] if shown(app["extents"]) else "",
        "summary": summary["name"] if shown(summary["extents"]) else "",
        "body": body["name"] if shown(body["extents"]) else "",
        # The icon label shows the image-data image (or an icon); it is empty and 0x0 otherwise.
        "has_image": icon["role"] == "graphic" and shown(icon["extents"]),
        "image_extents": icon["extents"] if shown(icon["extents"]) else None,
        "extents": entry["extents"],
        "body_extents": body["extents"] if shown(body["extents"]) else None,
        "summary_extents": summary["extents"] if shown(summary["extents"]) else None,
        "buttons": actions,
    }


# The desktop


class Desktop(AtspiDesktop):
    """lxqt-notificationd under Xvfb, run as root; xdotool is the person."""

    SERVER = SERVER

    def __init__(self, directory):
        super().__init__(directory)
        self.display = None

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        self.start_x11(deadline)

        # lxqt-notificationd first, the accessibility bus after it: Qt 5.15 connects its AT-SPI bridge to a bus
        # that is already there in a race it loses (it registers before its a11y connection is up, and never
        # again), but connects properly to one that appears later (QDBusServiceWatcher on org.a11y.Bus).
        server_env = dict(self.base_env, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
        self.children.spawn(SERVER, [SERVER], server_env)
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, SERVER)
        information = server_information(self.connection)
        self.start_accessibility(deadline)
        return self.ready_line({"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": self.display}, information,
                               started, deadline)

    def start_x11(self, deadline, **env):
        """Xvfb, the private bus and its monitor; base_env is then what a client of them needs, and env."""
        runtime = os.path.join(self.directory, "run")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        os.chmod(runtime, 0o700)
        home = os.path.join(self.directory, "home")
        config = os.path.join(self.directory, "config")
        for path in (home, config):
            os.makedirs(path, exist_ok=True)
        self.display = start_xvfb(self.children, deadline)
        self.address = start_bus(self.children, self.directory, runtime, deadline)
        self.connection = connect(self.address)
        self.recorder = BusRecorder(self.address)
        self.base_env = dict({
            "PATH": PATH, "LANG": "C.UTF-8", "HOME": home, "DISPLAY": self.display,
            "DBUS_SESSION_BUS_ADDRESS": self.address, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config,
        }, **env)

    # Reading the screen

    def matched(self, popups):
        """Each popup with the open Notify call it shows (or None) and that call's action ids by label."""
        candidates = self.recorder.open_notifications()
        for popup in popups:
            match = next((r for r in candidates if self.matches(r, popup)), None)
            if match is not None:
                candidates.remove(match)
            yield popup, match, {a["label"]: a["id"] for a in (match or {}).get("actions", [])}

    def popups(self):
        application = self.accessibility.application(SERVER)
        if application is None:
            raise CommandError(f"{SERVER} is not in the AT-SPI registry")
        return [describe_popup(p) for p in popups_in(self.accessibility.tree(application))]

    @staticmethod
    def matches(record, popup):
        """Whether the popup shows the Notify call record: its summary and body labels read as the ones sent."""
        return plain(record["summary"]) == plain(popup["summary"]) and plain(record["body"]) == plain(popup["body"])

    def window_pattern(self):
        """A line of `xwininfo -root -children` that is a window of the server: id, width, height, x, y."""
        return re.compile(r'\s*(0x[0-9a-f]+) "lxqt-notificationd": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)')

    def window_popups(self):
        """Mapped top-level windows of the server (xwininfo), its NotificationArea: the fallback when AT-SPI
        cannot be read."""
        result = self.run(["xwininfo", "-root", "-children"])
        found = []
        for line in result.stdout.splitlines():
            match = self.window_pattern().match(line)
            if not match:
                continue
            info = self.run(["xwininfo", "-id", match.group(1)]).stdout
            if "IsViewable" in info and int(match.group(2)) > 1:
                found.append({"x": int(match.group(4)), "y": int(match.group(5)), "w": int(match.group(2)),
                              "h": int(match.group(3))})
        return found

    def notifications(self):
        listed = []
        for popup, match, labels in self.matched(self.popups()):
            listed.append({
                "id": match["id"] if match else None,
                "app_name": popup["app_name"],
                "summary": popup["summary"],
                "body": popup["body"],
                "popup": shown(popup["extents"]),
                "actions": [{"id": labels.get(b["label"]), "label": b["label"]} for b in popup["buttons"]],
                "has_image": popup["has_image"],
                "x": popup["extents"]["x"], "y": popup["extents"]["y"],
                "w": popup["extents"]["w"], "h": popup["extents"]["h"],
            })
        return listed

    def answer_notifications(self):
        try:
            return {"notifications": self.notifications()}
        except (GLib.Error, CommandError) as error:
            return {"ok": False, "error": f"AT-SPI unreadable: {error}", "popups": self.window_popups()}

    def tree(self):
        return strip(self.accessibility.tree(self.accessibility.application(SERVER)))

    # Acting as a person

    def run(self, argv, timeout=10):
        return subprocess.run(argv, env=self.base_env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, cwd=self.directory)

    def click_at(self, x, y):
        # No --sync: xdotool waits forever for a motion event when the pointer is already there.
        result = self.run(["xdotool", "mousemove", str(x), str(y), "sleep", "0.1", "click", "1"])
        if result.returncode != 0:
            raise CommandError(f"xdotool failed: {result.stderr.strip()}")

    def park_pointer(self):
        """Moves the pointer to the top left corner, away from the popups: lxqt-notificationd stops a popup's
        timeout while the pointer is over it, and new popups appear where the last one was."""
        self.run(["xdotool", "mousemove", "0", "0", "sleep", "0.1"])

    def click_center(self, extents):
        self.click_at(extents["x"] + extents["w"] // 2, extents["y"] + extents["h"] // 2)
        self.park_pointer()

    @staticmethod
    def click_target(popup):
        """A click on a popup lands on its body text (else its summary, else its middle)."""
        return popup["body_extents"] or popup["summary_extents"] or popup["extents"]

    def expire(self):
        deadline = time.monotonic() + EXPIRE_DEADLINE
        self.park_pointer()
        while True:
            remaining = [p for p in self.popups() if shown(p["extents"])]
            if not remaining and not self.window_popups():
                return {}
            if time.monotonic() > deadline:
                raise CommandError(f"{len(remaining)} popup(s) still on screen after {EXPIRE_DEADLINE} s: "
                                   f"{[p['summary'] for p in remaining]}")
            time.sleep(0.1)

    def screenshot(self, path):
        if not os.path.isabs(path):
            raise CommandError("path must be absolute")
        result = self.run(["import", "-window", "root", path], timeout=20)
        if result.returncode != 0:
            raise CommandError(f"import failed: {result.stderr.strip()}")
        return {}


def main():
    return serve(Desktop, __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
