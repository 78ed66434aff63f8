#!/usr/bin/python3
"""A real systemd user manager for tests, for a throwaway user, in a private mount and PID namespace.

    python3 Tests/Support/user_manager.py --dir DIR [--user NAME] [--lang L] [--language L] [--tz TZ]
                                          [--host-user-units] [--timeout 30]

Run it as root; PID 1 need not be systemd. DIR must be an existing, empty directory. The script makes DIR mode
0755, because the user must be able to traverse it. DIR's parents must already be o+x; if not, start fails.
It starts the following, all inside one new mount and PID namespace:
  * tmpfs mounts over /run/systemd (with system/ in it: systemd --user refuses to run without
    /run/systemd/system, and the host never sees it), /run/user (with /run/user/UID, 0700, owned by the user),
    /run/log, /etc/systemd/user and /usr/local. /etc/systemd/user hides the host's global user units (here mako,
    swaync and waybar wanted by graphical-session.target, pipewire by default.target), /usr/local what `make install`
    put there (w8's units, binary and icons); --host-user-units keeps both. XDG_CONFIG_DIRS is DIR/config-system
    (never /etc/xdg) and XDG_DATA_DIRS is /usr/share.
  * systemd-journald with Storage=volatile, for the manager's logs and those of every user unit.
  * /lib/systemd/systemd --user --log-target=journal, as the user, in cgroups it owns
    (/sys/fs/cgroup/{unified,systemd}/user.slice/user-UID.slice/user@UID.service, or /sys/fs/cgroup/user.slice/...
    on a pure cgroup v2 host), with dbus-user-session's socket-activated session bus at /run/user/UID/bus.
  * Xvfb, as the user, on a free display (-displayfd).
  * dunst as the transient user unit w8-test-dunst.service (Type=dbus), run with -config DIR/dunstrc. That file is
    Debian's dunstrc with two changes, stack_duplicates = false and history_length = 1000, so that identical
    notifications are counted one by one. It also adds a rule whose script records each notification's DUNST_*
    variables in DIR/notifications/, because the history of dunst 1.9 has no urgency.
The user is made with useradd: the name is w8um plus 5 random hex digits, the home is DIR/home, and the GECOS
field holds this script's PID. It is deleted at quit. With --user NAME, an existing user of that name is
reused and kept. At start, users left behind by a user_manager.py that was SIGKILLed are deleted, together with
their cgroups (such a user has no live script PID and no processes).

On success the script prints one JSON line:
    {"ready": true, "user", "uid", "gid", "home", "env": {...}, "holder_pid", "display", "seconds_to_start"}
"env" is the environment that a command started by "run" gets: HOME, USER, LOGNAME, SHELL, XDG_RUNTIME_DIR,
DBUS_SESSION_BUS_ADDRESS, DISPLAY, XDG_CONFIG_HOME, XDG_DATA_HOME, PATH, LANG, TZ, XDG_CONFIG_DIRS, XDG_DATA_DIRS,
and LANGUAGE if it was given.
The manager starts with the same variables minus DISPLAY, XDG_CONFIG_HOME and XDG_DATA_HOME; DISPLAY is then added
with set-environment. Its units inherit that environment, except PATH, which the manager replaces with its own.
To enter the namespace, use `nsenter -t HOLDER_PID -m -p`.
On failure it prints {"ready": false, "error": ..., "log": ...}, cleans up and exits 1.

After that it reads one JSON command per line on stdin. It answers each with one JSON line that holds "ok"
(and "error" when ok is false):
  {"cmd": "run", "argv": [...], "env": {...}, "timeout": 30, "cwd": HOME, "input": null}
        Runs argv as the user inside the namespace, with "env" above plus the extra variables (a null value
        unsets one) -> {"ok": true, "status": N, "stdout": ..., "stderr": ...}. status is the exit status, or
        -SIGNAL. On timeout the command is killed -> {"ok": false, "error": "timed out ...", "stdout", "stderr"}.
        argv[0] is NOT copied. A path must be readable and executable by the user, through directories it can
        traverse; copy the binary into DIR and chmod it 0755. If it isn't, the answer is ok false and names the
        path at fault. Note: systemd --user reads units from $HOME/.config/systemd/user whatever XDG_CONFIG_HOME
        a command is given.
  {"cmd": "journal", "unit": "w8trackr.service", "output": "short-precise"}
        -> {"ok": true, "lines": [...]}: the entries whose _SYSTEMD_USER_UNIT or USER_UNIT is the unit. These
        are the unit's own output and what the manager logged about it (Started, Finished, Failed...).
        Without "unit": every entry.
  {"cmd": "notifications", "clear": false}
        Runs `dunstctl close-all`, then `dunstctl history` -> {"ok": true, "notifications": [{"id", "summary",
        "body", "appname", "category", "urgency" ("LOW"/"NORMAL"/"CRITICAL"), "desktop_entry", "icon_path",
        "message", "timeout", "timestamp", ...}]}, oldest first. With "clear": true, later answers leave these out.
  {"cmd": "login"}
        Emulates a desktop login as gnome-session does. graphical-session.target refuses a manual start, so
        this starts w8-test-session.target (in /run/systemd/user), which has BindsTo=, Before= and PartOf=
        graphical-session.target, then waits until no job is left -> {"ok": true, "graphical_session": "active"}.
  {"cmd": "logout"}
        Stops w8-test-session.target. graphical-session.target (StopWhenUnneeded=yes) stops with it, and so do
        the units that are PartOf= it.
  {"cmd": "restart"}
        Emulates logging out of the last session and logging in again, without a graphical login: the manager
        exits, /run/user/UID is emptied, then the manager, DISPLAY and a new dunst start again. Xvfb and
        journald keep running, and the dunst history starts afresh.
  {"cmd": "ping"} -> {"ok": true}
  {"cmd": "quit"}, end of input, SIGTERM or SIGINT
        Runs `systemctl --user exit`, stops Xvfb and journald, and ends the namespace; when its init exits, the
        kernel kills every process left in it. Then it removes the cgroups it made, deletes the user if it made
        it, chowns DIR/home to root, answers {"ok": true} (not after a signal) and exits 0. Before the namespace
        ends, the whole journal is saved to DIR/logs/journal.log. The script only signals processes it started.
        If this script is SIGKILLed, the namespace still dies with it (its init reads a pipe from this script),
        but the user and the cgroups stay until the next start sweeps them away.
The logs of child processes are in DIR/logs.
"""
import argparse
import ctypes
import json
import os
import pwd
import secrets
import select
import shutil
import signal
import stat
import subprocess
import sys
import time

