#!/usr/bin/env bash
# Issue 40: the floor of the status bar on the stack the brief prescribes. bench/floor/ is a program of its own that
# does only what any `w8 status` must: ArgumentParser parses `status`, GRDB opens the database and runs the queries
# `w8 status` runs, Foundation's calendar puts the latest date in the local zone, and one line is printed. It is
# built with make release's options (static Swift runtime, lld, packed relocations, function sections) and laid out
# in the order its own run runs (callgrind, as bench/start-order.sh does), then timed against `sqlite3` running the
# same queries and against `w8 status`, in the same rounds (interleave.py --perf-stat), on a copy of a 10-entry home.
# Reports only; not in `make bench` (its build takes a minute or two).
# Usage: bench/floor.sh PATH/TO/w8   (the release build; stripped here)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
w8=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=${FLOOR_RUNS:-60}
flags=(-c release --package-path "$here/floor" --scratch-path "$work/build" --static-swift-stdlib
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker relro -Xlinker -z
    -Xlinker now -Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -function-sections)

h=$work/home
mkdir -p "$h"
export HOME=$h XDG_DATA_HOME=$h/data XDG_CONFIG_HOME=$h/config XDG_CACHE_HOME=$h/cache XDG_STATE_HOME=$h/state \
    LANG=C.UTF-8 TZ=UTC
unset DBUS_SESSION_BUS_ADDRESS LC_ALL LANGUAGE
strip --strip-all -o "$work/w8" "$w8"
for i in $(seq 10 -1 1); do "$work/w8" add $((190 - i)) --date "$(date -u -d "$i days ago" +%F)" >/dev/null; done
"$work/w8" goal 160 --date "$(date -u -d "10 days ago" +%F)" >/dev/null
"$work/w8" status >/dev/null
db=$XDG_DATA_HOME/w8trackr/w8trackr.sqlite

"${SWIFT:-swift}" build "${flags[@]}" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
floor=$work/build/release/floor
strip --strip-debug -o "$work/floor-run" "$floor"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/floor.out" "$work/floor-run" status "$db" \
    >/dev/null 2>&1
: >"$work/none"
python3 "$here/callgrind_functions.py" /floor-run "$work/none" "$work/floor.out" >"$work/order.txt"
rm "$floor"
"${SWIFT:-swift}" build "${flags[@]}" -Xlinker "--symbol-ordering-file=$work/order.txt" \
    -Xlinker --no-warn-symbol-ordering >>"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
strip --strip-all -o "$work/floor-s" "$floor"

sql="SELECT * FROM sync_self;
SELECT id, date, weight, unit, note, body_fat_percent FROM entry ORDER BY date DESC, id DESC LIMIT 1;
SELECT weight, unit, set_at, journey_started_at FROM goal WHERE id = 1;
SELECT id, date, weight, unit, note, body_fat_percent FROM entry
  WHERE date <= (SELECT journey_started_at FROM goal) ORDER BY date DESC, id DESC LIMIT 1;
SELECT id, date, weight, unit FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 year')
  ORDER BY date, id LIMIT 1;
SELECT date FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-7 days') ORDER BY date DESC, id DESC LIMIT 1;
SELECT date FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-7 days');"
q=$(printf '%q' "${sql//$'\n'/ }")
python3 "$here/interleave.py" --runs "$runs" --warmup 3 --perf-stat --export-json "$work/floor.json" \
    -n "floor status" "$work/floor-s status $db" -n "w8 status" "$work/w8 status" -n "sqlite3" "sqlite3 $db $q" \
    >/dev/null
python3 - "$work/floor.json" <<'PY'
import json, statistics, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peer = statistics.median(results["sqlite3"]["times"])
for name, r in results.items():
    wall = statistics.median(r["times"])
    print(f"{name:14} wall {wall * 1e3:5.2f} ms  CPU {statistics.median(r['task_clock']) * 1e3:5.2f} ms  "
          f"page faults {statistics.median(r['page_faults']):4.0f}  / sqlite3 {wall / peer:.2f}")
PY
