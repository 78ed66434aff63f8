#!/usr/bin/python3
"""A real, headless KDE Plasma 5.27 notification server for tests.

Usage: desktop_plasma.py --dir DIR [--desktop-file FILE]...

DIR is an existing, empty 0700 directory. Everything the script makes lives in it: the private session bus (config,
socket and a service directory holding copies of only the org.kde.*.service files Plasma needs), HOME,
XDG_RUNTIME_DIR and the XDG directories, a log file per child, and screenshots. It starts `Xvfb -displayfd` (a free
display, 1280x800), the session bus (with DISPLAY set: activated KDE services need it), `kwin_x11`, then
`plasmashell`, which owns org.freedesktop.Notifications. Each --desktop-file is copied into
DIR/data/applications (XDG_DATA_HOME/applications) before Plasma starts, so a `desktop-entry` hint can name it.

Plasma is ready when the name has an owner and a probe notification (app "w8trackr-harness", closed at once, left
out of every answer; it uses the first id) has shown a popup window. Then it prints one JSON line:
  {"ready": true, "env": {"DBUS_SESSION_BUS_ADDRESS": ..., "DISPLAY": ":N"}, "server": {"name", "vendor",
   "version", "spec_version", "capabilities"}, "seconds_to_start": S, "applications_dir": DIR/data/applications}
or {"ready": false, "error": ..., "log": ...} and exits 1. Keep DIR short: the socket in it must fit in 108 bytes.

Plasma's behaviour to expect (measured with this script):
  - A popup expires about 4-5 s after it appears, with NotificationClosed(id, 1); hovering it pauses that, so the
    harness keeps the pointer away. Signals are broadcast (no destination). Low urgency (0) gets a popup too.
  - History keeps a normal or critical notification only if its desktop-entry hint names an installed .desktop
    file (--desktop-file, or a file put into applications_dir, which Plasma sees within a second); never urgency
    low.
  - replaces_id of a popup on screen updates it in place. replaces_id of a notification that expired (closed with
    reason 1) shows nothing: no popup, no signal; the expired entry is overwritten, and appears in history with
    the new text if the app has a desktop file. replaces_id of one closed by CloseNotification or by a button
    (reason 3), or of an unknown id, shows a new popup under that id.
  - A button or a click on a popup with a "default" action gives ActionInvoked, then NotificationClosed(id, 3).
    A click on a popup without a "default" action does nothing.
  - The same app name, summary and body again within 1 s fails with ExcessNotificationGeneration (it still uses
    up an id). image-path and image-data are both drawn, as a thumbnail about 48x28 px right of the body.

Where the answers come from. Plasma exposes no D-Bus interface to its notification model, and its Qt accessibility
bridge (AT-SPI) did not come up here (and crashed plasmashell when it did), so no text is read off the screen:
  - The server's own record of every notification it accepted: the harness registers as a Plasma notification
    watcher (org.kde.NotificationManager.RegisterWatcher); plasmashell then calls the harness's
    org.kde.NotificationWatcher.Notify with the id it assigned, app name, replaces_id, summary, body, actions and
    hints of each notification, including the ones it then does not show.
  - Popups on screen: plasmashell's X11 windows of type _NET_WM_WINDOW_TYPE_NOTIFICATION that are mapped, with
    their geometry. Plasma makes one window per popup and destroys it when the popup ends. A new window is matched
    to the newest accepted notification still waiting for one (several new windows at once: in creation order), so
    "id" of a popup is inferred; notifications posted within ~0.2 s of each other could be swapped.
  - Signals: ActionInvoked and NotificationClosed sent by the owner of the name, seen by a bus monitor.
  - History (the bell's list) is not readable: "in_history" is always null. Use "history_screenshot" to look.

Then it answers one JSON command per stdin line with one JSON line ("ok": true, or false with "error"):
  {"cmd": "notifications"}  "notifications": every notification Plasma accepted since start, by id:
                            {"id", "app_name", "summary", "body", "popup" (a popup window is on screen now),
                             "actions" (the buttons of that popup: the sent actions but "default", [] without a
                             popup), "in_history": null, "has_image" (an image-path/image-data hint Plasma draws),
                             "urgency", "replaces_id", "desktop_entry", "shown" (its current content had a popup),
                             "closed" (the reason of the last NotificationClosed Plasma sent for the id, or null),
                             "replaced" (how often a Notify replaced it), "sent_actions", "hints",
                             "geometry"}; "popups": [{"x", "y", "w", "h", "window", "id"}] for every popup window on
                            screen; "rejected": Notify calls Plasma answered with an error; "server_restarts": how
                            often the name got a new owner since start (plasmashell runs with --no-respawn).
  {"cmd": "dnd", "on": B}   Do Not Disturb as a presentation asks for it: Inhibit on org.freedesktop.Notifications
                            through this script's open connection (UnInhibit to end); answers "inhibited", the
                            Inhibited property then
  {"cmd": "signals"}        "signals": ActionInvoked and NotificationClosed emitted by the server since start, in
                            order, each with "destination" (the client's unique name).
  {"cmd": "expire"}         moves the pointer off the popups and waits until none is on screen (Plasma's own
                            expiry, about 5 s; deadline 15 s, or "timeout"); "seconds": how long it took. Critical
                            popups never expire, so this then fails.
  {"cmd": "press", "id": N, "action": A}  finds the button for action A on N's popup in a capture of the screen (the
                            bright button boxes in the popup's lower part, left to right in the order sent), clicks
                            it with xdotool and waits up to 3 s for ActionInvoked(N, A): "clicked": [x, y],
                            "action_invoked": bool.
  {"cmd": "click", "id": N} clicks N's popup on its summary line (the default action): "clicked": [x, y],
                            "action_invoked" (ActionInvoked(N, "default") seen), "closed" (a NotificationClosed
                            reason seen for N, or null).
  {"cmd": "screenshot", "path": "/abs/file.png"}  `import -window root` ("path" defaults to DIR/screenshot-K.png).
  {"cmd": "history_screenshot", "path": ...}  opens the notification history (a global shortcut the harness gives
                            the tray's notification applet through desktop scripting), takes a screenshot and
                            closes it with Escape (extra). Opening it marks everything read.
  {"cmd": "quit"}           (or EOF, SIGTERM, SIGINT) stops every process it started and exits 0.

Every child runs in one process group and carries a marker in its environment; on exit the group is killed and
any process carrying the marker (services the bus activated, kioslaves) is killed too. That plumbing is
desktop_common.py's, in the same directory, shared with desktop_gnome.py.
Needs python3-dbus and python3-gi (Debian's /usr/bin/python3), Xvfb, kwin-x11, plasma-workspace, xdotool and
imagemagick.
"""
import argparse
import ctypes
import ctypes.util
import os
import select
import shutil
import signal
import subprocess
import sys
import time

