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
  {"cmd": "eval", "js": JS} raw org.gnome.Shell.Eval; "result" is its JSON string.
  {"cmd": "quit"}           (or EOF, SIGTERM, SIGINT) stops every process it started and exits 0.

Every child runs in one process group and carries a marker in its environment; on exit the group is killed and
any process carrying the marker (services activated by the bus, apps the shell launched) is killed too. Needs
python3-dbus and python3-gi (Debian's /usr/bin/python3), gnome-shell and gjs.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

NOTIFICATIONS = "org.freedesktop.Notifications"
SERVICES = ["org.gnome.Shell.Notifications.service", "org.gnome.Shell.CalendarServer.service",
            "ca.desrt.dconf.service"]
START_DEADLINE = 60.0
MARKER = "W8TRACKR_DESKTOP_HARNESS"

SESSION_CONFIG = """<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

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


class Harness:
    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        self.marker = f"{self.dir}:{os.getpid()}"
        self.children = []
        self.pgid = None
        self.logs = []
        self.bus = None
        self.monitor = None
        self.notifications_owner = None
        self.signals = []
        self.shell_signals = []
        self.screenshots = 0
        self.loop = GLib.MainLoop()
        self.stopped = False

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    # Processes

    def base_env(self):
        keep = ("PATH", "LANG", "LC_ALL", "TERM")
        env = {k: v for k, v in os.environ.items() if k in keep}
        env.setdefault("LANG", "C.UTF-8")
        env.update({
            MARKER: self.marker,
            "HOME": self.path("home"),
            "XDG_RUNTIME_DIR": self.path("run"),
            "XDG_CONFIG_HOME": self.path("config"),
            "XDG_DATA_HOME": self.path("data"),
            "XDG_CACHE_HOME": self.path("cache"),
            "XDG_STATE_HOME": self.path("state"),
            "XDG_DATA_DIRS": f"{self.path('share')}:/usr/local/share:/usr/share",
            "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_SESSION_TYPE": "wayland",
            "GSETTINGS_BACKEND": "memory",
            "NO_AT_BRIDGE": "1",
            "GTK_A11Y": "none",
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.path('system.sock')}",
        })
        return env

    def spawn(self, name, argv, env):
        log = self.path(f"{name}.log")
        self.logs.append(log)
        with open(log, "ab") as out:
            kwargs = {"process_group": 0} if self.pgid is None else {"process_group": self.pgid}
            child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                     env=env, cwd=self.dir, **kwargs)
        if self.pgid is None:
            self.pgid = child.pid
        self.children.append((name, child))
        return child

    def marked_pids(self):
        pids = []
        needle = f"{MARKER}={self.marker}".encode()
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as file:
                    if needle in file.read().split(b"\0"):
                        pids.append(int(entry))
            except OSError:
                pass
        return pids

    def group_alive(self):
        if self.pgid is None:
            return False
        try:
            os.killpg(self.pgid, 0)
            return True
        except ProcessLookupError:
            return False

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 2.0)):
            if self.pgid is not None:
                try:
                    os.killpg(self.pgid, sig)
                except ProcessLookupError:
                    pass
            for pid in self.marked_pids():
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                for _, child in self.children:
                    child.poll()
                if not self.group_alive() and not self.marked_pids():
                    return
                time.sleep(0.05)

    def log_tail(self, lines=40):
        tail = []
        for log in self.logs:
            try:
                with open(log, errors="replace") as file:
                    content = file.read().splitlines()[-lines:]
            except OSError:
                continue
            tail.append(f"== {os.path.basename(log)}")
            tail.extend(content)
        return "\n".join(tail)

    # Start

    def write_configs(self):
        for sub in ("home", "config", "data", "cache", "state", "services", "share/applications"):
            os.makedirs(self.path(sub), mode=0o700, exist_ok=True)
        os.makedirs(self.path("run"), mode=0o700, exist_ok=True)
        os.chmod(self.path("run"), 0o700)
        for service in SERVICES:
            shutil.copy(os.path.join("/usr/share/dbus-1/services", service), self.path("services", service))
        # The shell shows a "Screen Lock disabled" banner at start unless this file exists; it would hold the
        # banner slot of a session that is always idle.
        os.makedirs(self.path("data", "gnome-shell"), mode=0o700, exist_ok=True)
        open(self.path("data", "gnome-shell", "lock-warning-shown"), "w").close()
        with open(self.path("session.conf"), "w") as file:
            file.write(SESSION_CONFIG.format(socket=self.path("session.sock"), services=self.path("services")))
        with open(self.path("system.conf"), "w") as file:
            file.write(SYSTEM_CONFIG.format(socket=self.path("system.sock")))

    def wait_for(self, what, predicate, deadline, interval=0.1):
        while True:
            for name, child in self.children:
                if child.poll() is not None:
                    raise RuntimeError(f"{name} exited with {child.returncode} while waiting for {what}")
            try:
                result = predicate()
            except (dbus.DBusException, OSError, ShellError):
                result = None
            if result:
                return result
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            self.pump(interval)

    def pump(self, seconds):
        end = time.monotonic() + seconds
        context = GLib.MainContext.default()
        while time.monotonic() < end:
            while context.pending():
                context.iteration(False)
            time.sleep(0.02)

    def socket_ready(self, path):
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(path)
        return True

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        self.write_configs()
        env = self.base_env()
        self.spawn("system-bus", ["dbus-daemon", "--nofork", "--nopidfile",
                                  f"--config-file={self.path('system.conf')}"], env)
        self.spawn("session-bus", ["dbus-daemon", "--nofork", "--nopidfile",
                                   f"--config-file={self.path('session.conf')}"], env)
        self.wait_for("the system bus", lambda: self.socket_ready(self.path("system.sock")), deadline)
        self.wait_for("the session bus", lambda: self.socket_ready(self.path("session.sock")), deadline)
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
                "applications_dir": self.path("share", "applications")}

    def name_owner(self, name):
        if not self.bus.name_has_owner(name):
            return None
        owner = str(self.bus.get_name_owner(name))
        if name == NOTIFICATIONS:
            self.notifications_owner = owner
        return owner

    def server_info(self):
        proxy = self.bus.get_object(NOTIFICATIONS, "/org/freedesktop/Notifications")
        interface = dbus.Interface(proxy, NOTIFICATIONS)
        name, vendor, version, spec = interface.GetServerInformation()
        capabilities = [str(c) for c in interface.GetCapabilities()]
        return {"name": str(name), "vendor": str(vendor), "version": str(version), "spec_version": str(spec),
                "capabilities": capabilities}

    # Signals

    def start_monitor(self, address):
        self.monitor = dbus.bus.BusConnection(address, mainloop=dbus.mainloop.glib.DBusGMainLoop())
        rules = [f"type='signal',interface='{NOTIFICATIONS}'",
                 "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',"
                 f"arg0='{NOTIFICATIONS}'"]
        self.monitor.add_message_filter(self.on_message)
        self.monitor.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                   "org.freedesktop.DBus.Monitoring", "BecomeMonitor", "asu", (rules, 0))

    def on_message(self, _connection, message):
        if not isinstance(message, dbus.lowlevel.SignalMessage):
            return
        args = message.get_args_list()
        if message.get_member() == "NameOwnerChanged" and args and str(args[0]) == NOTIFICATIONS:
            self.notifications_owner = str(args[2]) or None
            return
        if message.get_interface() != NOTIFICATIONS:
            return
        if message.get_member() == "ActionInvoked" and len(args) == 2:
            record = {"name": "ActionInvoked", "id": int(args[0]), "action": str(args[1])}
        elif message.get_member() == "NotificationClosed" and len(args) == 2:
            record = {"name": "NotificationClosed", "id": int(args[0]), "reason": int(args[1])}
        else:
            return
        if self.notifications_owner and message.get_sender() == self.notifications_owner:
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
        if cmd == "eval":
            ok, result = self.bus.call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                                                "s", (request["js"],), timeout=20)
            if not ok:
                raise ShellError(str(result))
            return {"result": str(result)}
        raise ValueError(f"unknown cmd {cmd!r}")

    def on_stdin(self, channel, condition):
        if condition & GLib.IO_IN:
            line = channel.readline()
            if line:
                self.answer(line)
                return not self.stopped
        self.quit()
        return False

    def answer(self, line):
        line = line.strip()
        if not line:
            return
        try:
            request = json.loads(line)
            if request.get("cmd") == "quit":
                self.quit()
                return
            reply = {"ok": True}
            reply.update(self.command(request))
        except (ShellError, dbus.DBusException, ValueError, KeyError, TypeError, AttributeError) as error:
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        emit(reply)

    def quit(self, reply=True):
        already = self.stopped
        self.stop()
        if reply and not already:
            emit({"ok": True})
        self.loop.quit()
        return False


class ShellError(Exception):
    pass


def wrap(js):
    """Makes a snippet whose last statement is an expression into one expression, for Eval."""
    body, last = js.rstrip().rstrip(";").rsplit("\n", 1)
    return f"(() => {{{body}\nreturn {last};}})()"


def emit(value):
    try:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass


def main():
    parser = argparse.ArgumentParser(description="Headless GNOME Shell notification server for tests.")
    parser.add_argument("--dir", required=True)
    directory = parser.parse_args().dir
    if not os.path.isdir(directory):
        emit({"ready": False, "error": f"{directory} is not a directory", "log": ""})
        return 1
    os.umask(0o077)
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    harness = Harness(directory)

    def on_signal(signum, _frame):
        harness.stop()
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        ready = harness.start()
    except (RuntimeError, ShellError, dbus.DBusException, OSError) as error:
        harness.stop()
        emit({"ready": False, "error": str(error), "log": harness.log_tail()})
        return 1
    emit(ready)
    channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, harness.on_stdin)
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, harness.quit, False)
    try:
        harness.loop.run()
    finally:
        harness.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
