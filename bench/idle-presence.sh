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

if [ "${W8_BENCH_INNER:-}" != 1 ]; then
    work=$(mktemp -d)
    trap 'kill $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
    exec 3>"$work/display"
    Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 >"$work/xvfb.log" 2>&1 &
    xvfb=$!
    for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
    export DISPLAY=":$(head -1 "$work/display")" W8_BENCH_INNER=1 WORK=$work
    dbus-run-session -- "$0" "$w8"
    exit
fi

switches() {  # total voluntary + involuntary context switches of every thread of $1
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'
}
seconds=${IDLE_SECONDS:-60}
settle=$(awk -v s="$seconds" 'BEGIN { x = s / 4; if (x > 2) x = 2; print x }')
measured=$(awk -v s="$seconds" -v t="$settle" 'BEGIN { print s - t }')

dunst -config /dev/null >"$WORK/dunst.log" 2>&1 &
dunst=$!
mkdir -p "$WORK/logind"
exec 4> >(exec /usr/bin/python3 "$here/../Tests/Support/logind_standin.py" --dir "$WORK/logind" >"$WORK/logind.out")
for _ in $(seq 100); do grep -q ready "$WORK/logind.out" 2>/dev/null && break; sleep 0.05; done
system=$(sed -n 's/.*"address": "\([^"]*\)".*/\1/p' "$WORK/logind.out")
trap 'kill $dunst $daemon $peer 2>/dev/null || true; exec 4>&-' EXIT
for _ in $(seq 100); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true && break
    sleep 0.05
done

home=$WORK/home
HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config DBUS_SYSTEM_BUS_ADDRESS=$system \
    "$w8" daemon 2>"$WORK/daemon.log" &
daemon=$!
sleep $((seconds + 5)) &
peer=$!
sleep "$settle"
kill -0 $daemon 2>/dev/null || { echo "w8 daemon exited: $(cat "$WORK/daemon.log")" >&2; exit 1; }
grep -q "logind LockedHint here.*dunst paused here" "$WORK/daemon.log" ||
    { echo "the daemon reads no presence: $(cat "$WORK/daemon.log")" >&2; exit 1; }
d0=$(switches $daemon); p0=$(switches $peer)
sleep "$measured"
d1=$(switches $daemon); p1=$(switches $peer)
echo "idle w8 daemon watching presence over $measured s: $((d1 - d0)) context switches (sleep: $((p1 - p0))); target 0"
row "idle w8 daemon watching presence (logind, dunst), context switches in ${measured} s" "$((d1 - d0))" "≤0" \
    "sleep: $((p1 - p0))"
