#!/usr/bin/python3
"""A real, headless GNOME Shell 43 notification server for tests.

Usage: desktop_gnome.py --dir DIR

DIR is an existing, empty 0700 directory. Everything the script makes lives in it: the private session and
system buses (configs and sockets), the shell's XDG_RUNTIME_DIR, HOME and XDG directories, a log file per child,
and screenshots. It starts a private system bus, a private session bus whose only service directory holds
org.gnome.Shell.Notifications, org.gnome.Shell.CalendarServer and ca.desrt.dconf, then
`gnome-shell --headless --virtual-monitor 1280x800 --wayland --unsafe-mode`. The shell's notification proxy
(gjs org.gnome.Shell.Notifications) owns org.freedesktop.Notifications.

When the name has an owner and the shell can show banners, it prints one JSON line:
  {"ready": true, "env": {"DBUS_SESSION_BUS_ADDRESS": ..., "WAYLAND_DISPLAY": ...}, "server": {"name", "vendor",
   "version", "spec_version", "capabilities"}, "seconds_to_start": S, "applications_dir": DIR/share/applications}
or {"ready": false, "error": ..., "log": ...} and exits 1. A .desktop file put into applications_dir is seen by
the shell (it is first in the shell's XDG_DATA_DIRS), but only about 5 s later; wait with the eval command for
`imports.gi.Shell.AppSystem.get_default().lookup_app("NAME.desktop") !== null`. Keep DIR short: the sockets in it
must fit in 108 bytes.

GNOME's behaviour to expect: the session is always idle, so the first banner stays up and the rest queue until
"expire"; urgency low never gets a banner; buttons show only on a banner, once it is expanded (hovered); the
message list shows no buttons. The proxy sends signals only to the client that posted the notification, and only
while that client is connected; a client that listens without a sender filter also gets the shell's broadcast
copy of each signal. A replaces_id that belongs to another connected client fails with InvalidArgs.

Then it answers one JSON command per stdin line with one JSON line ("ok": true, or false with "error"):
  {"cmd": "notifications"}  what the shell holds now, read with org.gnome.Shell.Eval: "notifications" lists every
                            fdo notification as {"id", "summary", "body", "urgency" (fdo 0-2), "banner" (on screen
                            now), "actions" (buttons on its banner now), "has_image", "source", and the extras
                            "queued" (waits for a banner), "expanded", "sent_actions", "default_action", "icon"};
                            "others" lists notifications from other shell sources (such as a launch error).
  {"cmd": "signals"}        "signals": ActionInvoked and NotificationClosed as emitted by the owner of
                            org.freedesktop.Notifications to its clients since start; "shell_signals": the same
                            signals as broadcast by the shell itself to the proxy.
  {"cmd": "expire"}         ends the current banner as GNOME's timeout does; the next queued one is shown.
  {"cmd": "expand"}         expands the banner on screen as hovering it does, showing its buttons (extra).
  {"cmd": "press", "id": N, "action": A}  expands banner N as hovering does and clicks its button for action A.
  {"cmd": "click", "id": N} clicks notification N: its banner, or else its entry in the opened message list.
  {"cmd": "screenshot", "path": "/abs/file.png"}  the whole screen ("path" defaults to DIR/screenshot-K.png).
  {"cmd": "dnd", "on": B}   Do Not Disturb as the message list's switch sets it: `gsettings set
                            org.gnome.desktop.notifications show-banners` (dconf); answers "show_banners" as the
                            shell reads it.
  {"cmd": "activity"}       a virtual pointer's motion: input, which ends the session's idle time.
  {"cmd": "eval", "js": JS} raw org.gnome.Shell.Eval; "result" is its JSON string.
  {"cmd": "quit"}           (or EOF, SIGTERM, SIGINT) stops every process it started and exits 0.

Every child runs in one process group and carries a marker in its environment; on exit the group is killed and
any process carrying the marker (services activated by the bus, apps the shell launched) is killed too. That
plumbing is desktop_common.py's, in the same directory, shared with desktop_plasma.py. Needs python3-dbus and
python3-gi (Debian's /usr/bin/python3), gnome-shell and gjs.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import dbus

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import NOTIFICATIONS, Harness, run_harness  # noqa: E402

SERVICES = ["org.gnome.Shell.Notifications.service", "org.gnome.Shell.CalendarServer.service",
            "ca.desrt.dconf.service"]
START_DEADLINE = 60.0

SYSTEM_CONFIG = """<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