SYSTEMD = "/lib/systemd/systemd"
JOURNALD = "/lib/systemd/systemd-journald"
DUNST_UNIT = "w8-test-dunst.service"
SESSION_TARGET = "w8-test-session.target"
USER_PATH = "/usr/bin:/bin"  # never /usr/local: a w8 installed there is not the one under test
# Debian's dunstrc, committed (Tests/Fixtures/dunst/README.md says where it comes from).
DUNSTRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "dunst", "dunstrc")
COMMENT = "W8Trackr user_manager.py pid"  # the GECOS of a user this script made, then its PID

# The namespace's init (PID 1 of the new PID namespace): mounts, says so, then reaps orphans until its stdin, a
# pipe from this script, closes. When it exits, the kernel kills every other process in the namespace.
# mount(2) directly: mount(8) would create /run/mount (libmount's utab), which the host shares.
INIT = r"""
import ctypes, json, os, select, sys
libc = ctypes.CDLL(None, use_errno=True)
for target, options in json.loads(sys.argv[1]):
    if libc.mount(b"w8um", target.encode(), b"tmpfs", 6, options.encode()):  # MS_NOSUID | MS_NODEV
        sys.exit(f"mount tmpfs on {target}: {os.strerror(ctypes.get_errno())}")
os.makedirs("/run/systemd/system")
sys.stdout.write("mounted\n")
sys.stdout.flush()
os.close(1)
while True:
    if select.select([0], [], [], 0.2)[0] and not os.read(0, 64):
        sys.exit(0)
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
"""

SESSION_TARGET_TEXT = """\
# Made by W8Trackr's Tests/Support/user_manager.py: an emulated graphical login. Like gnome-session's
# gnome-session-x11@.target, it pulls in graphical-session.target, which refuses a manual start.
[Unit]
Description=W8Trackr tests: emulated graphical login
Wants=graphical-session-pre.target
After=graphical-session-pre.target
BindsTo=graphical-session.target
Before=graphical-session.target
PartOf=graphical-session.target
"""

JOURNALD_CONF = """\
[Journal]
Storage=volatile
ReadKMsg=no
ForwardToSyslog=no
ForwardToKMsg=no
ForwardToConsole=no
ForwardToWall=no
RateLimitIntervalSec=0
RuntimeMaxUse=64M
"""


class Failure(Exception):
    pass


class Stop(BaseException):
    """Raised by the SIGTERM/SIGINT handler."""


