"""What the desktop harnesses of Tests/Support share; not a script of its own.

desktop_gnome.py, desktop_plasma.py, desktop_lxqt.py, desktop_swaync.py, desktop_gtk.py (xfce4-notifyd,
notification-daemon), desktop_mako.py and desktop_dunst.py each start a real notification server on a private
session bus inside their --dir and answer JSON commands on stdin. They come in two families:
  - GNOME and Plasma speak dbus-python on a GLib main loop. `Harness` keeps every child in one process group marked
    in its environment, starts the buses, waits, monitors the bus and answers the commands; `run_harness` is their
    main().
  - The others speak Gio from plain blocking code and read their popups over AT-SPI (LXQt, swaync, the GTK servers)
    or from the server and the screen (mako, dunst); desktop_gtk.py and desktop_dunst.py extend desktop_lxqt.py's
    X11 desktop, desktop_mako.py extends desktop_swaync.py's sway. `Children` keeps every
    child in a session of its own; `start_bus`, `BusRecorder`, `Accessibility` and `AtspiDesktop` are the half of
    their desktops that is the same; `serve` is their main().
Each script puts its own directory first in sys.path and sets sys.dont_write_bytecode before importing this module,
so that it runs from any working directory and leaves no __pycache__ in the checkout.
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

try:
    import dbus
    import dbus.bus
    import dbus.lowlevel
    import dbus.mainloop.glib
except ImportError:  # the LXQt and swaync harnesses use Gio only, and need no python3-dbus
    dbus = None

NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
MARKER = "W8TRACKR_DESKTOP_HARNESS"
PATH = "/usr/sbin:/usr/bin:/sbin:/bin"  # never /usr/local: a w8 installed there is not the one under test
PRESS_DEADLINE = 5


def bus_configuration(socket_path, service_directory, users=()):
    """A session bus config: listens on socket_path, activates only what service_directory holds, lets any
    connection eavesdrop (a monitor records the signals) and admits the users named besides its own."""
    allow_users = "".join(f'<allow user="{user}"/>' for user in users)
    return (
        '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
        ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
        f"<busconfig><type>session</type><listen>unix:path={socket_path}</listen><auth>EXTERNAL</auth>"
        f"<servicedir>{service_directory}</servicedir>"
        f'<policy context="default">{allow_users}<allow send_destination="*" eavesdrop="true"/>'
        '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>\n')


def plain(text):
    """Markup reduced to what it reads as, for matching a label against the body a client sent."""
    text = re.sub(r"<br\s*/?>", "\n", text or "", flags=re.I)
    text = re.sub(r"<[^>]*>", "", text)
    for entity, character in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&")):
        text = text.replace(entity, character)
    return " ".join(text.split())


# GNOME and Plasma: dbus-python on a GLib main loop


def emit(value):
    """Writes one JSON line to stdout; a reader that has gone away is no error (the harness is stopping)."""
    try:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass


def signal_record(message, args):
    """An ActionInvoked or NotificationClosed signal (with its arguments args) as a record for the "signals" answer,
    or None for any other message."""
    if message.get_interface() != NOTIFICATIONS:
        return None
    if message.get_member() == "ActionInvoked" and len(args) == 2:
        return {"name": "ActionInvoked", "id": int(args[0]), "action": str(args[1])}
    if message.get_member() == "NotificationClosed" and len(args) == 2:
        return {"name": "NotificationClosed", "id": int(args[0]), "reason": int(args[1])}
    return None


class Harness:
    """The plumbing of a desktop run on a GLib main loop: children in one process group that carry MARKER in their
    environment, the private buses in DIR, waiting, the bus monitor and the command loop. A subclass gives
    desktop_env(), start(), command() and on_signal()."""

    STOP_GRACE = ((signal.SIGTERM, 3.0), (signal.SIGKILL, 2.0))  # each signal, then how long the children get
    LOG_LINES = 40  # of each log in the "log" of a failed start
    # Besides dbus.DBusException: what means "not yet" to wait_for, what fails the start, what fails a command
    # (answered with "ok": false rather than ending the script).
    WAIT_ERRORS = (OSError,)
    START_ERRORS = (RuntimeError, OSError)
    COMMAND_ERRORS = (ValueError, KeyError, TypeError, AttributeError)

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
        self.screenshots = 0
        self.loop = GLib.MainLoop()
        self.stopped = False

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    # Processes

    def base_env(self):
        """The environment of every child: HOME and the XDG directories in DIR, the marker, and desktop_env()."""
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
        })
        env.update(self.desktop_env())
        return env

    def desktop_env(self):
        """What the desktop adds to base_env()."""
        return {}

    def spawn(self, name, argv, env, pass_fds=()):
        """Starts a child in the harness's process group (the first child leads it), logging to DIR/NAME.log."""
        log = self.path(f"{name}.log")
        self.logs.append(log)
        with open(log, "ab") as out:
            kwargs = {"process_group": 0} if self.pgid is None else {"process_group": self.pgid}
            child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                     env=env, cwd=self.dir, pass_fds=pass_fds, **kwargs)
        if self.pgid is None:
            self.pgid = child.pid
        self.children.append((name, child))
        return child

    def marked_pids(self):
        """Every other process that carries this harness's marker: what the bus or the desktop started, which may
        have left the process group."""
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

    def before_stop(self):
        """Lets go of what must not outlive the children (called once, before they are signalled)."""

    def stop(self):
        """Signals the process group and every marked process, SIGTERM then SIGKILL, until none is left."""
        if self.stopped:
            return
        self.stopped = True
        self.before_stop()
        for sig, wait in self.STOP_GRACE:
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

    def log_tail(self):
        """The last LOG_LINES lines of every child's log."""
        tail = []
        for log in self.logs:
            try:
                with open(log, errors="replace") as file:
                    content = file.read().splitlines()[-self.LOG_LINES:]
            except OSError:
                continue
            tail.append(f"== {os.path.basename(log)}")
            tail.extend(content)
        return "\n".join(tail)

    # Start

    def write_session(self, extra_dirs, services, only_installed=False):
        """Makes HOME, the XDG directories, extra_dirs and XDG_RUNTIME_DIR (0700) in DIR, copies the named .service
        files into the session bus's only service directory (only_installed: skips those not installed) and writes
        the session bus config."""
        for sub in ("home", "config", "data", "cache", "state", "services") + tuple(extra_dirs):
            os.makedirs(self.path(sub), mode=0o700, exist_ok=True)
        os.makedirs(self.path("run"), mode=0o700, exist_ok=True)
        os.chmod(self.path("run"), 0o700)
        for service in services:
            source = os.path.join("/usr/share/dbus-1/services", service)
            if os.path.exists(source) or not only_installed:
                shutil.copy(source, self.path("services", service))
        with open(self.path("session.conf"), "w") as file:
            file.write(bus_configuration(self.path("session.sock"), self.path("services")))

    def start_buses(self, env, deadline, *kinds):
        """A dbus-daemon per kind ("system", "session") with the config DIR/KIND.conf; returns once each listens on
        DIR/KIND.sock."""
        for kind in kinds:
            self.spawn(f"{kind}-bus", ["dbus-daemon", "--nofork", "--nopidfile",
                                       f"--config-file={self.path(kind + '.conf')}"], env)
        for kind in kinds:
            sock = self.path(f"{kind}.sock")
            self.wait_for(f"the {kind} bus", lambda: self.socket_ready(sock), deadline)

    def check_children(self, what):
        for name, child in self.children:
            if child.poll() is not None:
                raise RuntimeError(f"{name} exited with {child.returncode} while waiting for {what}")

    def wait_for(self, what, predicate, deadline, interval=0.1):
        """predicate()'s first true result, pumping the main loop in between; fails when a child exits or at
        deadline."""
        while True:
            self.check_children(what)
            try:
                result = predicate()
            except (dbus.DBusException,) + self.WAIT_ERRORS:
                result = None
            if result:
                return result
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            self.pump(interval)

    def pump(self, seconds):
        """Runs the main loop's pending work for the given time (the bus monitor's messages arrive through it)."""
        end = time.monotonic() + seconds
        context = GLib.MainContext.default()
        while True:
            while context.pending():
                context.iteration(False)
            if time.monotonic() >= end:
                return
            time.sleep(0.02)

    def socket_ready(self, path):
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(path)
        return True

    def name_owner(self, name):
        if not self.bus.name_has_owner(name):
            return None
        owner = str(self.bus.get_name_owner(name))
        if name == NOTIFICATIONS:
            self.notifications_owner = owner
        return owner

    def server_info(self):
        """GetServerInformation and GetCapabilities, for the ready line."""
        proxy = self.bus.get_object(NOTIFICATIONS, NOTIFICATIONS_PATH)
        interface = dbus.Interface(proxy, NOTIFICATIONS)
        name, vendor, version, spec = interface.GetServerInformation()
        capabilities = [str(c) for c in interface.GetCapabilities()]
        return {"name": str(name), "vendor": str(vendor), "version": str(version), "spec_version": str(spec),
                "capabilities": capabilities}

    # Signals

    def start_monitor(self, address, *rules):
        """A monitor connection (BecomeMonitor) that sees the server's signals, broadcast or unicast, the changes
        of owner of org.freedesktop.Notifications and what else rules match; on_message gets each message."""
        self.monitor = dbus.bus.BusConnection(address, mainloop=dbus.mainloop.glib.DBusGMainLoop())
        rules = [f"type='signal',interface='{NOTIFICATIONS}'",
                 "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',"
                 f"arg0='{NOTIFICATIONS}'"] + list(rules)
        self.monitor.add_message_filter(self.on_message)
        self.monitor.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                   "org.freedesktop.DBus.Monitoring", "BecomeMonitor", "asu", (rules, 0))

    def on_message(self, _connection, message):
        """Follows the owner of org.freedesktop.Notifications and hands its signals' records to on_signal."""
        if not isinstance(message, dbus.lowlevel.SignalMessage):
            return
        args = message.get_args_list()
        if message.get_member() == "NameOwnerChanged" and args and str(args[0]) == NOTIFICATIONS:
            self.notifications_owner = str(args[2]) or None
            self.on_owner(str(args[2]))
            return
        record = signal_record(message, args)
        if record is not None:
            self.on_signal(message, record)

    def on_owner(self, owner):
        """org.freedesktop.Notifications got a new owner ("" when it lost its owner)."""

    def from_server(self, message):
        """Whether the owner of org.freedesktop.Notifications sent message."""
        return bool(self.notifications_owner) and message.get_sender() == self.notifications_owner

    def on_signal(self, message, record):
        """A signal the monitor saw, as signal_record made it."""

    # Commands

    def command(self, request):
        raise ValueError(f"unknown cmd {request.get('cmd')!r}")

    def on_stdin(self, channel, condition):
        if condition & GLib.IO_IN:
            line = channel.readline()
            if line:
                self.answer(line)
                return not self.stopped
        self.quit()
        return False

    def answer(self, line):
        """Answers one command line with one JSON line; quit stops everything and answers once stopped."""
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
        except (dbus.DBusException,) + self.COMMAND_ERRORS as error:
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        emit(reply)

    def quit(self, reply=True):
        already = self.stopped
        self.stop()
        if reply and not already:
            emit({"ok": True})
        self.loop.quit()
        return False


