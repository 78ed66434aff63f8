#!/usr/bin/env bash
# Issue 40: where every command's start goes. Reports only; no bar is judged here (`make bench` has the bars).
#   1. `perf stat` (task-clock, page faults, duration_time) of the installed binary (stripped here as `make install`
#      strips it): `w8 --version`, `w8 status` (3 entries and a goal), `w8 widget --format waybar` (10 entries),
#      `w8 add` with notifications off (by `notifications.enabled false` in config.toml, and by no config.toml and no
#      session bus) and `w8 add` posting a milestone to dunst, each beside the peer of issue 40's bars, all in the same
#      rounds (interleave.py --perf-stat, PROFILE_RUNS each, default 40; one `perf stat` per run, because a posting
#      add needs its home put back before each).
#   2. `perf record -g` of PROFILE_RUNS runs of `w8 status` and of both adds that post nothing, on the unstripped
#      build (it has the symbols): the share of the samples of each shared object, the top symbols (self time), and
#      w8's functions with their callees.
# Every command and peer has a home of its own (HOME and XDG_*, set by interleave.py with no `env` process), and all
# run under LANG=C.UTF-8 and TZ=UTC, inside a private D-Bus session with Xvfb and dunst (in_private_session).
# Writes artifacts/profile/profile.txt (PROFILE_OUT: the folder) and prints it. With PROFILE_BARS=1 (`make bench`,
# bench/all.sh) it records only the first part, in BENCH_OUT, and adds issue 40's bars to the bench table: status and
# widget / sqlite3 running their queries, add posting nothing / sqlite3 inserting one row (WAL, synchronous=FULL).
# Usage: bench/profile.sh PATH/TO/w8   (the unstripped release build, .build-pkg/release/w8)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -n "${PROFILE_BARS:-}" ] || BENCH_OUT=${PROFILE_OUT:-artifacts/profile}
. "$here/common.sh"
rmdir "$work"

in_private_session "$0"

runs=${PROFILE_RUNS:-40}
export LANG=C.UTF-8 TZ=UTC
unset LC_ALL LANGUAGE
bin=$out/w8
[ "$w8" -ef "$bin" ] || strip --strip-all -o "$bin" "$w8"

printf '[global]\n  stack_duplicates = false\n  history_length = 20\n' >"$WORK/dunstrc"
start_dunst "$WORK/dunstrc"
trap 'kill $dunst 2>/dev/null || true' EXIT

# home NAME: a home of its own under $WORK; prints the NAME=VALUE words that give it to a command.
home() {
    local h=$WORK/$1
    mkdir -p "$h/data" "$h/config" "$h/cache" "$h/state" "$h/run"
    chmod 700 "$h/run"
    echo "HOME=$h XDG_DATA_HOME=$h/data XDG_CONFIG_HOME=$h/config XDG_CACHE_HOME=$h/cache XDG_STATE_HOME=$h/state" \
        "XDG_RUNTIME_DIR=$h/run"
}
day() { date -u -d "$1 days ago" +%F; }

# seed NAME N: N entries, one a day up to yesterday, 1 lb a day down from 200, and a goal of 160 lb set on the first
# day: under 25 %, no milestone yet.
seed() {
    local i
    for ((i = $2; i >= 1; i--)); do
        env $(home "$1") "$w8" add $((200 - $2 + i)) --date "$(day "$i")" >/dev/null
    done
    env $(home "$1") "$w8" goal 160 --date "$(day "$2")" >/dev/null
    env $(home "$1") "$w8" status >/dev/null
}
db() { echo "$WORK/$1/data/w8trackr/w8trackr.sqlite"; }

seed status 10
seed widget 10
seed add 3
# Notifications off two ways: `notifications.enabled false` in config.toml (add), and no config.toml and no session
# bus (bare, as run.sh): reading config.toml is a cost of its own. A first add crosses 25 and 50 %, silently.
env $(home add) "$w8" config notifications.enabled false >/dev/null
env $(home add) "$w8" add 181 >/dev/null
cp -a "$WORK/add/." "$WORK/bare"
rm "$WORK/bare/config/w8trackr/config.toml"
cp -a "$WORK/bare/." "$WORK/insert"
sqlite3 "$(db insert)" "PRAGMA journal_mode" | grep -qx wal || { echo "$(db insert) is not in WAL mode" >&2; exit 1; }
home post >/dev/null
milestone_home "$WORK/post"
peer=$(milestone_peer)

