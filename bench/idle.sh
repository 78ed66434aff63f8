#!/usr/bin/env bash
# Wake-ups of an idle `w8 daemon`: context switches of all its threads over IDLE_SECONDS (default 60), against
# `sleep` measured the same way in the same run (the floor: 0). Target: 0.
# The daemon first gets a quarter of the time (at most 2 s) to start and settle; the rest is measured.
# Usage: bench/idle.sh PATH/TO/w8
set -euo pipefail
. "$(dirname "$0")/common.sh"
seconds=${IDLE_SECONDS:-60}
settle=$(awk -v s="$seconds" 'BEGIN { x = s / 4; if (x > 2) x = 2; print x }')
measured=$(awk -v s="$seconds" -v t="$settle" 'BEGIN { print s - t }')
trap 'kill $daemon $peer 2>/dev/null || true; rm -rf "$work"' EXIT

switches() {  # total voluntary + involuntary context switches of every thread of $1
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'
}

HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config DBUS_SESSION_BUS_ADDRESS=disabled: \
    "$w8" daemon 2>"$work/daemon.log" &
daemon=$!
sleep $((seconds + 5)) &
peer=$!
sleep "$settle"
kill -0 $daemon 2>/dev/null || { echo "w8 daemon exited: $(cat "$work/daemon.log")" >&2; exit 1; }
d0=$(switches $daemon); p0=$(switches $peer)
sleep "$measured"
d1=$(switches $daemon); p1=$(switches $peer)
echo "idle w8 daemon over $measured s: $((d1 - d0)) context switches (sleep: $((p1 - p0))); target 0"
row "idle w8 daemon, context switches in ${measured} s" "$((d1 - d0))" "≤0" "sleep: $((p1 - p0))"