def run_harness(options, make_harness):
    """main() of desktop_gnome.py and desktop_plasma.py: starts make_harness(options) in options.dir, prints the
    ready line, then answers the commands on stdin until quit, EOF, SIGTERM or SIGINT; returns the exit status."""
    if not os.path.isdir(options.dir):
        emit({"ready": False, "error": f"{options.dir} is not a directory", "log": ""})
        return 1
    os.umask(0o077)
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    harness = make_harness(options)

    def on_signal(signum, _frame):
        harness.stop()
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        ready = harness.start()
    except (dbus.DBusException,) + harness.START_ERRORS as error:
        harness.stop()
        emit({"ready": False, "error": str(error), "log": harness.log_tail()})
        return 1
    emit(ready)
    channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, harness.on_stdin)
    # Once the loop runs, a signal stops it from inside the loop rather than from a Python signal handler.
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, harness.quit, False)
    try:
        harness.loop.run()
    finally:
        harness.stop()
    return 0


# LXQt and swaync: Gio from plain blocking code, popups read over AT-SPI


class StartError(Exception):
    """The desktop did not come up: the ready line says "ready": false."""


class CommandError(Exception):
    """A command failed: its answer says "ok": false."""


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
    """A Gio connection to the bus at address."""
    return Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)


def call(connection, destination, path, interface, method, parameters=None, reply=None, timeout=5000):
    """A blocking method call that never starts a service; its reply unpacked (None without one)."""
    result = connection.call_sync(
        destination, path, interface, method, parameters,
        GLib.VariantType.new(reply) if reply else None, Gio.DBusCallFlags.NO_AUTO_START, timeout, None)
    return result.unpack() if result is not None else None


