#!/usr/bin/python3
"""A real dunst for tests: dunst under Xvfb on a private session bus, with its context menu for the actions.

Usage: desktop_dunst.py --dir DIR

The X11 half is desktop_lxqt.py's, whose Desktop this extends: Xvfb, a private dbus-daemon with no service to
activate, xdotool as the person, imagemagick's import for screenshots. Everything runs as root, and so must the
clients. dunst reads DIR/dunstrc, written here: dunst's defaults for what the commands read (frame_width 3,
padding 8, horizontal_padding 8, the icon at the left, at most 32 px), and its "dmenu" is DIR/picker, a script that
copies the menu dunst gives it to DIR/menu.txt and answers the line that holds the text in DIR/pick, if any.

dunst draws its notifications with cairo, and nothing reads them back but the screen, so:
  {"cmd": "notifications"}   the Notify calls answered and not closed (a bus monitor records them), oldest first, as
                             dunst sorts them; the first `dunstctl count displayed` are on screen ("popup"), the
                             rest wait. "actions" are the entries dunst's context menu offers for the notification
                             (`dunstctl context`, picking nothing); dunst draws no buttons, and marks a notification
                             that has actions with "(A)". "has_image" (when one notification is on screen): its icon
                             slot in a screenshot is another picture than the app icon
                             (desktop_common.image_difference).
  {"cmd": "press", "id": N, "action": KEY}   as a person picks an action in dunst: `dunstctl context`, and the
                             picker answers that action's line; waits for ActionInvoked
  {"cmd": "click", "id": N}  a left click on dunst's window (dunst: close_current)
  {"cmd": "expire"}          waits (at most 15 s) until dunst shows nothing
The other commands are desktop_lxqt.py's.
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import (  # noqa: E402
    IMAGE_DIFFERENCE, NOTIFICATIONS, CommandError, StartError, image_difference, serve,
    server_information, wait_for_owner, wait_until)
import desktop_lxqt  # noqa: E402

import gi  # noqa: E402

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

SERVER = "dunst"
START_DEADLINE = 30
EXPIRE_DEADLINE = 15
FRAME, HORIZONTAL_PADDING, ICON_SIZE = 3, 8, 32
CONFIG = f"""# desktop_dunst.py: dunst's defaults written out where the harness reads the screen, and the menu's picker
[global]
    frame_width = {FRAME}
    padding = 8
    horizontal_padding = {HORIZONTAL_PADDING}
    icon_position = left
    max_icon_size = {ICON_SIZE}
    stack_duplicates = false
    show_age_threshold = -1
    mouse_left_click = close_current
    dmenu = {{picker}}

[urgency_normal]
    timeout = 10