# Shared by the JS snippets: the fdo daemon, the banner on screen, and one notification described.
JS_PRELUDE = r"""
const MT = imports.ui.messageTray;
const tray = Main.messageTray;
const fdo = Main.notificationDaemon._fdoNotificationDaemon;
const onScreen = () => (tray._notification &&
    (tray._notificationState === MT.State.SHOWING || tray._notificationState === MT.State.SHOWN))
    ? tray._notification : null;
const pairs = nd => {
    const out = [];
    for (let i = 0; i + 1 < nd.actions.length; i += 2)
        out.push({ id: nd.actions[i], label: nd.actions[i + 1] });
    return out;
};
const lookup = id => {
    const nd = fdo._notifications[id];
    if (!nd || !nd.notification)
        throw new Error(`no notification ${id}`);
    return nd;
};
"""

JS_NOTIFICATIONS = JS_PRELUDE + r"""
const shown = onScreen();
const list = [];
const mine = new Set();
for (const [id, nd] of Object.entries(fdo._notifications)) {
    const n = nd.notification;
    if (!n)
        continue;
    mine.add(n);
    const banner = n === shown;
    const sent = pairs(nd).filter(a => a.id !== 'default');
    let actions = [];
    if (banner && tray._banner && tray._banner._buttonBox) {
        const labels = tray._banner._buttonBox.get_children().map(b => b.label);
        actions = sent.slice(0, labels.length).filter((a, i) => a.label === labels[i]);
    }
    const hints = nd.hints || {};
    list.push({
        id: Number(id),
        summary: n.title,
        body: n.bannerBodyText,
        urgency: hints.urgency,
        banner,
        actions,
        has_image: !!(hints['image-data'] || hints['image-path']),
        source: n.source ? n.source.title : null,
        queued: tray._notificationQueue.includes(n),
        expanded: banner && !!tray._banner && tray._banner.expanded,
        sent_actions: sent,
        default_action: pairs(nd).some(a => a.id === 'default'),
        icon: n.gicon ? (n.gicon.to_string() || n.gicon.constructor.name) : null,
    });
}
const others = [];
for (const source of tray.getSources()) {
    for (const n of source.notifications) {
        if (!mine.has(n))
            others.push({ summary: n.title, body: n.bannerBodyText, source: source.title, banner: n === shown });
    }
}
list.sort((a, b) => a.id - b.id);
({ notifications: list, others });
"""

JS_READY = r"""
(Main.layoutManager && Main.layoutManager.primaryMonitor !== null && !Main.layoutManager._startingUp &&
 Main.sessionMode.hasNotifications && Main.messageTray && !Main.messageTray._bannerBlocked &&
 !!Main.notificationDaemon) ? [GLib.getenv('WAYLAND_DISPLAY'), GLib.getenv('DISPLAY')] : null
"""

# The shell starts in the overview and, run by root, posts "Logged in as a privileged user": a banner that would
# hold the banner slot of a session that is always idle. Start from the desktop with no notifications.
JS_CLEAN_START = r"""
(() => {
    Main.overview.hide();
    for (const source of Main.messageTray.getSources()) {
        if (source instanceof imports.ui.messageTray.SystemNotificationSource)
            source.destroy();
    }
})()
"""

JS_STATE = r"""
[Main.messageTray._notificationState, Main.messageTray.queueCount]
"""

JS_PRESS = JS_PRELUDE + r"""
const nd = lookup(%(id)d);
const n = nd.notification;
if (onScreen() !== n || !tray._banner)
    throw new Error('notification %(id)d is not on screen as a banner; GNOME 43 shows buttons only on banners');
const sent = pairs(nd).filter(a => a.id !== 'default');
const index = sent.findIndex(a => a.id === %(action)s);
if (index < 0)
    throw new Error('notification %(id)d has no action ' + %(action)s);
if (!tray._banner.expanded)
    tray._expandBanner(false);
const box = tray._banner._buttonBox;
const button = box ? box.get_children()[index] : null;
if (!button || button.label !== sent[index].label)
    throw new Error('the banner of %(id)d shows no button for ' + %(action)s);
button.emit('clicked', 1);
'button';
"""

