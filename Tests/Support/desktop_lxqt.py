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
Needs python3-gi (Debian's /usr/bin/python3), xvfb, dbus, at-spi2-core, lxqt-notificationd, xdotool, x11-utils and
imagemagick.
"""
import argparse
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
SERVER = "lxqt-notificationd"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
START_DEADLINE = 30
EXPIRE_DEADLINE = 15
PRESS_DEADLINE = 5


class StartError(Exception):
    pass


class CommandError(Exception):
    pass


# Processes


class Children:
    """The processes this script started, each in a session of its own, so that what they start (the a11y bus's
    dbus-daemon, at-spi2-registryd) can be found by session id and stopped too. This process is a child
    subreaper, so those orphans are reaped here rather than left as zombies."""

    def __init__(self, directory):
        self.directory = directory
        self.started = []  # (name, Popen)
        self.lock = threading.Lock()
        try:
            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            pass

    def log_path(self, name):
        return os.path.join(self.directory, name + ".log")

    def spawn(self, name, argv, env, pass_fds=(), user=None, stdout=None):
        log = open(self.log_path(name), "ab")
        extra = {}
        if user is not None:
            extra = {"user": user, "group": user, "extra_groups": []}
        try:
            process = subprocess.Popen(
                argv, env=env, stdin=subprocess.DEVNULL, stdout=stdout if stdout is not None else log,
                stderr=log, pass_fds=pass_fds, start_new_session=True, cwd=self.directory, **extra)
        except OSError as error:
            raise StartError(f"cannot start {argv[0]}: {error}")
        finally:
            log.close()
        with self.lock:
            self.started.append((name, process))
        return process

    def sessions(self):
        with self.lock:
            return {process.pid for _, process in self.started}

    def members(self):
        """Every live process in a session one of the children leads (the children and what they started)."""
        sessions = self.sessions()
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            state, session = fields[0], int(fields[3])
            if session in sessions and state != "Z" and int(entry) != os.getpid():
                found.append(int(entry))
        return found

    def reap(self):
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return

    def stop_all(self, grace=3.0):
        """SIGTERM to the children, last started first, then to what is left in their sessions; SIGKILL after
        `grace` seconds."""
        with self.lock:
            started = list(reversed(self.started))
        for _, process in started:
            if process.poll() is None:
                try:
                    process.send_signal(signal.SIGTERM)
                except OSError:
                    pass
                try:
                    process.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
        for pid in self.members():
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and self.members():
            self.reap()
            time.sleep(0.05)
        for pid in self.members():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for _, process in started:
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        time.sleep(0.05)
        self.reap()

    def check_alive(self, name):
        for started_name, process in self.started:
            if started_name == name and process.poll() is not None:
                raise StartError(f"{name} exited with status {process.returncode}")

    def logs(self, limit=4000):
        text = ""
        for name, _ in self.started:
            try:
                with open(self.log_path(name), errors="replace") as file:
                    content = file.read()
            except OSError:
                continue
            text += f"--- {name}.log\n{content[-limit:]}\n"
        return text


def read_line_from(fd, deadline, what):
    """The first line written to the pipe `fd`, waiting until `deadline` (time.monotonic())."""
    data = b""
    os.set_blocking(fd, False)
    while b"\n" not in data:
        if time.monotonic() > deadline:
            raise StartError(f"no output from {what}")
        try:
            chunk = os.read(fd, 256)
        except BlockingIOError:
            time.sleep(0.02)
            continue
        if not chunk:
            raise StartError(f"{what} closed its output: {data!r}")
        data += chunk
    return data.split(b"\n", 1)[0].decode().strip()


def start_xvfb(children, deadline):
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


def bus_configuration(socket, service_directory, users):
    allow_users = "".join(f'<allow user="{user}"/>' for user in users)
    return (
        '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
        ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
        f"<busconfig><type>session</type><listen>unix:path={socket}</listen><auth>EXTERNAL</auth>"
        f"<servicedir>{service_directory}</servicedir>"
        f'<policy context="default">{allow_users}<allow send_destination="*" eavesdrop="true"/>'
        '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>\n')


def start_bus(children, directory, runtime, deadline, user=None, env_extra=None):
    """A private session bus whose only service directory is empty; returns its address."""
    services = os.path.join(directory, "dbus-services")
    os.makedirs(services, exist_ok=True)
    config = os.path.join(directory, "session-bus.conf")
    with open(config, "w") as file:
        file.write(bus_configuration(os.path.join(runtime, "bus"), services, ["root"] + ([user] if user else [])))
    read_end, write_end = os.pipe()
    env = {"PATH": PATH, "LANG": "C.UTF-8", "HOME": os.path.join(directory, "home")}
    env.update(env_extra or {})
    children.spawn(
        "dbus-daemon", ["dbus-daemon", f"--config-file={config}", "--nofork", f"--print-address={write_end}"],
        env=env, pass_fds=(write_end,), user=user)
    os.close(write_end)
    try:
        address = read_line_from(read_end, deadline, "dbus-daemon --print-address")
    finally:
        os.close(read_end)
    return address


def connect(address):
    return Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)


def call(connection, destination, path, interface, method, parameters=None, reply=None, timeout=5000):
    result = connection.call_sync(
        destination, path, interface, method, parameters,
        GLib.VariantType.new(reply) if reply else None, Gio.DBusCallFlags.NO_AUTO_START, timeout, None)
    return result.unpack() if result is not None else None


def has_owner(connection, name):
    return call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", GLib.Variant("(s)", (name,)), "(b)")[0]


def wait_for_owner(connection, name, deadline, children, watched):
    while not has_owner(connection, name):
        children.check_alive(watched)
        if time.monotonic() > deadline:
            raise StartError(f"no owner for {name}")
        time.sleep(0.02)


def server_information(connection):
    name, vendor, version, spec = call(connection, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS,
                                       "GetServerInformation", None, "(ssss)")
    capabilities = call(connection, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS, "GetCapabilities", None,
                        "(as)")[0]
    return {"name": name, "vendor": vendor, "version": version, "spec_version": spec,
            "capabilities": list(capabilities)}


# What the bus carries


class BusRecorder:
    """A monitor connection (org.freedesktop.DBus.Monitoring.BecomeMonitor) on the private bus. It records the
    NotificationClosed and ActionInvoked signals the server emits, broadcast or unicast, and every Notify call
    with the id the server answered, to name the popups it shows."""

    def __init__(self, address):
        self.lock = threading.Lock()
        self.signals = []
        self.calls = {}  # (sender, serial) -> record
        self.notifications = []  # records in order of their answer
        self.server = None  # unique name of the notification server
        self.changed = threading.Condition(self.lock)
        self.connection = connect(address)
        self.connection.add_filter(self.filter)
        rules = [
            f"type='signal',interface='{NOTIFICATIONS}'",
            f"type='method_call',interface='{NOTIFICATIONS}',member='Notify'",
            "type='method_return'",
        ]
        call(self.connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.Monitoring", "BecomeMonitor", GLib.Variant("(asu)", (rules, 0)), None)

    def filter(self, connection, message, incoming):
        if not incoming:
            return message
        if message.get_destination() == connection.get_unique_name() and message.get_message_type() in (
                Gio.DBusMessageType.METHOD_RETURN, Gio.DBusMessageType.ERROR):
            return message  # the answer to BecomeMonitor itself
        try:
            self.record(message)
        except Exception as error:  # a filter must never raise
            sys.stderr.write(f"monitor: {error!r}\n")
        return None  # a monitor may not answer anything: GDBus must not see what it watches

    def record(self, message):
        kind = message.get_message_type()
        if kind == Gio.DBusMessageType.METHOD_CALL and message.get_member() == "Notify":
            body = message.get_body()
            if body is None or body.get_type_string() != "(susssasa{sv}i)":
                return
            app, replaces, icon, summary, text, actions, hints, timeout = body.unpack()
            record = {
                "id": None, "app_name": app, "replaces_id": replaces, "app_icon": icon, "summary": summary,
                "body": text, "actions": [{"id": actions[i], "label": actions[i + 1]}
                                          for i in range(0, len(actions) - 1, 2)],
                "hints": describe_hints(hints), "expire_timeout": timeout, "closed": None, "time": time.time(),
            }
            with self.lock:
                self.calls[(message.get_sender(), message.get_serial())] = record
        elif kind == Gio.DBusMessageType.METHOD_RETURN:
            with self.lock:
                record = self.calls.pop((message.get_destination(), message.get_reply_serial()), None)
                if record is None:
                    return
                body = message.get_body()
                if body is not None and body.get_type_string() == "(u)":
                    record["id"] = body.unpack()[0]
                    self.server = message.get_sender()
                    self.notifications.append(record)
                    self.changed.notify_all()
        elif kind == Gio.DBusMessageType.SIGNAL and message.get_interface() == NOTIFICATIONS:
            body = message.get_body()
            member = message.get_member()
            with self.lock:
                if member == "NotificationClosed" and body is not None and body.get_type_string() == "(uu)":
                    notification_id, reason = body.unpack()
                    self.signals.append({"name": member, "id": notification_id, "reason": reason})
                    for record in self.notifications:
                        if record["id"] == notification_id and record["closed"] is None:
                            record["closed"] = reason
                elif member == "ActionInvoked" and body is not None and body.get_type_string() == "(us)":
                    notification_id, action = body.unpack()
                    self.signals.append({"name": member, "id": notification_id, "action": action})
                else:
                    return
                self.changed.notify_all()

    def all_signals(self):
        with self.lock:
            return [dict(s) for s in self.signals]

    def open_notifications(self):
        """Notify calls answered, newest first, without a later NotificationClosed for their id."""
        with self.lock:
            latest = {}
            for record in self.notifications:
                latest[record["id"]] = record
            return sorted((dict(r) for r in latest.values() if r["closed"] is None), key=lambda r: -r["time"])

    def notification(self, notification_id):
        with self.lock:
            for record in reversed(self.notifications):
                if record["id"] == notification_id:
                    return dict(record)
        return None

    def wait_for_signal(self, predicate, start, deadline):
        with self.lock:
            while True:
                for entry in self.signals[start:]:
                    if predicate(entry):
                        return dict(entry)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.changed.wait(remaining)

    def signal_count(self):
        with self.lock:
            return len(self.signals)

    def close(self):
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass


def describe_hints(hints):
    described = {}
    for key, value in hints.items():
        if key in ("image-data", "image_data", "icon_data"):
            described[key] = {"width": value[0], "height": value[1]} if isinstance(value, tuple) else True
        elif isinstance(value, (str, int, float, bool)):
            described[key] = value
        else:
            described[key] = repr(value)[:200]
    return described


def plain(text):
    """Markup reduced to what it reads as, for matching a label against the body a client sent."""
    text = re.sub(r"<br\s*/?>", "\n", text or "", flags=re.I)
    text = re.sub(r"<[^>]*>", "", text)
    for entity, character in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&")):
        text = text.replace(entity, character)
    return " ".join(text.split())


# AT-SPI, read through plain D-Bus calls (no libatspi cache to go stale)

A11Y_ROOT = "/org/a11y/atspi/accessible/root"
A11Y_ACCESSIBLE = "org.a11y.atspi.Accessible"
A11Y_COMPONENT = "org.a11y.atspi.Component"


class Accessibility:
    def __init__(self, address):
        self.connection = connect(address)

    def get(self, node, interface, name):
        bus_name, path = node
        return call(self.connection, bus_name, path, "org.freedesktop.DBus.Properties", "Get",
                    GLib.Variant("(ss)", (interface, name)), "(v)", timeout=2000)[0]

    def children(self, node):
        bus_name, path = node
        return [tuple(c) for c in call(self.connection, bus_name, path, A11Y_ACCESSIBLE, "GetChildren", None,
                                       "(a(so))", timeout=2000)[0]]

    def role(self, node):
        bus_name, path = node
        return call(self.connection, bus_name, path, A11Y_ACCESSIBLE, "GetRoleName", None, "(s)",
                    timeout=2000)[0]

    def extents(self, node):
        bus_name, path = node
        try:
            x, y, w, h = call(self.connection, bus_name, path, A11Y_COMPONENT, "GetExtents",
                              GLib.Variant("(u)", (0,)), "((iiii))", timeout=2000)[0]  # 0: screen coordinates
        except GLib.Error:
            return None
        return {"x": x, "y": y, "w": w, "h": h}

    def application(self, name):
        for node in self.children(("org.a11y.atspi.Registry", A11Y_ROOT)):
            try:
                if self.get(node, A11Y_ACCESSIBLE, "Name") == name:
                    return node
            except GLib.Error:
                continue
        return None

    def tree(self, node, depth=0):
        entry = {"node": node, "role": self.role(node), "name": self.get(node, A11Y_ACCESSIBLE, "Name"),
                 "extents": self.extents(node), "children": []}
        if depth < 40:
            entry["children"] = [self.tree(child, depth + 1) for child in self.children(node)]
        return entry

    def close(self):
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass


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


class Desktop:
    def __init__(self, directory):
        self.directory = directory
        self.children = Children(directory)
        self.recorder = None
        self.accessibility = None
        self.connection = None
        self.display = None
        self.address = None
        self.base_env = None

    def start(self):
        started = time.monotonic()
        deadline = started + START_DEADLINE
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
        self.base_env = {
            "PATH": PATH, "LANG": "C.UTF-8", "HOME": home, "DISPLAY": self.display,
            "DBUS_SESSION_BUS_ADDRESS": self.address, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config,
        }

        # lxqt-notificationd first, the accessibility bus after it: Qt 5.15 connects its AT-SPI bridge to a bus
        # that is already there in a race it loses (it registers before its a11y connection is up, and never
        # again), but connects properly to one that appears later (QDBusServiceWatcher on org.a11y.Bus).
        server_env = dict(self.base_env, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
        self.children.spawn(SERVER, [SERVER], server_env)
        wait_for_owner(self.connection, NOTIFICATIONS, deadline, self.children, SERVER)
        information = server_information(self.connection)

        a11y_env = dict(self.base_env, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
        self.children.spawn("at-spi-bus-launcher",
                            ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately", "--a11y=1"], a11y_env)
        wait_for_owner(self.connection, "org.a11y.Bus", deadline, self.children, "at-spi-bus-launcher")
        a11y_address = call(self.connection, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                            "(s)", timeout=10000)[0]
        self.accessibility = Accessibility(a11y_address)
        call(self.accessibility.connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
             "StartServiceByName", GLib.Variant("(su)", ("org.a11y.atspi.Registry", 0)), "(u)", timeout=10000)
        while self.accessibility.application(SERVER) is None:
            self.children.check_alive(SERVER)
            if time.monotonic() > deadline:
                raise StartError(f"{SERVER} did not register with the AT-SPI registry")
            time.sleep(0.05)
        return {
            "ready": True,
            "env": {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": self.display},
            "user": "root",
            "server": information,
            "seconds_to_start": round(time.monotonic() - started, 3),
        }

    # Reading the screen

    def popups(self):
        application = self.accessibility.application(SERVER)
        if application is None:
            raise CommandError(f"{SERVER} is not in the AT-SPI registry")
        return [describe_popup(p) for p in popups_in(self.accessibility.tree(application))]

    def window_popups(self):
        """Mapped top-level windows of the server (xwininfo), its NotificationArea: the fallback when AT-SPI
        cannot be read."""
        result = self.run(["xwininfo", "-root", "-children"])
        found = []
        for line in result.stdout.splitlines():
            match = re.match(r'\s*(0x[0-9a-f]+) "lxqt-notificationd": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)', line)
            if not match:
                continue
            info = self.run(["xwininfo", "-id", match.group(1)]).stdout
            if "IsViewable" in info and int(match.group(2)) > 1:
                found.append({"x": int(match.group(4)), "y": int(match.group(5)), "w": int(match.group(2)),
                              "h": int(match.group(3))})
        return found

    def notifications(self):
        popups = self.popups()
        candidates = self.recorder.open_notifications()
        listed = []
        for popup in popups:
            match = None
            for record in candidates:
                if plain(record["summary"]) == plain(popup["summary"]) and \
                        plain(record["body"]) == plain(popup["body"]):
                    match = record
                    break
            if match is not None:
                candidates.remove(match)
            labels = {a["label"]: a["id"] for a in (match or {}).get("actions", [])}
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

    def popup_for(self, notification_id):
        record = self.recorder.notification(notification_id)
        if record is None:
            raise CommandError(f"no Notify call was answered with id {notification_id}")
        for popup in self.popups():
            if plain(record["summary"]) == plain(popup["summary"]) and plain(record["body"]) == plain(popup["body"]):
                return record, popup
        raise CommandError(f"notification {notification_id} ({record['summary']!r}) is not on screen")

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

    def press(self, notification_id, action):
        record, popup = self.popup_for(notification_id)
        label = next((a["label"] for a in record["actions"] if a["id"] == action), None)
        if label is None:
            raise CommandError(f"notification {notification_id} has no action {action!r}")
        button = next((b for b in popup["buttons"] if b["label"] == label and "role" not in b), None)
        if button is None:
            raise CommandError(f"no button {label!r} on screen; buttons: {[b['label'] for b in popup['buttons']]}")
        start = self.recorder.signal_count()
        extents = button["extents"]
        self.click_at(extents["x"] + extents["w"] // 2, extents["y"] + extents["h"] // 2)
        self.park_pointer()
        invoked = self.recorder.wait_for_signal(
            lambda s: s["name"] == "ActionInvoked" and s["id"] == notification_id,
            start, time.monotonic() + PRESS_DEADLINE)
        if invoked is None:
            raise CommandError(f"clicked {label!r} but no ActionInvoked for {notification_id} within "
                               f"{PRESS_DEADLINE} s")
        time.sleep(0.3)
        return {"signals": self.recorder.all_signals()[start:]}

    def click(self, notification_id):
        _, popup = self.popup_for(notification_id)
        target = popup["body_extents"] or popup["summary_extents"] or popup["extents"]
        start = self.recorder.signal_count()
        self.click_at(target["x"] + target["w"] // 2, target["y"] + target["h"] // 2)
        self.park_pointer()
        time.sleep(1)
        return {"signals": self.recorder.all_signals()[start:]}

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

    def handle(self, command):
        name = command.get("cmd")
        if name == "notifications":
            try:
                return {"notifications": self.notifications()}
            except (GLib.Error, CommandError) as error:
                return {"ok": False, "error": f"AT-SPI unreadable: {error}", "popups": self.window_popups()}
        if name == "signals":
            return {"signals": self.recorder.all_signals()}
        if name == "tree":  # debugging: the server's whole accessible tree
            def strip(entry):
                return {"role": entry["role"], "name": entry["name"], "extents": entry["extents"],
                        "children": [strip(c) for c in entry["children"]]}
            return {"tree": strip(self.accessibility.tree(self.accessibility.application(SERVER)))}
        if name == "expire":
            return self.expire()
        if name == "press":
            return self.press(int(command["id"]), str(command["action"]))
        if name == "click":
            return self.click(int(command["id"]))
        if name == "screenshot":
            return self.screenshot(str(command["path"]))
        raise CommandError(f"unknown command {name!r}")

    def stop(self):
        for resource in (self.accessibility, self.recorder):
            if resource is not None:
                resource.close()
        if self.connection is not None:
            try:
                self.connection.close_sync(None)
            except GLib.Error:
                pass
        self.children.stop_all()


def answer(payload):
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def serve(make_desktop, description):
    """The command line shared with desktop_swaync.py: --dir, the ready line, the command loop, and stopping
    everything on quit, EOF, SIGTERM or SIGINT."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--dir", required=True)
    directory = os.path.abspath(parser.parse_args().dir)

    def terminate(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if not os.path.isdir(directory) or os.listdir(directory):
        answer({"ready": False, "error": f"{directory} is not an existing empty directory", "log": ""})
        return 1
    desktop = make_desktop(directory)
    try:
        try:
            ready = desktop.start()
        except (StartError, GLib.Error, OSError, subprocess.SubprocessError) as error:
            log = desktop.children.logs()
            desktop.stop()
            answer({"ready": False, "error": str(error), "log": log})
            return 1
        answer(ready)
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                command = json.loads(line)
                if not isinstance(command, dict):
                    raise CommandError("a command is a JSON object")
                if command.get("cmd") == "quit":
                    break
                reply = desktop.handle(command)
                reply.setdefault("ok", True)
            except (CommandError, GLib.Error, OSError, ValueError, KeyError, TypeError,
                    subprocess.SubprocessError) as error:
                reply = {"ok": False, "error": str(error)}
            answer(reply)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the clean-up short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        desktop.stop()
    answer({"ok": True})
    return 0


def main():
    return serve(Desktop, __doc__.split("\n")[0])


if __name__ == "__main__":
    sys.exit(main())