"""
PICKER = """#!/bin/sh
# dunst's dmenu: keeps the menu, answers the line that holds the text of DIR/pick (nothing when it is empty)
cat > "{directory}/menu.txt"
pick=$(cat "{directory}/pick" 2>/dev/null)
[ -n "$pick" ] && grep -F -- "$pick" "{directory}/menu.txt" | head -n 1
exit 0
"""
MENU_LINE = re.compile(r"#(.*) \((.*)\) \[(\d+),(.*)\]$")


class Desktop(desktop_lxqt.Desktop):
    """dunst under Xvfb, run as root; xdotool and dunst's context menu are the person."""

    SERVER = SERVER

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        if not os.path.exists("/usr/bin/dunst"):
            raise StartError("dunst is not installed: run scripts/install-deps")
        picker = os.path.join(self.directory, "picker")
        with open(picker, "w") as file:
            file.write(PICKER.format(directory=self.directory))
        os.chmod(picker, 0o755)
        config = os.path.join(self.directory, "dunstrc")
        with open(config, "w") as file:
            file.write(CONFIG.format(picker=picker))
        self.start_x11(deadline, XDG_DATA_DIRS="/usr/share")
        self.children.spawn(SERVER, [SERVER, "-config", config], self.base_env)
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, SERVER)
        information = server_information(self.connection)
        return {"ready": True, "env": {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": self.display},
                "user": "root", "server": information, "seconds_to_start": round(time.monotonic() - started, 3)}

    def window_pattern(self):
        return re.compile(r'\s*(0x[0-9a-f]+) "Dunst": \("Dunst" [^)]*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)')

    def dunstctl(self, *arguments):
        result = self.run(["dunstctl", *arguments])
        if result.returncode != 0:
            raise CommandError(f"dunstctl {' '.join(arguments)} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def menu(self, pick=""):
        """Opens dunst's context menu; the picker answers the line that holds pick. Returns the menu's entries:
        (label, summary, id, action)."""
        with open(os.path.join(self.directory, "pick"), "w") as file:
            file.write(pick)
        menu = os.path.join(self.directory, "menu.txt")
        if os.path.exists(menu):
            os.unlink(menu)
        self.dunstctl("context")
        deadline = time.monotonic() + 5
        while not os.path.exists(menu):
            if time.monotonic() > deadline:
                raise CommandError("dunst opened no context menu")
            time.sleep(0.05)
        time.sleep(0.1)  # the picker writes the menu, then answers
        with open(menu) as file:
            lines = file.read().splitlines()
        return [m.groups() for m in (MENU_LINE.match(line) for line in lines) if m]

    def popups(self):
        displayed = int(self.dunstctl("count", "displayed"))
        records = sorted(self.recorder.open_notifications(), key=lambda r: r["id"])
        windows = self.window_popups()
        entries = self.menu() if any(r["actions"] for r in records[:displayed]) else []
        screen = None
        if displayed == 1 and len(windows) == 1:
            path = os.path.join(self.directory, "slot.png")
            self.screenshot(path)
            screen = GdkPixbuf.Pixbuf.new_from_file(path)
            os.unlink(path)
        popups = []
        for index, record in enumerate(records):
            on_screen = index < displayed
            slot = None
            if on_screen and screen is not None:
                window = windows[0]
                slot = {"x": window["x"] + FRAME + HORIZONTAL_PADDING,
                        "y": window["y"] + (window["h"] - ICON_SIZE) // 2, "w": ICON_SIZE, "h": ICON_SIZE}
            difference = image_difference(slot, record["app_icon"], screen)
            popups.append({
                "id": record["id"], "app_name": record["app_name"], "summary": record["summary"],
                "body": record["body"], "body_from": "notify-call", "popup": on_screen,
                "actions": [{"id": action, "label": label} for label, _, entry, action in entries
                            if int(entry) == record["id"]],
                "has_image": None if difference is None else difference > IMAGE_DIFFERENCE,
                "image_difference": difference,
                "extents": windows[0] if on_screen and windows else None,
            })
        return popups

    def notifications(self):
        return [{k: v for k, v in p.items() if k != "extents"} for p in self.popups()]

    def answer_notifications(self):
        return {"notifications": self.notifications()}

    def tree(self):
        return self.popups()

    def press(self, notification_id, action):
        popup = next((p for p in self.popups() if p["id"] == notification_id and p["popup"]), None)
        if popup is None:
            raise CommandError(f"dunst shows no notification {notification_id}")
        if not any(a["id"] == action for a in popup["actions"]):
            raise CommandError(f"dunst's menu offers no {action!r} for {notification_id}: {popup['actions']}")
        return self.invoke(notification_id, f"picked {action!r}", lambda: self.menu(f"[{notification_id},{action}]"))

    def click(self, notification_id):
        popup = next((p for p in self.popups() if p["id"] == notification_id and p["extents"]), None)
        if popup is None:
            raise CommandError(f"dunst shows no notification {notification_id}")
        return self.click_at_popup(popup["extents"])

    def expire(self):
        return wait_until(lambda: not int(self.dunstctl("count", "displayed")), EXPIRE_DEADLINE,
                          "dunst to show nothing")

def main():
    return serve(Desktop, __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