try:
    import dbus
except ImportError:
    # A python3 earlier in PATH (pyenv) has no python3-dbus: run again with Debian's.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise
import dbus.lowlevel
import dbus.service

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desktop_common import NOTIFICATIONS, NOTIFICATIONS_PATH, GLib, Harness, emit, run_harness  # noqa: E402

WATCHER_INTERFACE = "org.kde.NotificationWatcher"
# How long after Plasma accepted a notification a new popup window may still be its own (a loaded machine maps it
# late).
POPUP_WAIT = 15.0
SERVICES = ["org.kde.ActivityManager.service", "org.kde.kded5.service", "org.kde.kcookiejar5.service",
            "org.kde.kglobalaccel.service", "org.kde.kscreen.service", "org.kde.kiod5.service",
            "org.kde.kioexecd.service", "org.kde.kpasswdserver.service", "org.kde.kssld5.service"]
START_DEADLINE = 90.0
SCREEN = (1280, 800)
PARK = (600, 150)  # where the pointer rests: away from the popups, the panel and kwin's screen edges
PROBE_APP = "w8trackr-harness"
# The notification applet sits inside the system tray's own containment; desktop scripting can give it a global
# shortcut, which opens the tray popup on its history page.
HISTORY_SHORTCUT = "Ctrl+Alt+Shift+F12"
HISTORY_KEYS = "ctrl+alt+shift+F12"
HISTORY_SCRIPT = """
var done = 0;
var shells = panels();
for (var i = 0; i < shells.length; i++) {
    var trays = shells[i].widgets("org.kde.plasma.systemtray");
    for (var j = 0; j < trays.length; j++) {
        trays[j].currentConfigGroup = [];
        var tray = desktopById(Number(trays[j].readConfig("SystrayContainmentId")));
        if (!tray) continue;
        var applets = tray.widgets("org.kde.plasma.notifications");
        for (var k = 0; k < applets.length; k++) { applets[k].globalShortcut = "%s"; done++; }
    }
}
print(done);
""" % HISTORY_SHORTCUT
IMAGE_HINTS = ("image-data", "image_data", "image-path", "image_path", "icon_data")