# The peers' SQL: what `w8 status` and `w8 widget` prepare (logged through an LD_PRELOAD shim over
# sqlite3_prepare_v3 at e17cf79), with the bound dates written out: the latest entry, the goal, the journey's
# start, the trend's first entry and the last week (status); the week's entries, the one before them, today's
# intake (widget).
latest="SELECT * FROM sync_self;
SELECT id, date, weight, unit, note, body_fat_percent FROM entry ORDER BY date DESC, id DESC LIMIT 1;
SELECT weight, unit, set_at, journey_started_at FROM goal WHERE id = 1;
SELECT id, date, weight, unit, note, body_fat_percent FROM entry
  WHERE date <= (SELECT journey_started_at FROM goal) ORDER BY date DESC, id DESC LIMIT 1;"
week="strftime('%Y-%m-%d %H:%M:%f', 'now', '-7 days')"
status_sql="$latest
SELECT id, date, weight, unit FROM entry WHERE date >= strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 year')
  ORDER BY date, id LIMIT 1;
SELECT date FROM entry WHERE date >= $week ORDER BY date DESC, id DESC LIMIT 1;
SELECT date FROM entry WHERE date >= $week;"
widget_sql="SELECT id, date, weight, unit, note, body_fat_percent FROM entry WHERE date >= $week ORDER BY date, id;
SELECT * FROM entry WHERE date < $week ORDER BY date DESC, id DESC LIMIT 1;
$latest
SELECT * FROM intake_event WHERE date >= strftime('%Y-%m-%d', 'now') ORDER BY date, id;"
insert_sql="PRAGMA synchronous=FULL; INSERT INTO entry (date, weight, unit, created_at)
  VALUES (strftime('%Y-%m-%d %H:%M:%f', 'now'), 181, 'lb', strftime('%Y-%m-%d %H:%M:%f', 'now'));"
q() { printf '%q' "${1//$'\n'/ }"; }  # one line, quoted for interleave.py's shlex

# Each w8 row is compared with the first peer row after it.
nobus=DBUS_SESSION_BUS_ADDRESS=disabled:
python3 "$here/interleave.py" --perf-stat --warmup 3 --runs "$runs" --export-json "$out/stat.json" \
    -n "w8 --version" "$(home version) $bin --version" \
    -n "notify-send --help" "$(home version) notify-send --help" \
    -n "w8 status (10 entries)" "$(home status) $bin status" \
    -n "sqlite3: status's queries" "$(home status) sqlite3 $(db status) $(q "$status_sql")" \
    -n "w8 widget --format waybar (10)" "$(home widget) $bin widget --format waybar" \
    -n "sqlite3: widget's queries" "$(home widget) sqlite3 $(db widget) $(q "$widget_sql")" \
    -n "w8 add 181 (config: notif. off)" "$(home add) $bin add 181" \
    -n "w8 add 181 (no config, no bus)" "$(home bare) $nobus $bin add 181" \
    -n "sqlite3: FULL insert, WAL" "$(home insert) $nobus sqlite3 $(db insert) $(q "$insert_sql")" \
    --prepare "$reset && dunstctl close-all" -n "w8 add 175 posting to dunst" "$(home post) $bin add 175" \
    --prepare "dunstctl close-all" -n "notify-send, the same post" "$(home post) $peer"

# Issue 40's bars, for `make bench`: the ratio of the medians of wall time, peers in the same rounds.
if [ -n "${PROFILE_BARS:-}" ]; then
    python3 - "$out" "$runs" >>"$out/rows.tsv" <<'PY'
import json, os, sys
from statistics import median as med
out, runs = sys.argv[1], sys.argv[2]
r = {x["command"]: x for x in json.load(open(os.path.join(out, "stat.json")))["results"]}
def row(name, w8, peer, bar, what):
    a, b = med(r[w8]["times"]), med(r[peer]["times"])
    print(f"{name}\t{a / b:.2f}\t{bar}\tmedian {a * 1e3:.1f} ms vs {b * 1e3:.1f} ms, {runs} rounds interleaved; {what}")
row("w8 status (10 entries) / sqlite3, its queries", "w8 status (10 entries)", "sqlite3: status's queries", "≤2.0",
    "CPU %.1f vs %.1f ms" % (med(r["w8 status (10 entries)"]["task_clock"]) * 1e3,
                             med(r["sqlite3: status's queries"]["task_clock"]) * 1e3))
row("w8 widget --format waybar (10 entries) / sqlite3", "w8 widget --format waybar (10)", "sqlite3: widget's queries",
    "≤2.0", "the same file")
row("w8 add, posting nothing / sqlite3 insert (WAL, FULL)", "w8 add 181 (no config, no bus)",
    "sqlite3: FULL insert, WAL", "≤2.0", "no config.toml, no session bus")
row("w8 add, notifications off in config.toml / sqlite3 insert", "w8 add 181 (config: notif. off)",
    "sqlite3: FULL insert, WAL", "≤2.0", "config.toml read")
PY
    exit 0
fi

