#!/usr/bin/python3
"""A real Sway Notification Center for tests: swaync in a headless sway on a private session bus.

Usage: desktop_swaync.py --dir DIR

Run as root. sway refuses to run as root, and a session bus admits only its own user (and root, which this bus
config allows for the script itself), so the bus, sway, an AT-SPI accessibility bus and swaync all run as the
unprivileged user w8test (scripts/install-deps creates it), and so must the clients: the ready line says
"user": "w8test". DIR is an existing empty directory; everything this script makes lives in it, and it is given
to w8test (chown), as are its runtime directory DIR/run (0700: the bus socket, the Wayland socket) and DIR/home.
Every parent of DIR must be searchable by w8test.

Once org.freedesktop.Notifications has an owner and swaync's popup window is readable through AT-SPI it prints one
JSON line:
  {"ready": true, "env": {"DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"}, "user": "w8test",
   "server": {"name", "vendor", "version", "spec_version", "capabilities"}, "seconds_to_start": S}
or {"ready": false, "error": ..., "log": ...} and exits 1. Then it answers one JSON command per stdin line with one
JSON line that has "ok" (and "error" when it is false):
  {"cmd": "notifications"}   the popups on screen, read through AT-SPI from swaync's GTK widgets: the summary (the
                             default-action button's name), the action buttons and their place. GTK hides what is
                             inside a button, so "body" (markup removed; "body_markup" as sent) comes from the
                             Notify call a bus monitor recorded ("body_from": "notify-call"), and "has_image" from
                             the pixels of the image slot in a grim screenshot. Then the notifications that are
                             neither on screen nor closed ("popup": false, "in_control_center": true), and
                             "control_center_count" (org.erikreider.swaync.cc NotificationCount).
  {"cmd": "signals"}         every NotificationClosed and ActionInvoked the server emitted since start
  {"cmd": "expire"}          waits (at most 15 s) until no popup is on screen; popups that never time out
                             (critical, or expire_timeout 0) are hidden the way swaync's timeout hides them
                             (HideLatestNotifications(false): off screen, still in the control center)
  {"cmd": "press", "id": N, "action": KEY}   clicks that button with a virtual pointer, waits for ActionInvoked
  {"cmd": "click", "id": N}  clicks the notification itself (its default-action area); answers the signals that
                             followed. After each click the pointer is parked in the bottom left corner.
  {"cmd": "screenshot", "path": P}  the whole output as a PNG (grim)
  {"cmd": "dnd", "on": B}    Do Not Disturb on or off as a person sets it, with `swaync-client -d` (toggle), run as
                             USER; answers once GetDnd says B
  {"cmd": "activity"}       the virtual pointer moves a pixel and back: input, which ends sway's idle time (the
                             idle timeouts that swayidle registers)
  {"cmd": "tree"}            (debugging) swaync's accessible trees, window by window
  {"cmd": "quit"}            stops everything it started and exits 0; so do EOF, SIGTERM and SIGINT.
The plumbing (child processes, the private bus, the bus monitor, AT-SPI reads, the command loop) is
desktop_common.py's, in the same directory, shared with desktop_lxqt.py; the virtual pointer is wayland_pointer.py.
"""
import json
import os
import pwd
import shutil
import subprocess
import sys
import time

import gi

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import (  # noqa: E402
    NOTIFICATIONS, PATH, AtspiDesktop, BusRecorder, CommandError, StartError, call, connect, plain, serve,
    server_information, start_bus, strip, wait_for_owner, wait_until)
from wayland_pointer import VirtualPointer, WaylandError  # noqa: E402

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

USER = "w8test"
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "swaync")
SERVER = "swaync"
CC_NAME = "org.erikreider.swaync.cc"
CC_PATH = "/org/erikreider/swaync/cc"
WIDTH, HEIGHT = 1280, 800
START_DEADLINE = 30
EXPIRE_DEADLINE = 15
OFF_SCREEN = -2147483648  # GTK's extents of a widget that is not drawn