class X11:
    """The few Xlib calls needed to find Plasma's popup windows, through ctypes."""

    class Attributes(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                    ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p),
                    ("root", ctypes.c_ulong), ("c_class", ctypes.c_int), ("bit_gravity", ctypes.c_int),
                    ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int),
                    ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
                    ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
                    ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                    ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                    ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]

    IS_VIEWABLE = 2
    ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    IO_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)

    def __init__(self, display, on_lost):
        lib = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
        self.lib = lib
        lib.XOpenDisplay.restype = ctypes.c_void_p
        lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        lib.XDefaultRootWindow.restype = ctypes.c_ulong
        lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        lib.XInternAtom.restype = ctypes.c_ulong
        lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        lib.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                   ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                   ctypes.POINTER(ctypes.c_uint)]
        lib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(X11.Attributes)]
        lib.XGetWindowProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long,
                                           ctypes.c_long, ctypes.c_int, ctypes.c_ulong,
                                           ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
                                           ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
                                           ctypes.POINTER(ctypes.c_void_p)]
        lib.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                              ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                              ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong)]
        lib.XFree.argtypes = [ctypes.c_void_p]
        lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        # Windows vanish between calls; the default handler would exit the process on BadWindow.
        self.handler = X11.ERROR_HANDLER(lambda _display, _event: 0)
        lib.XSetErrorHandler(self.handler)
        # Losing the display (Xvfb died) makes Xlib exit the process after this handler: clean up first.
        self.io_handler = X11.IO_ERROR_HANDLER(lambda _display: on_lost() or 0)
        lib.XSetIOErrorHandler(self.io_handler)
        self.display = lib.XOpenDisplay(display.encode())
        if not self.display:
            raise RuntimeError(f"cannot open X display {display}")
        self.root = lib.XDefaultRootWindow(self.display)
        self.atoms = {}
        self.kinds = {}  # top-level window -> its client window if that is a plasmashell popup, else 0
        self.unsettled = {}  # top-level window -> when it was first seen without a client

    def atom(self, name):
        if name not in self.atoms:
            self.atoms[name] = self.lib.XInternAtom(self.display, name.encode(), 0)
        return self.atoms[name]

    def children(self, window):
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        kids, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not self.lib.XQueryTree(self.display, window, ctypes.byref(root), ctypes.byref(parent),
                                   ctypes.byref(kids), ctypes.byref(count)):
            return None
        result = [kids[i] for i in range(count.value)]
        if kids:
            self.lib.XFree(kids)
        return result

    def property(self, window, name, kind):
        actual, fmt = ctypes.c_ulong(), ctypes.c_int()
        items, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        status = self.lib.XGetWindowProperty(self.display, window, self.atom(name), 0, 1024, 0, 0,
                                             ctypes.byref(actual), ctypes.byref(fmt), ctypes.byref(items),
                                             ctypes.byref(after), ctypes.byref(data))
        if status != 0 or not data.value:
            return None
        try:
            if kind == "atoms" and fmt.value == 32:
                return list(ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))[:items.value])
            if kind == "string" and fmt.value == 8:
                return ctypes.string_at(data, items.value).split(b"\0")
            return None
        finally:
            self.lib.XFree(data)

    def is_popup(self, window):
        wm_class = self.property(window, "WM_CLASS", "string") or []
        if b"plasmashell" not in wm_class:
            return False
        types = self.property(window, "_NET_WM_WINDOW_TYPE", "atoms") or []
        wanted = {self.atom("_NET_WM_WINDOW_TYPE_NOTIFICATION"),
                  self.atom("_KDE_NET_WM_WINDOW_TYPE_CRITICAL_NOTIFICATION")}
        return bool(types) and types[0] in wanted

    def client_of(self, top):
        """The plasmashell popup window inside top-level window top (a kwin frame, or itself), 0 if none, None if
        not known yet (a frame whose client is not reparented yet)."""
        if self.is_popup(top):
            return top
        stack, seen_client = [(top, 0)], False
        while stack:
            window, depth = stack.pop()
            kids = self.children(window)
            if kids is None:
                return 0
            for kid in kids:
                if self.property(kid, "WM_CLASS", "string") is not None:
                    seen_client = True
                    if self.is_popup(kid):
                        return kid
                elif depth < 2:
                    stack.append((kid, depth + 1))
        return 0 if seen_client or self.property(top, "WM_CLASS", "string") is not None else None

    def popups(self):
        """{client window: (x, y, w, h)} of every mapped plasmashell popup."""
        tops = self.children(self.root) or []
        result = {}
        for top in tops:
            if top not in self.kinds:
                kind = self.client_of(top)
                if kind is None:
                    # A frame whose client is not reparented yet; anything still empty after 2 s is no popup.
                    first = self.unsettled.setdefault(top, time.monotonic())
                    if time.monotonic() - first < 2.0:
                        continue
                    kind = 0
                self.unsettled.pop(top, None)
                self.kinds[top] = kind
            client = self.kinds[top]
            if not client:
                continue
            attributes = X11.Attributes()
            if not self.lib.XGetWindowAttributes(self.display, client, ctypes.byref(attributes)):
                continue
            top_attributes = X11.Attributes()
            if not self.lib.XGetWindowAttributes(self.display, top, ctypes.byref(top_attributes)):
                continue
            if attributes.map_state != X11.IS_VIEWABLE or top_attributes.map_state != X11.IS_VIEWABLE:
                continue
            x, y, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
            if not self.lib.XTranslateCoordinates(self.display, client, self.root, 0, 0, ctypes.byref(x),
                                                  ctypes.byref(y), ctypes.byref(child)):
                continue
            result[client] = (x.value, y.value, attributes.width, attributes.height)
        live = set(tops)
        for top in [t for t in self.kinds if t not in live]:
            del self.kinds[top]
        for top in [t for t in self.unsettled if t not in live]:
            del self.unsettled[top]
        return result

    def close(self):
        if self.display:
            self.lib.XCloseDisplay(self.display)
            self.display = None