def close_quietly(connection):
    """Closes a Gio connection; one that is closed already is no error."""
    try:
        connection.close_sync(None)
    except GLib.Error:
        pass


def has_owner(connection, name):
    """Whether name has an owner on the bus."""
    return call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", GLib.Variant("(s)", (name,)), "(b)")[0]


def wait_for_owner(connection, name, deadline, children, watched):
    """Returns once name has an owner; fails at deadline or when the child named watched has exited."""
    while not has_owner(connection, name):
        children.check_alive(watched)
        if time.monotonic() > deadline:
            raise StartError(f"no owner for {name}")
        time.sleep(0.02)


def server_information(connection):
    """GetServerInformation and GetCapabilities, for the ready line."""
    name, vendor, version, spec = call(connection, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS,
                                       "GetServerInformation", None, "(ssss)")
    capabilities = call(connection, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS, "GetCapabilities", None,
                        "(as)")[0]
    return {"name": name, "vendor": vendor, "version": version, "spec_version": spec,
            "capabilities": list(capabilities)}


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
        close_quietly(self.connection)


def describe_hints(hints):
    """A Notify call's hints as JSON can hold them: an image as its size, anything unusual as its repr."""
    described = {}
    for key, value in hints.items():
        if key in ("image-data", "image_data", "icon_data"):
            described[key] = {"width": value[0], "height": value[1]} if isinstance(value, tuple) else True
        elif isinstance(value, (str, int, float, bool)):
            described[key] = value
        else:
            described[key] = repr(value)[:200]
    return described


