#!/usr/bin/env bash
# Wake-ups of an idle `w8 daemon` that watches the person's presence (issue 39): on a private session bus with dunst
# (under Xvfb) and on a logind stand-in's private system bus, the daemon subscribes to logind's LockedHint and
# PrepareForSleep and to dunst's `paused`; then, nothing due, it must sleep. Context switches of all its threads over
# IDLE_SECONDS (default 60), against `sleep` measured the same way in the same run (the floor: 0). Target: 0.
# Usage: bench/idle-presence.sh PATH/TO/w8   (runs Xvfb, a private D-Bus session, dunst and the stand-in itself)
set -euo pipefail
. "$(dirname "$0")/common.sh"
rmdir "$work"
here=$(cd "$(dirname "$0")" && pwd)

in_private_session "$0"

start_dunst /dev/null
mkdir -p "$WORK/logind"
exec 4> >(exec /usr/bin/python3 "$here/../Tests/Support/logind_standin.py" --dir "$WORK/logind" >"$WORK/logind.out")
for _ in $(seq 100); do grep -q ready "$WORK/logind.out" 2>/dev/null && break; sleep 0.05; done
system=$(sed -n 's/.*"address": "\([^"]*\)".*/\1/p' "$WORK/logind.out")
trap 'kill $dunst $daemon 2>/dev/null || true; exec 4>&-' EXIT

home=$WORK/home
HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config DBUS_SYSTEM_BUS_ADDRESS=$system \
    "$w8" daemon 2>"$WORK/daemon.log" &
daemon=$!
for _ in $(seq 100); do grep -q "presence:" "$WORK/daemon.log" && break; sleep 0.05; done
grep -q "logind LockedHint here.*dunst paused here" "$WORK/daemon.log" ||
    { echo "the daemon reads no presence: $(cat "$WORK/daemon.log")" >&2; exit 1; }
read -r d p measured < <(idle_switches $daemon "$WORK/daemon.log")
echo "idle w8 daemon watching presence over $measured s: $d context switches (sleep: $p); target 0"
row "idle w8 daemon watching presence (logind, dunst), context switches in ${measured} s" "$d" "≤0" "sleep: $p"