JS_ACTIVITY = r"""
const seat = imports.gi.Clutter.get_default_backend().get_default_seat();
const pointer = seat.create_virtual_device(imports.gi.Clutter.InputDeviceType.POINTER_DEVICE);
pointer.notify_relative_motion(imports.gi.GLib.get_monotonic_time(), 3, 3);
true
"""

JS_CLICK = JS_PRELUDE + r"""
const n = lookup(%(id)d).notification;
let via;
if (onScreen() === n && tray._banner) {
    tray._banner.emit('clicked', 1);
    via = 'banner';
} else {
    const dateMenu = Main.panel.statusArea.dateMenu;
    dateMenu.menu.open();
    const message = dateMenu._messageList._notificationSection._messages.find(m => m.notification === n);
    if (!message)
        throw new Error('notification %(id)d is neither a banner nor in the message list');
    message.emit('clicked', 1);
    dateMenu.menu.close();
    via = 'message-list';
}
via;
"""


class ShellError(Exception):
    """org.gnome.Shell.Eval or Screenshot answered that it failed."""


class GnomeShell(Harness):
    """gnome-shell --headless with its private system and session buses; Eval is how it is read and driven."""

    WAIT_ERRORS = (OSError, ShellError)
    START_ERRORS = (RuntimeError, ShellError, OSError)
    COMMAND_ERRORS = (ShellError, ValueError, KeyError, TypeError, AttributeError)

    def __init__(self, directory):
        super().__init__(directory)
        self.shell_signals = []

    # Start

    def desktop_env(self):
        return {
            "XDG_DATA_DIRS": f"{self.path('share')}:/usr/share",
            "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_SESSION_TYPE": "wayland",
            # dconf, through the session bus's ca.desrt.dconf: a client given this DIR's config/dconf and
            # run/dconf (the ready line's "dconf") reads the same settings and hears them change.
            "GSETTINGS_BACKEND": "dconf",
            "NO_AT_BRIDGE": "1",
            "GTK_A11Y": "none",
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.path('system.sock')}",
        }

    def write_configs(self):
        for part in (("config", "dconf"), ("run", "dconf")):
            os.makedirs(self.path(*part), mode=0o700, exist_ok=True)
        self.write_session(("share/applications",), SERVICES)
        # The shell shows a "Screen Lock disabled" banner at start unless this file exists; it would hold the
        # banner slot of a session that is always idle.
        os.makedirs(self.path("data", "gnome-shell"), mode=0o700, exist_ok=True)
        open(self.path("data", "gnome-shell", "lock-warning-shown"), "w").close()
        with open(self.path("system.conf"), "w") as file:
            file.write(SYSTEM_CONFIG.format(socket=self.path("system.sock")))

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        self.write_configs()
        env = self.base_env()
        self.start_buses(env, deadline, "system", "session")
        address = f"unix:path={self.path('session.sock')}"
        self.bus = dbus.bus.BusConnection(address)
        self.start_monitor(address)
        shell_env = dict(env, DBUS_SESSION_BUS_ADDRESS=address)
        self.spawn("gnome-shell", ["gnome-shell", "--headless", "--virtual-monitor", "1280x800", "--wayland",
                                   "--no-x11", "--unsafe-mode"], shell_env)
        self.wait_for("org.gnome.Shell on the bus", lambda: self.bus.name_has_owner("org.gnome.Shell"), deadline)
        displays = self.wait_for("the shell to be ready for banners", lambda: self.eval(JS_READY), deadline, 0.25)
        self.wait_for(f"{NOTIFICATIONS} to have an owner", lambda: self.name_owner(NOTIFICATIONS), deadline)
        self.eval(JS_CLEAN_START)
        self.pump(0.5)
        self.settle()
        server = self.server_info()
        seconds = round(time.monotonic() - started, 2)
        client_env = {"DBUS_SESSION_BUS_ADDRESS": address}
        if displays[0]:
            client_env["WAYLAND_DISPLAY"] = os.path.join(self.path("run"), displays[0])
        if displays[1]:
            client_env["DISPLAY"] = displays[1]
        return {"ready": True, "env": client_env, "server": server, "seconds_to_start": seconds,
                "applications_dir": self.path("share", "applications"),
                "dconf": {"config": self.path("config", "dconf"), "runtime": self.path("run", "dconf")}}

    # Signals

    def on_signal(self, message, record):
        # The proxy's signals go to "signals", the shell's broadcast copies to "shell_signals".
        if self.from_server(message):
            record["destination"] = message.get_destination()
            self.signals.append(record)
        else:
            self.shell_signals.append(record)

    # Shell calls

    def eval(self, js):
        ok, result = self.bus.call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", "s",
                                            (js,), timeout=20)
        if not ok:
            raise ShellError(str(result))
        return json.loads(str(result)) if str(result) else None

    def screenshot(self, path):
        ok, used = self.bus.call_blocking("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                          "org.gnome.Shell.Screenshot", "Screenshot", "bbs", (False, False, path),
                                          timeout=20)
        if not ok:
            raise ShellError(f"Screenshot failed for {path}")
        return str(used)

    def settle(self, seconds=3.0):
        """Waits until no banner is moving: shown, or hidden with nothing queued."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            state, queued = self.eval(JS_STATE)
            if state == 2 or (state == 0 and queued == 0):
                return
            self.pump(0.05)

    # Commands

    def command(self, request):
        cmd = request.get("cmd")
        if cmd == "notifications":
            self.pump(0.05)
            return self.eval(wrap(JS_NOTIFICATIONS))
        if cmd == "signals":
            self.pump(0.05)
            return {"signals": self.signals, "shell_signals": self.shell_signals}
        if cmd == "expire":
            self.settle()
            self.eval("Main.messageTray._expireNotification()")
            self.pump(0.05)
            self.settle()
            return {}
        if cmd == "expand":
            self.settle()
            self.eval("Main.messageTray._expandActiveNotification()")
            self.pump(0.4)
            return {}
        if cmd == "press":
            self.settle()
            js = JS_PRESS % {"id": int(request["id"]), "action": json.dumps(str(request["action"]))}
            via = self.eval(wrap(js))
            self.pump(0.3)
            return {"via": via}
        if cmd == "click":
            self.settle()
            via = self.eval(wrap(JS_CLICK % {"id": int(request["id"])}))
            self.pump(0.3)
            return {"via": via}
        if cmd == "screenshot":
            self.settle()
            path = request.get("path")
            if not path:
                self.screenshots += 1
                path = self.path(f"screenshot-{self.screenshots}.png")
            return {"path": self.screenshot(os.path.abspath(path))}
        if cmd == "dnd":
            # As the message list's Do Not Disturb switch sets it.
            value = "false" if request["on"] else "true"
            subprocess.run(["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", value],
                           env=dict(self.base_env(), DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.path('session.sock')}"),
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=10, check=True)
            self.pump(0.3)
            return {"show_banners": self.eval("new imports.gi.Gio.Settings({schema_id: "
                                              "'org.gnome.desktop.notifications'}).get_boolean('show-banners')")}
        if cmd == "activity":
            # Input, as a person's hand on the mouse: a virtual pointer's motion, which Mutter's idle monitor counts.
            self.eval(JS_ACTIVITY)
            self.pump(0.2)
            return {}
        if cmd == "eval":
            ok, result = self.bus.call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                                                "s", (request["js"],), timeout=20)
            if not ok:
                raise ShellError(str(result))
            return {"result": str(result)}
        raise ValueError(f"unknown cmd {cmd!r}")


def wrap(js):
    """Makes a snippet whose last statement is an expression into one expression, for Eval."""
    body, last = js.rstrip().rstrip(";").rsplit("\n", 1)
    return f"(() => {{{body}\nreturn {last};}})()"


def main():
    parser = argparse.ArgumentParser(description="Headless GNOME Shell notification server for tests.")
    parser.add_argument("--dir", required=True)
    return run_harness(parser.parse_args(), lambda options: GnomeShell(options.dir))


if __name__ == "__main__":
    sys.exit(main())
