#!/usr/bin/env bash
# `w8 add` that crosses a milestone and posts it to a running dunst, against `notify-send` posting one
# notification to the same dunst, in the same run (target: median ratio ≤ 2.0).
# Usage: bench/notify.sh PATH/TO/w8   (runs Xvfb, a private D-Bus session and dunst itself)
set -euo pipefail
w8=$(realpath "${1:-.build/release/w8}")
out=$(realpath -m "${BENCH_OUT:-artifacts/bench}")
mkdir -p "$out"

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

printf '[global]\n  stack_duplicates = false\n  history_length = 20\n' >"$WORK/dunstrc"
dunst -config "$WORK/dunstrc" >"$WORK/dunst.log" 2>&1 &
dunst=$!
trap 'kill $dunst 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true && break
    sleep 0.05
done

# A template home: goal 160 from 180, so that every `w8 add 175` crosses 25%. Each run starts from a copy.
home=$WORK/home
db=$home/data/w8trackr/w8trackr.sqlite
export HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config
"$w8" add 180 --date 2026-01-01 >/dev/null
"$w8" goal 160 --date 2026-01-01 >/dev/null
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
cp "$db" "$WORK/template.sqlite"
reset="cp $WORK/template.sqlite $db && rm -f $db-wal $db-shm"

hyperfine --style basic --warmup 3 --runs 30 --export-json "$out/notify.json" \
    --prepare "$reset" -n "w8 add (crosses 25%, posts)" "$w8 add 175" \
    --prepare "true" -n "notify-send" "notify-send -a W8Trackr 'Halfway there!' 'You have lost 10.0 lb so far.'" >/dev/null

eval "$reset"
"$w8" add 175 --json | grep -q '"notified": "25"' || { echo "w8 add did not post through dunst" >&2; exit 1; }

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
r = {x["command"]: x for x in json.load(open(os.path.join(out, "notify.json")))["results"]}
w8, ns = r["w8 add (crosses 25%, posts)"]["median"], r["notify-send"]["median"]
ratio = w8 / ns
line = (f"w8 add posting to dunst / notify-send = {ratio:.2f} (median {w8*1000:.1f} ms vs {ns*1000:.1f} ms) "
        + ("ok" if ratio <= 2.0 else "MISSES target 2.0"))
print(line)
with open(os.path.join(out, "summary.txt"), "a") as f:
    f.write(line + "\n")
PY
