#!/usr/bin/python3
"""A real mako for tests: mako in a headless sway on a private session bus.

Usage: desktop_mako.py --dir DIR

Run as root. As in desktop_swaync.py, whose Desktop this extends, the bus, sway and mako run as the unprivileged
user w8test, and so must the clients (the ready line says "user": "w8test"). mako reads the configuration this
script writes to DIR/config/mako/config: mako's own defaults written out (colours, size, anchor, sort), and
default-timeout=5000 where mako's default is 0 (never), so that a popup expires as on most people's desktops.

The ready line and the commands are desktop_swaync.py's; what differs is how mako is read and used:
  {"cmd": "notifications"}   what mako shows, from mako itself (`makoctl list`: id, app name, summary, body, the
                             actions), each matched to its popup in a grim screenshot: mako draws its popups top
                             right, newest first, as rectangles in its background colour; "x", "y", "w", "h" are
                             the popup's. "has_image": its icon slot (top left inside border and padding, at most
                             64 px) shows another picture than the app icon (desktop_common.image_difference).
  {"cmd": "press", "id": N, "action": KEY}   as a person picks an action in mako: `makoctl menu -n N PROG`, where
                             PROG (grep -Fx LABEL) picks the button's label from the list makoctl gives it; waits
                             for ActionInvoked
  {"cmd": "click", "id": N}  a left click on the popup with the virtual pointer (mako: invoke-default-action)
  {"cmd": "expire"}          waits (at most 15 s) until mako shows nothing
  {"cmd": "dnd", "on": B}    `makoctl mode -a do-not-disturb` (or -r); the config makes that mode invisible=1
"""
import json
import os
import pwd
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import (  # noqa: E402
    IMAGE_DIFFERENCE, NOTIFICATIONS, CommandError, StartError, image_difference, serve,
    server_information, wait_for_owner, wait_until)
import desktop_swaync  # noqa: E402
from desktop_swaync import USER, WIDTH  # noqa: E402

import gi  # noqa: E402

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

SERVER = "mako"
START_DEADLINE = 30
EXPIRE_DEADLINE = 15
BACKGROUND = (0x28, 0x55, 0x77)
BORDER = (0x4C, 0x78, 0x99)
BORDER_SIZE, PADDING, MARGIN, POPUP_WIDTH, ICON_SIZE = 2, 5, 10, 300, 64
CONFIG = f"""# desktop_mako.py: mako's defaults written out, except default-timeout (mako's is 0: never)
font=monospace 10
background-color=#{''.join(f'{c:02x}' for c in BACKGROUND)}
text-color=#ffffff
border-color=#{''.join(f'{c:02x}' for c in BORDER)}
border-size={BORDER_SIZE}
padding={PADDING}
margin={MARGIN}
width={POPUP_WIDTH}
height=100
max-icon-size={ICON_SIZE}
icons=1
actions=1
anchor=top-right
sort=-time
layer=top
default-timeout=5000

# What `makoctl mode -a do-not-disturb` turns on: mako shows nothing (its man page's example of a mode).
[mode=do-not-disturb]
invisible=1
"""


