#!/usr/bin/env bash
# Wake-ups of an idle `w8 daemon`: context switches of all its threads over IDLE_SECONDS (default 60), against
# `sleep` measured the same way in the same run (the floor: 0). Target: 0.
# Usage: bench/idle.sh PATH/TO/w8
set -euo pipefail
. "$(dirname "$0")/common.sh"
seconds=${IDLE_SECONDS:-60}
trap 'kill $daemon $peer 2>/dev/null || true; rm -rf "$work"' EXIT

switches() {  # total voluntary + involuntary context switches of every thread of $1
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'
}

HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config DBUS_SESSION_BUS_ADDRESS=disabled: \
    "$w8" daemon 2>"$work/daemon.log" &
daemon=$!
sleep "$seconds" &
peer=$!
sleep 2  # let it start and settle
d0=$(switches $daemon); p0=$(switches $peer)
sleep "$((seconds - 4))"
d1=$(switches $daemon); p1=$(switches $peer)
line="idle w8 daemon over $((seconds - 4)) s: $((d1 - d0)) context switches (sleep: $((p1 - p0))); target 0"
echo "$line"
echo "$line" >>"$out/summary.txt"