# AT-SPI, read through plain D-Bus calls (no libatspi cache to go stale)

A11Y_ROOT = "/org/a11y/atspi/accessible/root"
A11Y_ACCESSIBLE = "org.a11y.atspi.Accessible"
A11Y_COMPONENT = "org.a11y.atspi.Component"


class Accessibility:
    """A connection to the AT-SPI accessibility bus; a node is (bus name, object path)."""

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
        """node and its descendants: {"node", "role", "name", "extents", "children"}. A descendant that goes away
        while the tree is read (a popup closing: UnknownObject) is left out, as it is no longer on the screen."""
        entry = {"node": node, "role": self.role(node), "name": self.get(node, A11Y_ACCESSIBLE, "Name"),
                 "extents": self.extents(node), "children": []}
        if depth < 40:
            for child in self.children(node):
                try:
                    entry["children"].append(self.tree(child, depth + 1))
                except GLib.Error as error:
                    if "UnknownObject" not in str(error):
                        raise
        return entry

    def close(self):
        close_quietly(self.connection)


def strip(entry):
    """An accessible tree without its D-Bus node names, for the "tree" command."""
    return {"role": entry["role"], "name": entry["name"], "extents": entry["extents"],
            "children": [strip(c) for c in entry["children"]]}


def wait_until(predicate, seconds, what):
    """Polls predicate() every 0.1 s until it is true; answers how long that took, or fails after seconds."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > seconds:
            raise CommandError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.1)
    return {"waited": round(time.monotonic() - started, 1)}


IMAGE_DIFFERENCE = 40  # image_difference over this: the slot shows another picture than the app icon


def image_difference(slot, icon, screen):
    """How far the picture in a popup's icon slot (extents on the screen) is from the app icon (a file path) scaled
    to fit the slot and centred in it, as the servers that draw image-path or image-data in place of the icon scale
    either: the mean difference per channel (0-255) over the icon's opaque pixels, in screen (a GdkPixbuf
    screenshot). None when there is no slot or no icon file to compare with. A server showing the app icon reads
    under 10; one showing w8's chart, over 100."""
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf
    if slot is None or screen is None or not icon.startswith("/") or not os.path.exists(icon):
        return None
    reference = GdkPixbuf.Pixbuf.new_from_file_at_scale(icon, slot["w"], slot["h"], True)
    left = slot["x"] + (slot["w"] - reference.get_width()) // 2
    top = slot["y"] + (slot["h"] - reference.get_height()) // 2
    if left < 0 or top < 0 or left + reference.get_width() > screen.get_width() or \
            top + reference.get_height() > screen.get_height():
        return None
    shot = screen.new_subpixbuf(left, top, reference.get_width(), reference.get_height())
    ours, theirs = reference.get_pixels(), shot.get_pixels()
    ours_channels, theirs_channels = reference.get_n_channels(), shot.get_n_channels()
    total = count = 0
    for y in range(reference.get_height()):
        for x in range(reference.get_width()):
            a = y * reference.get_rowstride() + x * ours_channels
            b = y * shot.get_rowstride() + x * theirs_channels
            if ours_channels == 4 and ours[a + 3] < 128:
                continue  # transparent in the icon: the popup's background shows through
            total += sum(abs(ours[a + i] - theirs[b + i]) for i in range(3)) / 3
            count += 1
    return round(total / count, 1) if count else None


