#!/usr/bin/env bash
# Wake-ups of an idle `w8 daemon`: context switches of all its threads over IDLE_SECONDS (default 60), against
# `sleep` measured the same way in the same run (the floor: 0). Target: 0.
# The daemon first gets a quarter of the time (at most 2 s) to start and settle; the rest is measured.
# Usage: bench/idle.sh PATH/TO/w8
set -euo pipefail
. "$(dirname "$0")/common.sh"
trap 'kill $daemon 2>/dev/null || true; rm -rf "$work"' EXIT

HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config DBUS_SESSION_BUS_ADDRESS=disabled: \
    "$w8" daemon 2>"$work/daemon.log" &
daemon=$!
read -r d p measured < <(idle_switches $daemon "$work/daemon.log")
echo "idle w8 daemon over $measured s: $d context switches (sleep: $p); target 0"
row "idle w8 daemon, context switches in ${measured} s" "$d" "≤0" "sleep: $p"