def set_pdeathsig():
    """Runs in the child before exec: die with this script."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def descendants(pid):
    out = []
    for child in children(pid):
        out.append(child)
        out.extend(descendants(child))
    return out


def cgroup_roots():
    """The cgroup hierarchies a user manager is tracked in: [(path, version)]."""
    mounts = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            point = left.split()[4]
            fstype, _source, options = right.split()[:3]
            mounts[point] = (fstype, options)
    if mounts.get("/sys/fs/cgroup", ("",))[0] == "cgroup2":
        return [("/sys/fs/cgroup", 2)]
    roots = []
    if mounts.get("/sys/fs/cgroup/unified", ("",))[0] == "cgroup2":
        roots.append(("/sys/fs/cgroup/unified", 2))
    fstype, options = mounts.get("/sys/fs/cgroup/systemd", ("", ""))
    if fstype == "cgroup" and "name=systemd" in options:
        roots.append(("/sys/fs/cgroup/systemd", 1))
    return roots


def tail(path, limit=4000):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


class Harness:
    def __init__(self, args):
        self.args = args
        self.dir = os.path.realpath(args.dir)
        self.logs = os.path.join(self.dir, "logs")
        self.home = os.path.join(self.dir, "home")
        self.records = os.path.join(self.dir, "notifications")
        self.cleared_up_to = 0  # the highest notification id a "clear" has hidden
        self.user = None
        self.created_user = False
        self.uid = self.gid = None
        self.holder = None  # the unshare process
        self.holder_pid = None  # the namespace's init, as the host sees it
        self.journald = self.manager = self.xvfb = None
        self.cgroups_made = []  # directories this script made, parents first
        self.display = None
        self.env = {}
        self.manager_env = {}
        self.log_files = []
        self.stopping = False
        self.made_logs = False

    # ---------------------------------------------------------------- helpers

    def logfile(self, name):
        f = open(os.path.join(self.logs, name), "ab")
        self.log_files.append(f)
        return f

    def note(self, text):
        with open(os.path.join(self.logs, "harness.log"), "a") as f:
            f.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    def ns(self):
        return ["nsenter", "-t", str(self.holder_pid), "-m", "-p", "--"]

    def in_ns(self, path):
        """A path inside the namespace, as seen from the host."""
        return f"/proc/{self.holder_pid}/root{path}"

    def as_user(self, argv, env, cwd=None):
        assignments = [f"{k}={v}" for k, v in env.items() if v is not None]
        return self.ns() + [
            "setpriv", "--reuid", str(self.uid), "--regid", str(self.gid), "--init-groups", "--",
            "env", "-i", "-C", cwd or self.home, "--", *assignments, *argv]

    def spawn(self, argv, log, **kw):
        self.note("spawn " + " ".join(argv))
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                close_fds=True, preexec_fn=set_pdeathsig, **kw)

    def user_cmd(self, argv, timeout=15, env=None):
        """Runs argv as the user; returns (status, stdout, stderr)."""
        e = dict(self.env)
        e.update(env or {})
        p = subprocess.run(self.as_user(argv, e), stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, preexec_fn=set_pdeathsig)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def root_cmd(self, argv, timeout=15):
        p = subprocess.run(self.ns() + argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                           preexec_fn=set_pdeathsig)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def inner(self, proc):
        """The process nsenter forked into the namespace (host PID), or None."""
        if proc is None or proc.poll() is not None:
            return None
        kids = children(proc.pid)
        return kids[0] if kids else None

    def until(self, deadline, what, check, interval=0.05):
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > deadline:
                raise Failure(f"timed out waiting for {what}")
            time.sleep(interval)

    # ---------------------------------------------------------------- start

    def check_traversable(self):
        path = self.dir
        while path != "/":
            path = os.path.dirname(path)
            mode = os.stat(path).st_mode
            if not mode & stat.S_IXOTH:
                raise Failure(f"{path} is not traversable by other users (mode {stat.filemode(mode)}); "
                              "the user manager's user needs o+x on every parent of --dir")

    def make_user(self):
        if self.args.user:
            try:
                pw = pwd.getpwnam(self.args.user)
                self.user, self.uid, self.gid = pw.pw_name, pw.pw_uid, pw.pw_gid
                return
            except KeyError:
                name = self.args.user
        else:
            name = "w8um" + secrets.token_hex(3)[:5]
        argv = ["useradd", "--no-create-home", "--home-dir", self.home, "--shell", "/bin/sh", "--user-group",
                "--comment", f"{COMMENT} {os.getpid()}", "-K", "SUB_UID_COUNT=0", "-K",
                "SUB_GID_COUNT=0", name]
        for attempt in range(40):
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if p.returncode == 0:
                break
            if "lock" not in p.stderr or attempt == 39:
                raise Failure(f"useradd failed ({p.returncode}): {p.stderr.strip()}")
            time.sleep(0.1 + 0.1 * secrets.randbelow(5))
        self.created_user = True
        pw = pwd.getpwnam(name)
        self.user, self.uid, self.gid = pw.pw_name, pw.pw_uid, pw.pw_gid
        self.note(f"created user {name} uid {self.uid}")

    def sweep_stale(self):
        """Deletes the users (and their empty cgroups) that a user_manager.py killed with SIGKILL left."""
        for pw in pwd.getpwall():
            if not pw.pw_gecos.startswith(COMMENT + " "):
                continue
            pid = pw.pw_gecos[len(COMMENT) + 1:]
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"user_manager.py" in f.read():
                        continue  # its script is alive
            except (OSError, ValueError):
                pass
            uid = pw.pw_uid
            if self.user_processes(uid):
                continue
            for root, _ in cgroup_roots():
                top = os.path.join(root, "user.slice", f"user-{uid}.slice")
                if os.path.isdir(top):
                    for d in [r for r, _, _ in os.walk(top, topdown=False)]:
                        try:
                            os.rmdir(d)
                        except OSError:
                            pass
                try:
                    os.rmdir(os.path.join(root, "user.slice"))  # only if empty
                except OSError:
                    pass
            for attempt in range(10):  # userdel refuses while zombies of the user are not reaped yet
                p = subprocess.run(["userdel", pw.pw_name], stdin=subprocess.DEVNULL, capture_output=True,
                                   text=True)
                if p.returncode != 8:
                    break
                time.sleep(0.2)
            if os.path.isdir(pw.pw_dir) and os.path.basename(pw.pw_dir) == "home":  # DIR/home of that run
                for root, dirs, files in os.walk(pw.pw_dir):
                    for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                        os.lchown(name, 0, 0)
            self.note(f"swept the stale user {pw.pw_name} (script pid {pid}): userdel {p.returncode} {p.stderr.strip()}")

    def start_holder(self, deadline):
        mounts = [("/run/systemd", "mode=0755"), ("/run/user", "mode=0755"), ("/run/log", "mode=0755")]
        if not self.args.host_user_units:
            mounts.append(("/etc/systemd/user", "mode=0755"))
            # What `make install` put under /usr/local (the units in lib/systemd/user, bin/w8, share/): the tests
            # pass on a machine where w8 is installed, and run only the w8 they name.
            if os.path.isdir("/usr/local"):
                mounts.append(("/usr/local", "mode=0755"))
        argv = ["unshare", "--mount", "--propagation", "private", "--pid", "--fork", "--kill-child",
                "--mount-proc", "--", "/usr/bin/python3", "-c", INIT, json.dumps(mounts)]
        self.note("spawn unshare ... " + json.dumps(mounts))
        self.holder = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=self.logfile("holder.log"), close_fds=True,
                                       preexec_fn=set_pdeathsig)
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.holder.stdout], [], [], left)[0]:
                raise Failure("timed out waiting for the namespace")
            chunk = os.read(self.holder.stdout.fileno(), 100)
            if not chunk:
                raise Failure(f"the namespace holder exited ({self.holder.wait()}): {tail(self.logs + '/holder.log')}")
            line += chunk
        self.holder.stdout.close()
        self.holder_pid = self.until(deadline, "the namespace's init", lambda: (children(self.holder.pid) or [0])[0])

    def setup_files(self):
        os.makedirs(self.home, mode=0o700, exist_ok=True)
        for sub in (".config", ".local", ".local/share"):
            os.makedirs(os.path.join(self.home, sub), exist_ok=True)
        for root, dirs, files in os.walk(self.home):
            for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                os.lchown(name, self.uid, self.gid)
        os.chmod(self.home, 0o700)

        runtime = self.in_ns(f"/run/user/{self.uid}")
        os.mkdir(runtime, 0o700)
        os.chown(runtime, self.uid, self.gid)
        os.chmod(runtime, 0o700)
        os.makedirs(self.in_ns("/run/systemd/journald.conf.d"))
        with open(self.in_ns("/run/systemd/journald.conf.d/w8-test.conf"), "w") as f:
            f.write(JOURNALD_CONF)
        os.makedirs(self.in_ns("/run/systemd/user"))
        with open(self.in_ns(f"/run/systemd/user/{SESSION_TARGET}"), "w") as f:
            f.write(SESSION_TARGET_TEXT)

        # Debian's dunstrc, committed (Tests/Fixtures/dunst/README.md): never the host's /etc/xdg.
        with open(DUNSTRC) as f:
            rc = f.read()
        rc = rc.replace("stack_duplicates = true", "stack_duplicates = false")
        rc = rc.replace("history_length = 20", "history_length = 1000")
        record = os.path.join(self.dir, "dunst-record.sh")
        with open(os.path.join(self.dir, "dunstrc"), "w") as f:
            f.write("# Debian's dunstrc (Tests/Fixtures/dunst/dunstrc); user_manager.py set stack_duplicates = false and "
                    "history_length = 1000,\n# and added the rule w8-test-record at the end.\n" + rc +
                    "\n# dunst 1.9's history has no urgency and no desktop-entry: a script records every "
                    "notification.\n[w8-test-record]\n    summary = \"*\"\n    script = " + record + "\n")
        os.chmod(os.path.join(self.dir, "dunstrc"), 0o644)
        with open(record, "w") as f:
            f.write(f"#!/bin/sh\n# Run by dunst for each notification: its DUNST_* variables, NUL-separated.\n"
                    f"f={self.records}/$DUNST_ID.$$\nenv -0 > $f.tmp && mv $f.tmp $f.env\n")
        os.chmod(record, 0o755)
        os.mkdir(self.records, 0o700)
        os.chown(self.records, self.uid, self.gid)

    def make_cgroups(self):
        for root, version in cgroup_roots():
            parts = ["user.slice", f"user-{self.uid}.slice", f"user@{self.uid}.service"]
            for attempt in range(50):
                path = root
                try:
                    for i, part in enumerate(parts):
                        path = os.path.join(path, part)
                        try:
                            os.mkdir(path)
                            self.cgroups_made.append(path)
                        except FileExistsError:
                            if i == len(parts) - 1:
                                raise Failure(f"{path} exists already: another manager for uid {self.uid}?")
                    break
                except FileNotFoundError:  # another instance removed the empty user.slice meanwhile
                    if attempt == 49:
                        raise
                    time.sleep(0.02)
            files = ["cgroup.procs", "cgroup.subtree_control", "cgroup.threads"] if version == 2 else \
                ["cgroup.procs", "tasks", "cgroup.clone_children", "notify_on_release"]
            os.chown(path, self.uid, self.gid)
            for name in files:
                if os.path.exists(os.path.join(path, name)):
                    os.chown(os.path.join(path, name), self.uid, self.gid)
            self.note(f"cgroup {path}")

    def start_journald(self, deadline):
        self.journald = self.spawn(self.ns() + [JOURNALD], self.logfile("journald.log"))
        for sock in ("socket", "stdout"):
            self.until(deadline, "journald's sockets", lambda: os.path.exists(self.in_ns("/run/systemd/journal/" + sock))
                       or self.journald.poll() is not None)
        if self.journald.poll() is not None:
            raise Failure(f"systemd-journald exited with {self.journald.returncode}")

    def make_env(self):
        runtime = f"/run/user/{self.uid}"
        self.manager_env = {
            "HOME": self.home, "USER": self.user, "LOGNAME": self.user, "SHELL": "/bin/sh",
            "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": f"unix:path={runtime}/bus",
            "PATH": USER_PATH, "LANG": self.args.lang, "TZ": self.args.tz,
            # Not the host's /etc/xdg (its systemd/user units, autostart): an empty directory of this run. The
            # data directories are Debian's /usr/share alone, named here (dbus-user-session's bus reads its service
            # files there); /usr/local is hidden.
            "XDG_CONFIG_DIRS": os.path.join(self.dir, "config-system"), "XDG_DATA_DIRS": "/usr/share",
        }
        if self.args.language:
            self.manager_env["LANGUAGE"] = self.args.language
        self.env = dict(self.manager_env)
        self.env.update({"XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
                         "XDG_DATA_HOME": os.path.join(self.home, ".local/share")})

    def start_manager(self, deadline):
        # sh moves itself into the user's cgroups, then becomes the manager.
        script = 'for p in "$@"; do [ "$p" = -- ] && break; echo $$ > "$p"; shift; done; shift; exec "$@"'
        procs = [os.path.join(p, "cgroup.procs") for p in self.cgroups_made if p.endswith(f"user@{self.uid}.service")]
        user_argv = self.as_user([SYSTEMD, "--user", "--log-target=journal"], self.manager_env)[len(self.ns()):]
        self.manager = self.spawn(self.ns() + ["/bin/sh", "-c", script, "sh", *procs, "--", *user_argv],
                                  self.logfile("manager.log"))

        def running():
            if self.manager.poll() is not None:
                raise Failure(f"systemd --user exited with {self.manager.returncode}")
            status, out, _ = self.user_cmd(["systemctl", "--user", "is-system-running"], timeout=5)
            return out.strip() in ("running", "degraded")
        self.until(deadline, "systemd --user to finish starting", running, interval=0.05)

    def start_xvfb(self, deadline):
        r, w = os.pipe()
        argv = self.as_user(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                            {"HOME": self.home, "PATH": USER_PATH})
        self.note("spawn " + " ".join(argv))
        self.xvfb = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.logfile("xvfb.log"),
                                     stderr=subprocess.STDOUT, pass_fds=(w,), preexec_fn=set_pdeathsig)
        os.close(w)
        data = b""
        try:
            while not data.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([r], [], [], left)[0]:
                    raise Failure("timed out waiting for Xvfb's display number")
                chunk = os.read(r, 32)
                if not chunk:
                    raise Failure(f"Xvfb exited ({self.xvfb.wait()}): {tail(self.logs + '/xvfb.log')}")
                data += chunk
        finally:
            os.close(r)
        self.display = ":" + data.decode().strip()
        self.env["DISPLAY"] = self.display

    def start_dunst(self, deadline):
        status, out, err = self.user_cmd(["systemctl", "--user", "set-environment", "DISPLAY=" + self.display])
        if status:
            raise Failure(f"systemctl --user set-environment failed: {err}")
        status, out, err = self.user_cmd(
            ["systemd-run", "--user", "--unit=" + DUNST_UNIT, "-p", "Type=dbus",
             "-p", "BusName=org.freedesktop.Notifications", "-E", "DISPLAY=" + self.display,
             "/usr/bin/dunst", "-config", os.path.join(self.dir, "dunstrc")],
            timeout=max(1, deadline - time.monotonic()))
        if status:
            raise Failure(f"systemd-run dunst failed ({status}): {out}{err}")

        def owned():
            s, o, e = self.user_cmd(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                     "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                     "string:org.freedesktop.Notifications"], timeout=5)
            return "boolean true" in o
        self.until(deadline, "dunst to own org.freedesktop.Notifications", owned)

    def start(self):
        t0 = time.monotonic()
        deadline = t0 + self.args.timeout
        if os.geteuid() != 0:
            raise Failure("must run as root")
        if not os.path.isdir(self.dir):
            raise Failure(f"--dir {self.dir} is not a directory")
        if os.listdir(self.dir):
            raise Failure(f"--dir {self.dir} is not empty")
        self.check_traversable()
        os.chmod(self.dir, 0o755)
        os.makedirs(self.logs)
        self.made_logs = True
        self.sweep_stale()
        self.make_user()
        self.start_holder(deadline)
        self.setup_files()
        self.make_cgroups()
        self.start_journald(deadline)
        self.make_env()
        self.start_manager(deadline)
        self.start_xvfb(deadline)
        self.start_dunst(deadline)
        return {"ready": True, "user": self.user, "uid": self.uid, "gid": self.gid, "home": self.home,
                "env": self.env, "holder_pid": self.holder_pid, "display": self.display,
                "seconds_to_start": round(time.monotonic() - t0, 3)}

    # ---------------------------------------------------------------- commands

    def unreachable(self, path):
        """Why the user cannot execute path, or None."""
        groups = set(os.getgrouplist(self.user, self.gid))

        def allowed(st, bits):  # bits: 4 r, 2 w, 1 x
            if st.st_uid == self.uid:
                return (st.st_mode >> 6) & bits == bits
            if st.st_gid in groups:
                return (st.st_mode >> 3) & bits == bits
            return st.st_mode & bits == bits
        real = os.path.realpath(path)
        try:
            st = os.stat(real)
        except OSError as e:
            return f"{path}: {e.strerror}"
        parent = real
        while parent != "/":
            parent = os.path.dirname(parent)
            if not allowed(os.stat(parent), 1):
                return f"the directory {parent} is not searchable by uid {self.uid}"
        if not allowed(st, 5):
            return f"{real} (mode {stat.filemode(st.st_mode)}) is not readable and executable by uid {self.uid}"
        return None

    def cmd_run(self, req):
        argv = req.get("argv")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            return {"ok": False, "error": "argv must be a non-empty list of strings"}
        if "/" in argv[0]:
            why = self.unreachable(argv[0])
            if why:
                return {"ok": False, "error": "the user cannot run " + argv[0] + ": " + why}
        env = dict(self.env)
        env.update(req.get("env") or {})
        timeout = float(req.get("timeout", 30))
        data = req.get("input")
        p = subprocess.Popen(self.as_user(argv, env, req.get("cwd")),
                             stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=set_pdeathsig)
        try:
            out, err = p.communicate(data.encode() if data is not None else None, timeout=timeout)
        except subprocess.TimeoutExpired:
            for pid in reversed(descendants(p.pid)):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            p.kill()
            out, err = p.communicate()
            return {"ok": False, "error": f"timed out after {timeout} s; killed", "status": None,
                    "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace")}
        return {"ok": True, "status": p.returncode, "stdout": out.decode("utf-8", "replace"),
                "stderr": err.decode("utf-8", "replace")}

    def cmd_journal(self, req):
        self.root_cmd(["journalctl", "--sync"], timeout=10)
        argv = ["journalctl", "--no-pager", "-q", "-o", req.get("output", "short-precise")]
        unit = req.get("unit")
        if unit:
            argv += [f"_SYSTEMD_USER_UNIT={unit}", "+", f"USER_UNIT={unit}"]
        status, out, err = self.root_cmd(argv, timeout=float(req.get("timeout", 15)))
        if status not in (0, 1) or (status and err.strip()):
            return {"ok": False, "error": f"journalctl exited {status}: {err.strip()}"}
        return {"ok": True, "lines": out.splitlines()}

    def cmd_notifications(self, req):
        status, out, err = self.user_cmd(["dunstctl", "close-all"])
        if status:
            return {"ok": False, "error": f"dunstctl close-all: {status} {err.strip()}"}
        status, out, err = self.user_cmd(["dunstctl", "history"])
        if status:
            return {"ok": False, "error": f"dunstctl history: {status} {err.strip()}"}
        found = []
        for group in json.loads(out).get("data", []):
            for item in group:
                found.append({k: v.get("data") if isinstance(v, dict) else v for k, v in item.items()})
        found.sort(key=lambda n: n.get("id") or 0)
        # Urgency and desktop-entry come from the files dunst-record.sh writes, which may lag a little.
        deadline = time.monotonic() + 3
        while True:
            records = {}
            def mtime(name):
                try:
                    return os.stat(os.path.join(self.records, name)).st_mtime_ns
                except FileNotFoundError:
                    return 0
            for name in sorted(os.listdir(self.records), key=mtime):  # the latest record of an id wins
                if name.endswith(".env"):
                    try:
                        with open(os.path.join(self.records, name), "rb") as f:
                            pairs = [x.decode("utf-8", "replace").split("=", 1) for x in f.read().split(b"\0") if b"=" in x]
                    except FileNotFoundError:
                        continue
                    fields = {k: v for k, v in pairs if k.startswith("DUNST_")}
                    records[fields.get("DUNST_ID")] = fields
            if all(str(n.get("id")) in records for n in found) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        for n in found:
            fields = records.get(str(n.get("id")), {})
            n["urgency"] = fields.get("DUNST_URGENCY")
            n["desktop_entry"] = fields.get("DUNST_DESKTOP_ENTRY")
        found = [n for n in found if (n.get("id") or 0) > self.cleared_up_to]
        if req.get("clear"):  # dunst 1.9 has no history-clear: later answers leave out these ids
            self.cleared_up_to = max([self.cleared_up_to] + [n.get("id") or 0 for n in found])
        return {"ok": True, "notifications": found}

    def wait_for_jobs(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            status, out, err = self.user_cmd(["systemctl", "--user", "list-jobs", "--no-legend"])
            if status == 0 and not out.strip():
                return
            if time.monotonic() > deadline:
                raise Failure("jobs still queued: " + out.strip())
            time.sleep(0.05)

    def session_target(self, verb, req):
        """Starts or stops SESSION_TARGET, waits until no job is left, and returns graphical-session.target's state
        (None when systemctl failed, with the answer to give)."""
        timeout = float(req.get("timeout", 30))
        status, out, err = self.user_cmd(["systemctl", "--user", verb, SESSION_TARGET], timeout=timeout)
        if status:
            return None, {"ok": False, "error": f"systemctl --user {verb} {SESSION_TARGET}: {status} {err.strip()}"}
        self.wait_for_jobs(timeout)
        _, state, _ = self.user_cmd(["systemctl", "--user", "is-active", "graphical-session.target"])
        return state.strip(), None

    def cmd_login(self, req):
        state, failure = self.session_target("start", req)
        return failure or {"ok": state == "active", "graphical_session": state}

    def cmd_logout(self, req):
        state, failure = self.session_target("stop", req)
        return failure or {"ok": True, "graphical_session": state}

    def stop_manager(self):
        if self.manager is None or self.manager.poll() is not None:
            return
        self.user_cmd(["systemctl", "--user", "--no-block", "exit"], timeout=5)
        try:
            self.manager.wait(10)
        except subprocess.TimeoutExpired:
            self.stop_proc(self.manager, "systemd --user", wait=5)

    def cmd_restart(self, req):
        """Emulates a logout of the last session and a new login: the manager exits, /run/user/UID is
        emptied, then the manager, DISPLAY and dunst start again (Xvfb and journald stay)."""
        t0 = time.monotonic()
        self.stop_manager()
        runtime = self.in_ns(f"/run/user/{self.uid}")
        for name in os.listdir(runtime):
            path = os.path.join(runtime, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        deadline = t0 + float(req.get("timeout", 30))
        self.cleared_up_to = 0  # a new dunst numbers from 1 again
        for name in os.listdir(self.records):
            os.unlink(os.path.join(self.records, name))
        self.start_manager(deadline)
        self.start_dunst(deadline)
        return {"ok": True, "seconds": round(time.monotonic() - t0, 3)}

    def handle(self, line):
        try:
            req = json.loads(line)
            cmd = req.get("cmd")
        except (ValueError, AttributeError) as e:
            return {"ok": False, "error": f"not a JSON object: {e}"}
        handler = {"run": self.cmd_run, "journal": self.cmd_journal, "notifications": self.cmd_notifications,
                   "login": self.cmd_login, "logout": self.cmd_logout, "restart": self.cmd_restart,
                   "ping": lambda r: {"ok": True}}.get(cmd)
        if handler is None:
            return {"ok": False, "error": f"unknown cmd {cmd!r}"}
        try:
            return handler(req)
        except (Failure, OSError, ValueError, TypeError, subprocess.SubprocessError) as e:
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    # ---------------------------------------------------------------- stop

    def stop_proc(self, proc, name, sig=signal.SIGTERM, wait=10):
        if proc is None or proc.poll() is not None:
            return
        pid = self.inner(proc)
        if pid:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            self.note(f"{name} did not stop in {wait} s; killing it")
            for p in [pid] if pid else []:
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            proc.kill()
            proc.wait()

    def user_processes(self, uid=None):
        """The PIDs of the user's processes, zombies left out."""
        uid = self.uid if uid is None else uid
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/status") as f:
                        for line in f:
                            if line.startswith("State:") and line.split()[1] == "Z":
                                break
                            if line.startswith("Uid:"):
                                if str(uid) in line.split()[1:]:
                                    found.append(int(entry))
                                break
                except OSError:
                    pass
        return found

    def cleanup(self):
        self.stopping = True
        errors = []

        def attempt(what, fn):
            try:
                fn()
            except Exception as e:  # keep cleaning up
                errors.append(f"{what}: {type(e).__name__}: {e}")
                self.note(f"cleanup {what}: {e}")

        ns_alive = self.holder_pid is not None and self.holder is not None and self.holder.poll() is None
        if ns_alive:
            attempt("systemd --user", self.stop_manager)
        attempt("Xvfb", lambda: self.stop_proc(self.xvfb, "Xvfb"))
        if ns_alive:
            def save_journal():
                with open(os.path.join(self.logs, "journal.log"), "wb") as f:
                    subprocess.run(self.ns() + ["journalctl", "--no-pager", "-o", "short-precise"],
                                   stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT, timeout=15)
            attempt("saving the journal", save_journal)
        attempt("journald", lambda: self.stop_proc(self.journald, "systemd-journald"))
        for proc in (self.manager, self.xvfb, self.journald):
            attempt("a child", lambda: self.stop_proc(proc, "child", signal.SIGKILL, 5))

        def kill_namespace():
            if self.holder is None:
                return
            self.holder.stdin.close()  # the namespace's init exits; the kernel kills the rest of the namespace
            try:
                self.holder.wait(5)
            except subprocess.TimeoutExpired:
                self.note("the namespace's init did not exit; killing it")
                for pid in (self.holder_pid, self.holder.pid):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, TypeError):
                        pass
                self.holder.wait()
        attempt("the namespace", kill_namespace)

        if self.uid is not None:
            def wait_user_gone():
                deadline = time.monotonic() + 10
                while self.user_processes():
                    if time.monotonic() > deadline:
                        raise Failure(f"processes of uid {self.uid} left: {self.user_processes()}")
                    time.sleep(0.05)
            attempt("waiting for the user's processes", wait_user_gone)

        def remove_cgroups():
            leaves = [p for p in self.cgroups_made if p.endswith(f"user@{self.uid}.service")]
            for leaf in leaves:
                dirs = [root for root, _, _ in os.walk(leaf, topdown=False)]
                for d in dirs:
                    self.rmdir_cgroup(d, must=True)
            for d in reversed([p for p in self.cgroups_made if p not in leaves]):
                self.rmdir_cgroup(d, must=False)  # user.slice may be in use by another instance
        attempt("removing cgroups", remove_cgroups)

        if self.created_user:
            def delete_user():
                for i in range(40):
                    p = subprocess.run(["userdel", self.user], stdin=subprocess.DEVNULL, capture_output=True,
                                       text=True)
                    if p.returncode == 0:
                        self.note(f"deleted user {self.user}")
                        return
                    if i == 39:
                        raise Failure(f"userdel {self.user}: {p.returncode} {p.stderr.strip()}")
                    time.sleep(0.1 + 0.1 * secrets.randbelow(5))
            attempt("deleting the user", delete_user)
            if os.path.isdir(self.home):
                def chown_home():
                    for root, dirs, files in os.walk(self.home):
                        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                            os.lchown(name, 0, 0)
                attempt("chowning the home", chown_home)
        for f in self.log_files:
            f.close()
        return errors

    def rmdir_cgroup(self, path, must):
        deadline = time.monotonic() + 5
        while True:
            try:
                os.rmdir(path)
                return
            except FileNotFoundError:
                return
            except OSError as e:
                if not must:
                    return
                if time.monotonic() > deadline:
                    raise Failure(f"rmdir {path}: {e}")
                time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", required=True, help="an existing empty directory")
    parser.add_argument("--user", help="reuse this user if it exists (and keep it); else create it")
    parser.add_argument("--lang", default="C.UTF-8", help="LANG of the manager and of commands")
    parser.add_argument("--language", help="LANGUAGE of the manager and of commands (unset by default)")
    parser.add_argument("--tz", default=None, help="TZ of the manager and of commands (default: the host's zone)")
    parser.add_argument("--host-user-units", action="store_true",
                        help="keep the host's /etc/systemd/user (hidden by default)")
    parser.add_argument("--timeout", type=float, default=30, help="start-up deadline in seconds")
    args = parser.parse_args()
    if args.tz is None:
        try:
            with open("/etc/timezone") as f:
                args.tz = f.read().strip() or "UTC"
        except OSError:
            args.tz = "UTC"

    out = sys.stdout

    def say(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    def on_signal(signum, frame):
        if not harness.stopping:
            raise Stop(signum)
    harness = Harness(args)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    try:
        ready = harness.start()
    except (Exception, Stop) as e:
        error = f"terminated by signal {e.args[0]}" if isinstance(e, Stop) else f"{type(e).__name__}: {e}"
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        log = ""
        if harness.made_logs:
            log = "".join(f"--- {n}\n{tail(os.path.join(harness.logs, n), 3000)}\n"
                          for n in sorted(os.listdir(harness.logs)))
        if harness.holder_pid and harness.holder and harness.holder.poll() is None:
            try:
                _, journal, _ = harness.root_cmd(["journalctl", "--no-pager", "-n", "60"], timeout=10)
                log += "--- journal\n" + journal
            except Exception:
                pass
        problems = harness.cleanup()
        if problems:
            error += "; cleanup: " + "; ".join(problems)
        say({"ready": False, "error": error, "log": log[-12000:]})
        return 1
    say(ready)

    answered_quit = False
    try:
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            if not line.strip():
                continue
            try:
                if json.loads(line).get("cmd") == "quit":
                    answered_quit = True
                    break
            except (ValueError, AttributeError):
                pass
            say(harness.handle(line))
    except Stop:
        answered_quit = False
    except BrokenPipeError:
        answered_quit = False
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    problems = harness.cleanup()
    if answered_quit:
        try:
            say({"ok": not problems, **({"error": "; ".join(problems)} if problems else {})})
        except BrokenPipeError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