class AtspiDesktop:
    """The half of a desktop that LXQt and swaync share: the children, the private bus with its monitor (which names
    each popup after the Notify call it answered), the AT-SPI bus that shows the server's widgets, pressing a
    button and clicking a popup. A subclass sets SERVER and USER and gives start(), popups(), matches(),
    click_center(), click_target(), expire(), screenshot(), answer_notifications() and tree()."""

    SERVER = None  # the server's name in the AT-SPI registry, and its log
    USER = "root"  # who runs the server, and must run the clients

    def __init__(self, directory):
        self.directory = directory
        self.children = Children(directory)
        self.recorder = None
        self.accessibility = None
        self.connection = None
        self.address = None
        self.base_env = None

    def start_accessibility(self, deadline, user=None):
        """Starts the AT-SPI accessibility bus and its registry (user runs them), and connects to that bus."""
        a11y_env = dict(self.base_env, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
        self.children.spawn("at-spi-bus-launcher",
                            ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately", "--a11y=1"], a11y_env,
                            user=user)
        wait_for_owner(self.connection, "org.a11y.Bus", deadline, self.children, "at-spi-bus-launcher")
        a11y_address = call(self.connection, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                            "(s)", timeout=10000)[0]
        self.accessibility = Accessibility(a11y_address)
        call(self.accessibility.connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
             "StartServiceByName", GLib.Variant("(su)", ("org.a11y.atspi.Registry", 0)), "(u)", timeout=10000)

    def ready_line(self, env, information, started, deadline):
        """The ready line, once the server is in the AT-SPI registry (its widgets can be read)."""
        while self.accessibility.application(self.SERVER) is None:
            self.children.check_alive(self.SERVER)
            if time.monotonic() > deadline:
                raise StartError(f"{self.SERVER} did not register with the AT-SPI registry")
            time.sleep(0.05)
        return {
            "ready": True,
            "env": env,
            "user": self.USER,
            "server": information,
            "seconds_to_start": round(time.monotonic() - started, 3),
        }

    # Reading the screen

    def popup_for(self, notification_id):
        """The Notify call answered with notification_id and its popup on screen."""
        record = self.recorder.notification(notification_id)
        if record is None:
            raise CommandError(f"no Notify call was answered with id {notification_id}")
        for popup in self.popups():
            if self.matches(record, popup):
                return record, popup
        raise CommandError(f"notification {notification_id} ({record['summary']!r}) is not on screen")

    # Acting as a person

    def press(self, notification_id, action):
        """Clicks the button of action on the notification's popup; answers the signals that followed."""
        record, popup = self.popup_for(notification_id)
        label = next((a["label"] for a in record["actions"] if a["id"] == action), None)
        if label is None:
            raise CommandError(f"notification {notification_id} has no action {action!r}")
        # A button with a "role" is an entry of LXQt's combo box of actions, not a button.
        button = next((b for b in popup["buttons"] if b["label"] == label and "role" not in b), None)
        if button is None:
            raise CommandError(f"no button {label!r} on screen; buttons: {[b['label'] for b in popup['buttons']]}")
        return self.invoke(notification_id, f"clicked {label!r}", lambda: self.click_center(button["extents"]),
                           settle=0.3)

    def invoke(self, notification_id, done, act, settle=0.0):
        """Does act() (a click on a button, a pick from the server's menu), then waits (at most PRESS_DEADLINE s) for
        the server's ActionInvoked for notification_id, and settle seconds more; answers the signals that followed.
        done says what act() did, for the error."""
        start = self.recorder.signal_count()
        act()
        invoked = self.recorder.wait_for_signal(
            lambda s: s["name"] == "ActionInvoked" and s["id"] == notification_id,
            start, time.monotonic() + PRESS_DEADLINE)
        if invoked is None:
            raise CommandError(f"{done} but no ActionInvoked for {notification_id} within {PRESS_DEADLINE} s")
        time.sleep(settle)
        return {"signals": self.recorder.all_signals()[start:]}

    def click(self, notification_id):
        """Clicks the notification's popup where a person would; answers the signals of the next second."""
        _, popup = self.popup_for(notification_id)
        return self.click_at_popup(self.click_target(popup))

    def click_at_popup(self, extents):
        """Clicks the middle of extents; answers the signals of the next second."""
        start = self.recorder.signal_count()
        self.click_center(extents)
        time.sleep(1)
        return {"signals": self.recorder.all_signals()[start:]}

    def handle(self, command):
        """Answers one command (a dict); "quit" is serve's."""
        name = command.get("cmd")
        if name == "notifications":
            return self.answer_notifications()
        if name == "signals":
            return {"signals": self.recorder.all_signals()}
        if name == "tree":  # debugging: the server's whole accessible tree
            return {"tree": self.tree()}
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
        """Closes the connections, then stops every child."""
        for resource in (self.accessibility, self.recorder):
            if resource is not None:
                resource.close()
        if self.connection is not None:
            close_quietly(self.connection)
        self.children.stop_all()


def answer(payload):
    """Writes one JSON line to stdout."""
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def serve(make_desktop, description):
    """main() of desktop_lxqt.py and desktop_swaync.py: --dir, the ready line, the command loop, and stopping
    everything on quit, EOF, SIGTERM or SIGINT."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--dir", required=True)
    directory = os.path.abspath(parser.parse_known_args()[0].dir)  # the script parses its own options

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