class Desktop(desktop_swaync.Desktop):
    """mako in a headless sway, all run as USER; makoctl and a virtual pointer are the person."""

    SERVER = SERVER

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        if not os.path.exists("/usr/bin/mako"):
            raise StartError("mako is not installed: run scripts/install-deps")
        self.start_sway(deadline)
        account = pwd.getpwnam(USER)
        directory = os.path.join(self.base_env["XDG_CONFIG_HOME"], "mako")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "config"), "w") as file:
            file.write(CONFIG)
        for path in (directory, os.path.join(directory, "config")):
            os.chown(path, account.pw_uid, account.pw_gid)
        self.children.spawn(SERVER, [SERVER], self.base_env, user=USER)
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, SERVER)
        information = server_information(self.connection)
        return {"ready": True, "env": self.client_env(), "user": USER, "server": information,
                "seconds_to_start": round(time.monotonic() - started, 3)}

    def set_dnd(self, on):
        """Do Not Disturb on or off: `makoctl mode -a do-not-disturb` or `-r`; answers the modes then in force."""
        self.makoctl("mode", "-a" if on else "-r", "do-not-disturb")
        return {"modes": self.makoctl("mode").split()}

    def makoctl(self, *arguments):
        result = subprocess.run(["makoctl", *arguments], env=self.base_env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=10, user=USER, group=USER, extra_groups=[],
                                cwd=self.runtime)
        if result.returncode != 0:
            raise CommandError(f"makoctl {' '.join(arguments)} failed: {result.stderr.strip()}")
        return result.stdout

    def listed(self):
        """mako's notifications in its order (newest first, as drawn): id, app_name, summary, body, actions."""
        data = json.loads(self.makoctl("list"))["data"][0]
        return [{
            "id": entry["id"]["data"], "app_name": entry.get("app-name", {}).get("data", ""),
            "summary": entry.get("summary", {}).get("data", ""), "body": entry.get("body", {}).get("data", ""),
            "actions": [{"id": key, "label": label}
                        for key, label in entry.get("actions", {}).get("data", {}).items()],
        } for entry in data]

    @staticmethod
    def rectangles(screen):
        """The popups in a screenshot, top to bottom: the runs of rows whose pixel in a column inside the popups'
        right padding (where no text is drawn) is mako's background or border colour."""
        pixels, stride, channels = screen.get_pixels(), screen.get_rowstride(), screen.get_n_channels()
        x = WIDTH - MARGIN - BORDER_SIZE - PADDING // 2
        found, top = [], None
        for y in range(screen.get_height() + 1):
            inside = False
            if y < screen.get_height():
                offset = y * stride + x * channels
                inside = tuple(pixels[offset:offset + 3]) in (BACKGROUND, BORDER)
            if inside and top is None:
                top = y
            elif not inside and top is not None:
                found.append({"x": WIDTH - MARGIN - POPUP_WIDTH, "y": top, "w": POPUP_WIDTH, "h": y - top})
                top = None
        return found

    def popups(self):
        shot = self.grim()
        try:
            screen = GdkPixbuf.Pixbuf.new_from_file(shot)
        finally:
            os.unlink(shot)
        listed = self.listed()
        # mako may show a notification before the bus monitor has seen the answer to its Notify call.
        deadline = time.monotonic() + 2
        while any(self.recorder.notification(e["id"]) is None for e in listed) and time.monotonic() < deadline:
            time.sleep(0.05)
        rectangles = self.rectangles(screen)
        popups = []
        for index, entry in enumerate(listed):
            extents = rectangles[index] if index < len(rectangles) and len(rectangles) == len(listed) else None
            slot = None
            if extents is not None:
                inset = BORDER_SIZE + PADDING
                size = min(ICON_SIZE, extents["h"] - 2 * inset)
                slot = {"x": extents["x"] + inset, "y": extents["y"] + inset, "w": size, "h": size}
            record = self.recorder.notification(entry["id"]) or {}
            popups.append(dict(entry, extents=extents, slot=slot, app_icon=record.get("app_icon"),
                               image_difference=image_difference(slot, record.get("app_icon", ""), screen)))
        return popups

    def notifications(self):
        listed = []
        for popup in self.popups():
            extents = popup["extents"] or {}
            difference = popup["image_difference"]
            listed.append({
                "id": popup["id"], "app_name": popup["app_name"], "summary": popup["summary"], "body": popup["body"],
                "popup": bool(extents), "actions": popup["actions"],
                "has_image": difference is not None and difference > IMAGE_DIFFERENCE,
                "image_difference": difference, "app_icon": popup["app_icon"],
                "x": extents.get("x"), "y": extents.get("y"), "w": extents.get("w"), "h": extents.get("h"),
            })
        return {"notifications": listed}

    def popup(self, notification_id):
        popup = next((p for p in self.popups() if p["id"] == notification_id), None)
        if popup is None:
            raise CommandError(f"mako shows no notification {notification_id}")
        return popup

    def tree(self):
        return self.listed()

    # Acting as a person

    def press(self, notification_id, action):
        popup = self.popup(notification_id)
        label = next((a["label"] for a in popup["actions"] if a["id"] == action), None)
        if label is None:
            raise CommandError(f"notification {notification_id} has no action {action!r}")
        return self.invoke(notification_id, f"picked {label!r}",
                           lambda: self.makoctl("menu", "-n", str(notification_id), "grep", "-Fx", "--", label))

    def click(self, notification_id):
        extents = self.popup(notification_id)["extents"]
        if extents is None:
            raise CommandError(f"notification {notification_id} is not on screen")
        return self.click_at_popup(extents)

    def expire(self):
        return wait_until(lambda: not self.listed(), EXPIRE_DEADLINE, "mako to show nothing")

def main():
    return serve(Desktop, __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