class Watcher(dbus.service.Object):
    """org.kde.NotificationWatcher: plasmashell calls it for every notification it accepts."""

    def __init__(self, bus, harness):
        super().__init__(bus, "/NotificationWatcher")
        self.harness = harness

    @dbus.service.method(WATCHER_INTERFACE, in_signature="ususssasa{sv}i", out_signature="")
    def Notify(self, notification_id, app_name, replaces_id, app_icon, summary, body, actions, hints, timeout):
        self.harness.on_server_notify(int(notification_id), str(app_name), int(replaces_id), str(app_icon),
                                      str(summary), str(body), [str(a) for a in actions], hints, int(timeout))

    @dbus.service.method(WATCHER_INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.harness.on_server_close(int(notification_id))


class Plasma(Harness):
    """kwin_x11 and plasmashell under Xvfb on a private session bus; a notification watcher, the X11 windows and
    xdotool are how it is read and driven."""

    STOP_GRACE = ((signal.SIGTERM, 4.0), (signal.SIGKILL, 3.0))
    LOG_LINES = 30
    START_ERRORS = (RuntimeError, OSError, subprocess.SubprocessError)
    COMMAND_ERRORS = (ValueError, KeyError, TypeError, AttributeError, OSError, subprocess.SubprocessError)

    def __init__(self, directory, desktop_files):
        super().__init__(directory)
        self.desktop_files = desktop_files
        self.display = None
        self.address = None
        self.watcher = None
        self.x11 = None
        self.owner_changes = 0
        self.notes = {}  # id -> what Plasma told the watcher, plus popup state
        self.order = 0
        self.windows = {}  # popup window -> notification id (kept after the window is unmapped)
        self.visible = {}  # popup windows on screen now -> geometry
        self.pending_calls = {}  # (client, serial) of Notify calls -> their arguments
        self.rejected = []
        self.probe_ids = set()
        self.history_shortcut = False
        self.inhibition = None  # the cookie of our Inhibit while it holds

    # Processes

    def desktop_env(self):
        return {
            "XDG_DATA_DIRS": "/usr/share",
            "XDG_CONFIG_DIRS": "/etc/xdg",
            "XDG_CURRENT_DESKTOP": "KDE",
            "XDG_SESSION_TYPE": "x11",
            "KDE_FULL_SESSION": "true",
            "KDE_SESSION_VERSION": "5",
            "QT_QPA_PLATFORM": "xcb",
            # No DrKonqi dialogs when something crashes.
            "KDE_DEBUG": "1",
            # Keep everything off any real system bus.
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.path('no-system-bus')}",
        }

    def before_stop(self):
        # The display first: once Xvfb is gone, Xlib would end this process from its I/O error handler.
        if self.x11:
            x11, self.x11 = self.x11, None
            x11.close()

    def display_lost(self):
        self.x11 = None
        emit({"ok": False, "error": f"lost the X display {self.display}; stopping", "log": self.log_tail()})
        self.stop()
        os._exit(1)

    # Start

    def write_configs(self):
        self.write_session(("data/applications",), SERVICES, only_installed=True)
        for desktop in self.desktop_files:
            shutil.copy(desktop, self.path("data", "applications", os.path.basename(desktop)))

    def start_xvfb(self, env, deadline):
        read_end, write_end = os.pipe()
        try:
            self.spawn("xvfb", ["Xvfb", "-displayfd", str(write_end), "-screen", "0",
                                f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp", "-noreset"], env,
                       pass_fds=(write_end,))
        finally:
            os.close(write_end)
        number = b""
        try:
            while not number.endswith(b"\n"):
                self.check_children("Xvfb's display number")
                if time.monotonic() > deadline:
                    raise RuntimeError("timed out waiting for Xvfb's display number")
                readable, _, _ = select.select([read_end], [], [], 0.2)
                if readable:
                    chunk = os.read(read_end, 64)
                    if not chunk:
                        break
                    number += chunk
        finally:
            os.close(read_end)
        if not number.strip().isdigit():
            raise RuntimeError(f"Xvfb gave no display number ({number!r})")
        return f":{int(number.strip())}"

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
        self.write_configs()
        env = self.base_env()
        self.display = self.start_xvfb(env, deadline)
        env["DISPLAY"] = self.display
        self.x11 = X11(self.display, self.display_lost)
        self.start_buses(env, deadline, "session")
        self.address = f"unix:path={self.path('session.sock')}"
        env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        self.bus = dbus.bus.BusConnection(self.address)
        self.start_monitor(self.address, f"type='method_call',interface='{NOTIFICATIONS}',member='Notify'",
                           "type='error'")
        self.watcher = Watcher(self.bus, self)
        self.spawn("kwin_x11", ["kwin_x11"], env)
        self.wait_for("kwin_x11 on the bus", lambda: self.bus.name_has_owner("org.kde.KWin"), deadline)
        self.spawn("plasmashell", ["plasmashell", "--no-respawn"], env)
        self.wait_for(f"{NOTIFICATIONS} to have an owner", lambda: self.name_owner(NOTIFICATIONS), deadline)
        self.register_watcher()
        GLib.timeout_add(100, self.poll_popups)
        self.probe(deadline)
        self.history_shortcut = self.set_history_shortcut()
        server = self.server_info()
        seconds = round(time.monotonic() - started, 2)
        return {"ready": True, "env": {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": self.display},
                "server": server, "seconds_to_start": seconds,
                "applications_dir": self.path("data", "applications")}

    def probe(self, deadline):
        """Posts a probe until Plasma shows it as a popup, then closes it and forgets it."""
        interface = dbus.Interface(self.bus.get_object(NOTIFICATIONS, NOTIFICATIONS_PATH), NOTIFICATIONS)
        attempt = 0
        while True:
            attempt += 1
            before = set(self.visible)
            probe_id = int(interface.Notify(PROBE_APP, dbus.UInt32(0), "", f"harness probe {attempt}",
                                            "Plasma is ready", dbus.Array([], signature="s"),
                                            {"urgency": dbus.Byte(1)}, dbus.Int32(-1)))
            self.probe_ids.add(probe_id)
            end = min(deadline, time.monotonic() + 8.0)
            shown = False
            while time.monotonic() < end and not shown:
                self.check_children("the probe popup")
                self.pump(0.1)
                shown = bool(set(self.visible) - before)
            interface.CloseNotification(dbus.UInt32(probe_id))
            if shown:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for Plasma to show a popup")
        self.wait_for("the probe popup to close", lambda: not self.visible, deadline)
        self.pump(0.3)
        self.notes.clear()
        self.windows = {w: None for w in self.windows}
        self.signals.clear()
        self.rejected.clear()
        self.owner_changes = 0

    def set_history_shortcut(self):
        try:
            result = self.bus.call_blocking("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell",
                                            "evaluateScript", "s", (HISTORY_SCRIPT,), timeout=20)
        except dbus.DBusException:
            return False
        self.pump(0.3)
        return str(result).strip() not in ("", "0")

    def register_watcher(self):
        try:
            self.bus.call_blocking(NOTIFICATIONS, NOTIFICATIONS_PATH, "org.kde.NotificationManager",
                                   "RegisterWatcher", "", (), timeout=10)
        except dbus.DBusException:
            pass
        return False

    # What Plasma tells the watcher

    def on_server_notify(self, notification_id, app_name, replaces_id, icon, summary, body, actions, hints,
                         timeout):
        if app_name == PROBE_APP:
            self.probe_ids.add(notification_id)
            return
        self.order += 1
        pairs = [{"id": actions[i], "label": actions[i + 1]} for i in range(0, len(actions) - 1, 2)]
        plain = {}
        for key, value in hints.items():
            key = str(key)
            if key in ("image-data", "image_data", "icon_data"):
                plain[key] = "(%dx%d pixels)" % (int(value[0]), int(value[1])) if len(value) >= 2 else "(image)"
            elif isinstance(value, (dbus.Byte, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64, dbus.Int16,
                                    dbus.UInt16)):
                plain[key] = int(value)
            elif isinstance(value, dbus.Boolean):
                plain[key] = bool(value)
            else:
                plain[key] = str(value)
        note = self.notes.get(notification_id)
        if note is None:
            note = {"id": notification_id, "shown": False, "closed": None, "window": None, "replaced": 0}
            self.notes[notification_id] = note
        else:
            # Replaced: whether the new content gets a popup is decided anew ("shown" stays true only while the
            # old popup is still up and simply shows the new content).
            note["replaced"] += 1
            note["shown"] = note["window"] is not None and note["window"] in self.visible
        note.update({
            "app_name": app_name, "replaces_id": replaces_id, "icon": icon, "summary": summary, "body": body,
            "sent_actions": pairs, "hints": plain, "timeout": timeout,
            "urgency": plain.get("urgency", 1), "desktop_entry": plain.get("desktop-entry"),
            "has_image": any(key in plain for key in IMAGE_HINTS),
            "order": self.order, "waiting_since": time.monotonic(),
        })

    def on_server_close(self, notification_id):
        note = self.notes.get(notification_id)
        if note is not None:
            note["watcher_closed"] = True

    # Popup windows

    def poll_popups(self):
        if self.stopped or self.x11 is None:
            return False
        try:
            now_visible = self.x11.popups()
        except Exception:  # noqa: BLE001 - X errors while the display goes away
            return True
        now = time.monotonic()
        for window in [w for w in self.visible if w not in now_visible]:
            note = self.notes.get(self.windows.get(window))
            if note is not None and note["window"] == window:
                note["window"] = None
        fresh = sorted(w for w in now_visible if w not in self.visible)
        for window in fresh:
            if self.windows.get(window) in self.notes:
                self.notes[self.windows[window]]["window"] = window
        # A window not matched yet stays a candidate while it is on screen: on a loaded machine plasmashell may map
        # a popup before the watcher call that names its notification arrives, or seconds after it.
        unknown = sorted(w for w in now_visible if self.windows.get(w) is None)
        if unknown:
            waiting = sorted((n for n in self.notes.values()
                              if n["window"] is None and n.get("waiting_since") is not None
                              and n["closed"] is None and now - n["waiting_since"] < POPUP_WAIT),
                             key=lambda n: n["order"])
            chosen = waiting[-len(unknown):] if waiting else []
            # Windows without a matching notification (the probe, another app's) stay unmatched.
            for index, window in enumerate(unknown):
                offset = index - (len(unknown) - len(chosen))
                note = chosen[offset] if offset >= 0 else None
                if note:
                    self.windows[window] = note["id"]
                    note["window"] = window
                    note["shown"] = True
                    note["waiting_since"] = None
        for note in self.notes.values():
            if note.get("waiting_since") is not None and now - note["waiting_since"] >= POPUP_WAIT:
                note["waiting_since"] = None
        self.visible = now_visible
        return True

    # Bus monitor: signals, and Notify calls Plasma refused

    def on_message(self, connection, message):
        if isinstance(message, dbus.lowlevel.MethodCallMessage):
            if message.get_member() == "Notify" and message.get_sender() != self.bus.get_unique_name():
                args = message.get_args_list()
                if len(args) >= 5:
                    self.pending_calls[(message.get_sender(), message.get_serial())] = {
                        "client": message.get_sender(), "app_name": str(args[0]),
                        "replaces_id": int(args[1]), "summary": str(args[3]), "body": str(args[4])}
                    if len(self.pending_calls) > 500:
                        self.pending_calls.pop(next(iter(self.pending_calls)))
            return
        if isinstance(message, dbus.lowlevel.ErrorMessage):
            call = self.pending_calls.pop((message.get_destination(), message.get_reply_serial()), None)
            if call is not None:
                args = message.get_args_list()
                call["error"] = message.get_error_name()
                call["message"] = str(args[0]) if args else ""
                self.rejected.append(call)
            return
        super().on_message(connection, message)

    def on_owner(self, owner):
        if owner:
            self.owner_changes += 1
            GLib.idle_add(self.register_watcher)

    def on_signal(self, message, record):
        # Only the server's own signals count, and none about the probe.
        if record["id"] in self.probe_ids or not self.from_server(message):
            return
        record["destination"] = message.get_destination()
        self.signals.append(record)
        note = self.notes.get(record["id"])
        if note is not None and record["name"] == "NotificationClosed":
            note["closed"] = record["reason"]

    # Screen

    def xdotool(self, *args):
        env = dict(os.environ, DISPLAY=self.display)
        subprocess.run(["xdotool", *[str(a) for a in args]], env=env, check=True, timeout=10,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def park_pointer(self):
        self.xdotool("mousemove", PARK[0], PARK[1])

    def click_at(self, x, y):
        self.xdotool("mousemove", x, y)
        self.pump(0.25)  # let the popup see the hover before the press
        self.xdotool("click", 1)
        self.pump(0.1)
        self.park_pointer()

    def capture(self, x, y, w, h):
        """The screen rectangle as rows of (r, g, b) bytes."""
        env = dict(os.environ, DISPLAY=self.display)
        ppm = subprocess.run(["import", "-window", "root", "-crop", f"{w}x{h}+{x}+{y}", "+repage", "-depth", "8",
                              "ppm:-"], env=env, check=True, timeout=20, capture_output=True).stdout
        # P6 header: magic, width, height, maxval, each followed by one whitespace byte (import writes no comments).
        magic, width, height, maxval, pixels = ppm.split(None, 4)
        if magic != b"P6" or maxval != b"255":
            raise ValueError(f"unexpected capture format {magic!r} {maxval!r}")
        width, height = int(width), int(height)
        rest = ppm[len(ppm) - width * height * 3:]
        return width, height, rest

    def find_buttons(self, geometry, count):
        """Centres of the count bright button boxes in the popup's lower part, left to right."""
        x0, y0, w, h = geometry
        width, height, pixels = self.capture(x0, y0, w, h)

        def bright(px, py):
            i = (py * width + px) * 3
            r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
            return min(r, g, b) >= 238 and max(r, g, b) - min(r, g, b) <= 12

        best = None
        for py in range(height - 3, min(40, height - 1), -1):
            runs, start = [], None
            for px in range(width):
                if bright(px, py):
                    if start is None:
                        start = px
                elif start is not None:
                    if px - start >= 24:
                        runs.append((start, px))
                    start = None
            if start is not None and width - start >= 24:
                runs.append((start, width))
            if len(runs) == count:
                # The row of a box is where the boxes are widest: their top and bottom rows inside the border.
                total = sum(b - a for a, b in runs)
                if best is None or total > best[0] + 4 or (abs(total - best[0]) <= 4 and py < best[1]):
                    if best is None or total >= best[0] - 4:
                        best = (total, py, runs)
        if best is None:
            raise ValueError(f"found no row of {count} button(s) on the popup at {geometry}")
        _, row, runs = best
        centres = []
        for a, b in runs:
            column = a + 3
            top = bottom = row
            while top > 0 and bright(column, top - 1):
                top -= 1
            while bottom < height - 1 and bright(column, bottom + 1):
                bottom += 1
            centres.append((x0 + (a + b) // 2, y0 + (top + bottom) // 2))
        return centres

    def screenshot(self, path):
        env = dict(os.environ, DISPLAY=self.display)
        subprocess.run(["import", "-window", "root", path], env=env, check=True, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return path

    def default_path(self, request):
        path = request.get("path")
        if not path:
            self.screenshots += 1
            path = self.path(f"screenshot-{self.screenshots}.png")
        return os.path.abspath(path)

    # Commands

    def popup_of(self, notification_id):
        note = self.notes.get(notification_id)
        if note is None:
            raise ValueError(f"Plasma has no notification {notification_id}")
        window = note["window"]
        if window is None or window not in self.visible:
            raise ValueError(f"notification {notification_id} has no popup on screen")
        return note, self.visible[window]

    def wait_signal(self, predicate, seconds):
        end = time.monotonic() + seconds
        while True:
            found = [s for s in self.signals if predicate(s)]
            if found or time.monotonic() >= end:
                return found
            self.pump(0.05)

    def describe(self, note):
        window = note["window"]
        popup = window is not None and window in self.visible
        shown_actions = [a for a in note["sent_actions"] if a["id"] not in ("default", "inline-reply")]
        geometry = None
        if popup:
            x, y, w, h = self.visible[window]
            geometry = {"x": x, "y": y, "w": w, "h": h}
        return {
            "id": note["id"], "app_name": note["app_name"], "summary": note["summary"], "body": note["body"],
            "popup": popup, "actions": shown_actions if popup else [], "in_history": None,
            "has_image": note["has_image"], "urgency": note["urgency"], "replaces_id": note["replaces_id"],
            "desktop_entry": note["desktop_entry"], "shown": note["shown"], "closed": note["closed"],
            "replaced": note["replaced"], "sent_actions": note["sent_actions"], "hints": note["hints"],
            "geometry": geometry,
        }

    def inhibit(self, on):
        """Do Not Disturb as an application asks for it (a presentation): Inhibit on org.freedesktop.Notifications
        through this script's own connection, which stays open, so Inhibited stays true; UnInhibit ends it."""
        if on and self.inhibition is None:
            self.inhibition = self.bus.call_blocking(
                NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS, "Inhibit", "ssa{sv}",
                ("w8trackr-tests", "a presentation", {}))
        elif not on and self.inhibition is not None:
            self.bus.call_blocking(NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS, "UnInhibit", "u",
                                   (self.inhibition,))
            self.inhibition = None
        self.pump(0.3)
        inhibited = self.bus.call_blocking(NOTIFICATIONS, NOTIFICATIONS_PATH, "org.freedesktop.DBus.Properties", "Get",
                                           "ss", (NOTIFICATIONS, "Inhibited"))
        if bool(inhibited) != on:
            raise ValueError(f"Inhibited is {bool(inhibited)} after asking for {on}")
        return {"inhibited": bool(inhibited)}

    def command(self, request):
        cmd = request.get("cmd")
        if cmd == "notifications":
            self.pump(0.25)
            self.poll_popups()
            notes = [self.describe(n) for n in sorted(self.notes.values(), key=lambda n: n["id"])]
            popups = [{"x": g[0], "y": g[1], "w": g[2], "h": g[3], "window": hex(w), "id": self.windows.get(w)}
                      for w, g in sorted(self.visible.items(), key=lambda item: -item[1][1])]
            return {"notifications": notes, "popups": popups, "rejected": self.rejected,
                    "server_restarts": self.owner_changes}
        if cmd == "signals":
            self.pump(0.1)
            return {"signals": self.signals}
        if cmd == "dnd":
            return self.inhibit(bool(request["on"]))
        if cmd == "expire":
            self.park_pointer()
            started = time.monotonic()
            end = started + float(request.get("timeout", 15))
            while True:
                self.poll_popups()
                if not self.visible:
                    break
                if time.monotonic() > end:
                    raise ValueError(f"{len(self.visible)} popup(s) still on screen after the deadline")
                self.pump(0.1)
            self.pump(0.3)
            return {"seconds": round(time.monotonic() - started, 2)}
        if cmd == "press":
            notification_id, action = int(request["id"]), str(request["action"])
            self.poll_popups()
            note, geometry = self.popup_of(notification_id)
            buttons = [a["id"] for a in note["sent_actions"] if a["id"] not in ("default", "inline-reply")]
            if action not in buttons:
                raise ValueError(f"notification {notification_id} has no button for action {action!r}")
            centres = self.find_buttons(geometry, len(buttons))
            x, y = centres[buttons.index(action)]
            before = len(self.signals)
            self.click_at(x, y)
            found = self.wait_signal(lambda s: s in self.signals[before:] and s["name"] == "ActionInvoked"
                                     and s["id"] == notification_id and s["action"] == action, 3.0)
            return {"clicked": [x, y], "action_invoked": bool(found)}
        if cmd == "click":
            notification_id = int(request["id"])
            self.poll_popups()
            note, (x0, y0, w, h) = self.popup_of(notification_id)
            x, y = x0 + w // 2, y0 + min(38, h // 2)
            before = len(self.signals)
            self.click_at(x, y)
            self.wait_signal(lambda s: s in self.signals[before:] and s["id"] == notification_id, 1.5)
            new = [s for s in self.signals[before:] if s["id"] == notification_id]
            invoked = any(s["name"] == "ActionInvoked" and s["action"] == "default" for s in new)
            closed = next((s["reason"] for s in new if s["name"] == "NotificationClosed"), None)
            return {"clicked": [x, y], "action_invoked": invoked, "closed": closed}
        if cmd == "screenshot":
            self.pump(0.1)
            return {"path": self.screenshot(self.default_path(request))}
        if cmd == "history_screenshot":
            if not self.history_shortcut:
                raise ValueError("the notification history has no shortcut (see the plasmashell log)")
            path = self.default_path(request)
            self.park_pointer()
            self.xdotool("key", HISTORY_KEYS)
            self.pump(1.5)
            self.screenshot(path)
            self.xdotool("key", "Escape")
            self.pump(0.5)
            return {"path": path}
        raise ValueError(f"unknown cmd {cmd!r}")


def main():
    parser = argparse.ArgumentParser(description="Headless KDE Plasma notification server for tests.")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--desktop-file", action="append", default=[],
                        help="a .desktop file to install into DIR/data/applications before Plasma starts")
    return run_harness(parser.parse_args(), lambda options: Plasma(options.dir, options.desktop_file))


if __name__ == "__main__":
    sys.exit(main())