class Desktop(AtspiDesktop):
    """swaync in a headless sway, all run as USER; a virtual pointer is the person."""

    SERVER = SERVER
    USER = USER

    def __init__(self, directory):
        super().__init__(directory)
        self.pointer = None
        self.wayland_display = None
        self.runtime = os.path.join(directory, "run")
        self.config = self.swaync_config()

    @staticmethod
    def swaync_config():
        """swaync's configuration as it will read it: Debian's, committed in Tests/Fixtures/swaync (its README says
        where it comes from) and put in the session's XDG_CONFIG_DIRS; nothing of the host's /etc/xdg."""
        with open(os.path.join(FIXTURES, "config.json")) as file:
            return json.load(file)

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        self.start_sway(deadline)

        # The accessibility bus before swaync: GTK's atk-bridge looks for it once, when GTK starts.
        self.start_accessibility(deadline, user=USER)

        # swaync's configuration: the committed copy of Debian's, where swaync looks after XDG_CONFIG_HOME.
        xdg = os.path.join(self.directory, "xdg")
        os.makedirs(os.path.join(xdg, "swaync"), exist_ok=True)
        for name in ("config.json", "configSchema.json", "style.css"):
            shutil.copyfile(os.path.join(FIXTURES, name), os.path.join(xdg, "swaync", name))
        for path in (xdg, os.path.join(xdg, "swaync")):
            os.chmod(path, 0o755)
        # GSETTINGS_BACKEND=memory: nothing can start dconf on this bus, and swaync keeps no setting we read.
        self.children.spawn(SERVER, [SERVER], dict(self.base_env, GSETTINGS_BACKEND="memory", XDG_CONFIG_DIRS=xdg),
                            user=USER)
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, SERVER)
        wait_for_owner(self.connection, CC_NAME, deadline, self.children, SERVER)
        information = server_information(self.connection)
        return self.ready_line(self.client_env(), information, started, deadline)

    def client_env(self):
        """What a client needs: the bus, the Wayland display and its runtime directory."""
        return {"DBUS_SESSION_BUS_ADDRESS": self.address, "WAYLAND_DISPLAY": self.wayland_display,
                "XDG_RUNTIME_DIR": self.runtime}

    def start_sway(self, deadline):
        """The private bus, a headless sway and a virtual pointer in it, all as USER; base_env is then what a
        client of that sway needs."""
        try:
            account = pwd.getpwnam(USER)
        except KeyError:
            raise StartError(f"no user {USER}: run scripts/install-deps, or useradd -m {USER}")
        uid, gid = account.pw_uid, account.pw_gid
        home = os.path.join(self.directory, "home")
        config = os.path.join(self.directory, "config")
        for path in (self.runtime, home, config):
            os.makedirs(path, exist_ok=True)
        os.chmod(self.runtime, 0o700)
        for path in (self.directory, self.runtime, home, config):
            os.chown(path, uid, gid)
        check = subprocess.run(["test", "-w", self.runtime], user=uid, group=gid, extra_groups=[],
                               env={"PATH": PATH})
        if check.returncode != 0:
            raise StartError(f"{USER} cannot reach {self.runtime}: every parent of DIR must be searchable (o+x)")

        self.base_env = {
            "PATH": PATH, "LANG": "C.UTF-8", "HOME": home, "XDG_RUNTIME_DIR": self.runtime,
            "XDG_CONFIG_HOME": config,
        }
        self.address = start_bus(self.children, self.directory, self.runtime, deadline, user=USER)
        self.base_env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        self.connection = connect(self.address)
        self.recorder = BusRecorder(self.address)

        sway_config = os.path.join(self.directory, "sway.conf")
        with open(sway_config, "w") as file:
            file.write(f"output HEADLESS-1 mode {WIDTH}x{HEIGHT} bg #203040 solid_color\n")
        os.chmod(sway_config, 0o644)
        sway_env = dict(self.base_env, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
        self.children.spawn("sway", ["sway", "-c", sway_config], sway_env, user=USER)
        while self.wayland_display is None:
            names = sorted(n for n in os.listdir(self.runtime) if n.startswith("wayland-") and
                           not n.endswith(".lock"))
            if names:
                self.wayland_display = names[0]
                break
            self.children.check_alive("sway")
            if time.monotonic() > deadline:
                raise StartError("sway made no Wayland socket")
            time.sleep(0.02)
        self.base_env["WAYLAND_DISPLAY"] = self.wayland_display
        # The headless seat has no pointer: make one now, so that GTK sees a seat with a pointer from its start.
        try:
            self.pointer = VirtualPointer(os.path.join(self.runtime, self.wayland_display), WIDTH, HEIGHT)
            self.park_pointer()
        except (OSError, WaylandError) as error:
            raise StartError(f"virtual pointer: {error}")

    # Reading the screen

    def handle(self, command):
        if command.get("cmd") == "dnd":
            return self.set_dnd(bool(command["on"]))
        if command.get("cmd") == "activity":
            self.pointer.move(1, HEIGHT - 1)
            self.park_pointer()
            return {}
        return super().handle(command)

    def set_dnd(self, on):
        """Toggles Do Not Disturb with swaync's own client until GetDnd says `on`."""
        if self.cc("GetDnd", None, "(b)")[0] != on:
            subprocess.run(["swaync-client", "-d", "-sw"], env=dict(self.base_env, **self.client_env()),
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=10, user=USER, group=USER,
                           extra_groups=[], cwd=self.runtime, check=True)
        wait_until(lambda: self.cc("GetDnd", None, "(b)")[0] == on, 5,
                   f"swaync's GetDnd to say {on}")
        return {}

    def cc(self, method, parameters=None, reply=None):
        return call(self.connection, CC_NAME, CC_PATH, CC_NAME, method, parameters, reply)

    def frames(self):
        """swaync's windows in the accessible tree, each with its place on the output. GTK on Wayland knows
        nothing of where its windows are, so their origin comes from swaync's anchoring (positionX, positionY)."""
        application = self.accessibility.application(SERVER)
        if application is None:
            raise CommandError(f"{SERVER} is not in the AT-SPI registry")
        frames = []
        for node in self.accessibility.children(application):
            tree = self.accessibility.tree(node)
            extents = tree["extents"]
            if not visible(extents):
                continue
            horizontal = self.config.get("positionX", "right")
            vertical = self.config.get("positionY", "top")
            x = {"left": 0, "center": (WIDTH - extents["w"]) // 2}.get(horizontal, WIDTH - extents["w"])
            y = {"bottom": HEIGHT - extents["h"], "center": (HEIGHT - extents["h"]) // 2}.get(vertical, 0)
            control_center = any(n["name"] in ("Clear All", "Do Not Disturb") for n in flatten(tree))
            frames.append({"tree": tree, "origin": (x - extents["x"], y - extents["y"]),
                           "control_center": control_center})
        return frames

    def popups(self):
        """Each notification in swaync's popup window: a list row holding the default-action button (named after
        the summary; the body, image and time are inside it, hidden from AT-SPI), the action buttons, and the
        close button (no name)."""
        found = []
        for frame in self.frames():
            if frame["control_center"]:
                continue
            dx, dy = frame["origin"]
            for row in (n for n in flatten(frame["tree"]) if n["role"] == "list item"):
                buttons = [n for n in flatten(row) if n["role"] == "push button"]
                named = [b for b in buttons if b["name"] and visible(b["extents"])]
                if not named or not visible(row["extents"]):
                    continue
                default, actions = named[0], named[1:]

                def on_screen(extents):
                    return {"x": extents["x"] + dx, "y": extents["y"] + dy, "w": extents["w"], "h": extents["h"]}

                found.append({
                    "summary": default["name"],
                    "extents": on_screen(row["extents"]),
                    "default_extents": on_screen(default["extents"]),
                    "buttons": [{"label": b["name"], "extents": on_screen(b["extents"])} for b in actions],
                })
        return found

    def image_slots(self, popups):
        """Whether each popup shows a picture in its image slot, judged from a screenshot: swaync draws the
        image (image-path, image-data or an app_icon path) 64 px wide at the left of the default-action button,
        where a popup without one has the summary's first letters. A 24x24 square at the slot's middle that
        differs almost wholly from the popup's background is a picture (text covers 30-45 % of it)."""
        if not popups:
            return []
        shot = self.grim()
        try:
            pixbuf = GdkPixbuf.Pixbuf.new_from_file(shot)
        finally:
            os.unlink(shot)
        pixels, stride, channels = pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_n_channels()

        def colour(x, y):
            offset = y * stride + x * channels
            return pixels[offset:offset + 3]

        results = []
        for popup in popups:
            button = popup["default_extents"]
            background = colour(button["x"] + button["w"] - 30, button["y"] + 8)
            cx, cy = button["x"] + 43, button["y"] + button["h"] // 2
            differing = total = 0
            for y in range(max(cy - 12, 0), min(cy + 12, pixbuf.get_height())):
                for x in range(max(cx - 12, 0), min(cx + 12, pixbuf.get_width())):
                    total += 1
                    differing += max(abs(a - b) for a, b in zip(colour(x, y), background)) > 24
            results.append(total > 0 and differing / total > 0.8)
        return results

    def notifications(self):
        popups = self.popups()
        images = self.image_slots(popups)
        candidates = self.recorder.open_notifications()
        count = self.cc("NotificationCount", None, "(u)")[0]
        listed = []
        for popup, has_image in zip(popups, images):
            match = next((r for r in candidates if self.matches(r, popup)), None)
            if match is not None:
                candidates.remove(match)
            labels = {a["label"]: a["id"] for a in (match or {}).get("actions", [])}
            extents = popup["extents"]
            listed.append({
                "id": match["id"] if match else None,
                "summary": popup["summary"],
                "body": plain(match["body"]) if match else None,
                "body_markup": match["body"] if match else None,
                "body_from": "notify-call",
                "popup": True,
                "actions": [{"id": labels.get(b["label"]), "label": b["label"]} for b in popup["buttons"]],
                "has_image": has_image,
                "has_image_from": "screenshot pixels",
                "x": extents["x"], "y": extents["y"], "w": extents["w"], "h": extents["h"],
            })
        # Not on screen but not closed either: swaync keeps them in its control center.
        for record in candidates:
            listed.append({
                "id": record["id"], "summary": record["summary"], "body": plain(record["body"]),
                "body_markup": record["body"], "body_from": "notify-call", "popup": False, "in_control_center": True,
                "actions": record["actions"], "has_image": None,
            })
        return {"notifications": listed, "control_center_count": count}

    def answer_notifications(self):
        return self.notifications()

    def tree(self):
        return [strip(f["tree"]) for f in self.frames()]

    @staticmethod
    def matches(record, popup):
        """Whether the popup shows the Notify call record: the body is hidden from AT-SPI, so by its summary."""
        return plain(record["summary"]) == plain(popup["summary"])

    # Acting as a person

    def park_pointer(self):
        """The pointer rests in the bottom left corner, away from the popups (top right)."""
        self.pointer.move(0, HEIGHT - 1)

    def click_center(self, extents):
        self.pointer.click(extents["x"] + extents["w"] // 2, extents["y"] + extents["h"] // 2)
        self.park_pointer()

    @staticmethod
    def click_target(popup):
        """A click on a popup lands on its default-action button, which holds the summary and body."""
        return popup["default_extents"]

    def never_expires(self, summary):
        record = next((r for r in self.recorder.open_notifications() if plain(r["summary"]) == plain(summary)), None)
        if record is None:
            return False
        urgency = record["hints"].get("urgency")
        timeout = record["expire_timeout"]
        return timeout == 0 or (timeout < 0 and urgency == 2 and not self.config.get("timeout-critical", 0))

    def expire(self):
        started = time.monotonic()
        deadline = started + EXPIRE_DEADLINE
        self.park_pointer()
        hidden = 0
        while True:
            remaining = self.popups()
            if not remaining:
                return {"waited": round(time.monotonic() - started, 1), "hidden": hidden}
            if any(self.never_expires(p["summary"]) for p in remaining) or time.monotonic() > deadline:
                if hidden > 20:
                    raise CommandError(f"popups still on screen: {[p['summary'] for p in remaining]}")
                self.cc("HideLatestNotifications", GLib.Variant("(b)", (False,)))
                hidden += 1
                time.sleep(0.3)  # swaync's transition-time is 200 ms
                continue
            time.sleep(0.1)

    def grim(self):
        """A screenshot of the whole output by grim, run as w8test into DIR; returns its path."""
        shot = os.path.join(self.directory, f"grim-{time.monotonic_ns()}.png")
        result = subprocess.run(["grim", shot], env=self.base_env, stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, timeout=20, user=USER, group=USER, extra_groups=[], cwd=self.runtime)
        if result.returncode != 0:
            raise CommandError(f"grim failed: {result.stderr.strip()}")
        return shot

    def screenshot(self, path):
        if not os.path.isabs(path):
            raise CommandError("path must be absolute")
        shot = self.grim()
        shutil.copyfile(shot, path)  # a copy, owned by the caller
        os.unlink(shot)
        return {}

    def stop(self):
        if self.pointer is not None:
            self.pointer.close()
        super().stop()


def visible(extents):
    return bool(extents) and extents["x"] != OFF_SCREEN and extents["w"] > 0 and extents["h"] > 0


def flatten(entry):
    yield entry
    for child in entry["children"]:
        yield from flatten(child)


def main():
    return serve(Desktop, __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