# record NAME WORDS COMMAND...: perf record of PROFILE_RUNS runs of COMMAND in a row, under the NAME=VALUE WORDS, by a
# bash loop whose own samples (comm bash, which includes each child's fork before its exec) are left out; the
# samples' self shares in $out/NAME.tsv, with callers (children) in $out/NAME.children.tsv.
record() {
    local name=$1 words=$2 comms
    shift 2
    rm -f "$out/$name.data" "$out/$name.data.old"
    env $words perf record -q -g -F 10000 -o "$out/$name.data" -- \
        bash -c 'for ((i = 0; i < $1; i++)); do "${@:2}" >/dev/null; done' - "$runs" "$@" 2>/dev/null
    comms=$(perf report -i "$out/$name.data" -q -g none --sort comm -t $'\t' -F comm 2>/dev/null |
        awk -F '\t' '{ gsub(/ +$/, "", $1) } $1 != "bash" && $1 != "" { print $1 }' | paste -sd,)
    perf report -i "$out/$name.data" -q -g none --no-children --percentage relative --comms "$comms" \
        --sort dso,sym -t $'\t' -F overhead,sample,dso,sym 2>/dev/null >"$out/$name.tsv"
    perf report -i "$out/$name.data" -q -g none --children --percentage relative --comms "$comms" \
        --sort dso,sym -t $'\t' 2>/dev/null >"$out/$name.children.tsv"
}
record status "$(home status)" "$w8" status
record add "$(home add)" "$w8" add 181
record add-bare "$(home bare) $nobus" "$w8" add 181

python3 - "$out" "$runs" "$(stat -c %s "$bin")" <<'PY' | tee "$out/profile.txt"
import json, os, subprocess, sys
from statistics import median as med
out, runs, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
results = json.load(open(os.path.join(out, "stat.json")))["results"]
print(f"perf stat, {runs} runs of each in the same rounds, medians; stripped binary {size / 1048576:.1f} MiB")
print(f"{'command':<31} {'task-clock ms':>13} {'page faults':>11} {'wall ms':>8} {'w8/peer wall':>12}")
for i, r in enumerate(results):
    peer = next((p for p in results[i:] if not p["command"].startswith("w8 ")), None)
    ratio = f"{med(r['times']) / med(peer['times']):.2f}" if r["command"].startswith("w8 ") and peer else ""
    print(f"{r['command']:<31} {med(r['task_clock']) * 1e3:>13.2f} {med(r['page_faults']):>11.0f} "
          f"{med(r['times']) * 1e3:>8.2f} {ratio:>12}")

def demangle(names):
    try:
        done = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(names), text=True,
                              capture_output=True, check=True).stdout.split("\n")
        return done[:len(names)] if len(done) >= len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names

def read(name):
    """(share, share, dso, symbol) a line: overhead and samples, or children and self."""
    rows = []
    for line in open(os.path.join(out, name)):
        fields = [f.strip() for f in line.rstrip("\n").split("\t")]
        if len(fields) >= 4 and fields[0].endswith("%"):
            dso = "kernel" if fields[2].startswith("[kernel") else fields[2]
            rows.append((float(fields[0][:-1]), float(fields[1].rstrip("%")), dso, fields[3].split("] ", 1)[-1]))
    return [r[:3] + (sym,) for r, sym in zip(rows, demangle([r[3] for r in rows]))]

def show(rows):
    for share, other, dso, sym in rows:
        sym = sym if len(sym) <= 90 else sym[:87] + "..."
        self_share = "" if other is None else f"{other:6.1f}%"
        print(f"  {share:5.1f}%{self_share}  {dso:<20} {sym}")

for name, label in (("status", "w8 status"), ("add", "w8 add 181, notifications off in config.toml"),
                    ("add-bare", "w8 add 181, no config.toml, no bus")):
    rows = read(name + ".tsv")
    dsos = {}
    for share, _, dso, _ in rows:
        dsos[dso] = dsos.get(dso, 0) + share
    shown = [(d, s) for d, s in sorted(dsos.items(), key=lambda x: -x[1]) if s >= 0.5]
    rest = sum(dsos.values()) - sum(s for _, s in shown)
    print(f"\nperf record -g, {runs} runs of {label} (unstripped build; w8's threads, "
          f"{sum(r[1] for r in rows):,.0f} samples)")
    others = f" · others {rest:.1f}%" if rest >= 0.05 else ""
    print("  by DSO: " + " · ".join(f"{d} {s:.1f}%" for d, s in shown) + others)
    print("  top symbols, self:")
    show([(s, None, d, y) for s, _, d, y in sorted(rows, key=lambda r: -r[0])[:12]])
    # Inclusive: w8's own functions below the entry points (w8_main, W8.main and its run), with callees.
    print("  w8's functions with their callees (children, self):")
    own = [r for r in read(name + ".children.tsv") if r[2] == "w8" and r[3] != "w8_main" and "W8.main()" not in r[3]]
    show(own[:10])
PY
