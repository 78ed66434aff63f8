#!/usr/bin/env bash
# Benchmarks that report ratios against a peer measured in the same run, never absolute timings in tests.
#   1. `w8 add` and `w8 status` with 100,000 entries stored vs with 10 (bar ≤ 1.2: no full scans).
#   2. `w8 status` and `w8 widget` (which a waybar module runs on every refresh) with a dense last year (20 entries a
#      day for 365 days up to now, 7,300 entries: all read by the one-year trend) vs with 10 (bar ≤ 1.2).
# Usage: bench/run.sh PATH/TO/w8
set -euo pipefail
. "$(dirname "$0")/common.sh"
trap 'rm -rf "$work"' EXIT

# A home with N entries: a goal, then N-1 entries inserted straight into SQLite, dated before now.
seed() {
    local home=$1 n=$2
    mkdir -p "$home"
    HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config "$w8" add 200 --date 2020-01-01 >/dev/null
    HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config "$w8" goal 150 --date 2020-01-01 >/dev/null
    sqlite3 "$home/data/w8trackr/w8trackr.sqlite" "
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT $((n - 1)))
        INSERT INTO entry (date, weight, unit, note, created_at)
        SELECT strftime('%Y-%m-%d %H:%M:%f', '2020-01-02', '+' || x || ' minutes'), 190 + (x % 7) * 0.1, 'lb', NULL,
               strftime('%Y-%m-%d %H:%M:%f', 'now')
        FROM c;"
}

# A home with a dense last year: the seed's one entry of 2020, then 20 entries a day (every 72 minutes) back from now.
seed_year() {
    local home=$1
    seed "$home" 1
    sqlite3 "$home/data/w8trackr/w8trackr.sqlite" "
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 7300)
        INSERT INTO entry (date, weight, unit, note, created_at)
        SELECT strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (x * 72) || ' minutes'), 190 - (x % 11) * 0.1, 'lb', NULL,
               strftime('%Y-%m-%d %H:%M:%f', 'now')
        FROM c;"
}

seed "$work/small" 10
seed "$work/large" 100000
seed_year "$work/year"
for size in small large year; do
    echo "$size: $(sqlite3 "$work/$size/data/w8trackr/w8trackr.sqlite" 'SELECT count(*) FROM entry') entries"
done

env_for() { echo "HOME=$work/$1 XDG_DATA_HOME=$work/$1/data XDG_CONFIG_HOME=$work/$1/config DBUS_SESSION_BUS_ADDRESS=disabled:"; }

# The dense year against the small home while it holds its 10 entries (the `add` runs below add 43 of today).
for cmd in status widget; do
    hyperfine --style basic --warmup 3 --runs 40 -N \
        --export-json "$out/$cmd-year.json" \
        -n "$cmd-10" "env $(env_for small) $w8 $cmd" \
        -n "$cmd-year" "env $(env_for year) $w8 $cmd" >/dev/null
done

# No session bus: `add` measures recording and evaluation, not a notification server.
for cmd in "add 190.5" "status"; do
    name=${cmd%% *}
    hyperfine --style basic --warmup 3 --runs 40 -N \
        --export-json "$out/$name.json" \
        -n "$name-10" "env $(env_for small) $w8 $cmd" \
        -n "$name-100k" "env $(env_for large) $w8 $cmd" >/dev/null
done

python3 - "$out" >>"$out/rows.tsv" <<'PY'
import json, sys, os
out = sys.argv[1]
def ratio(file, name, small, large, label):
    results = {r["command"]: r["median"] for r in json.load(open(os.path.join(out, file)))["results"]}
    a, b = results[small], results[large]
    print(f"{name}\t{b / a:.2f}\t≤1.2\tmedian {b * 1000:.1f} ms vs {a * 1000:.1f} ms ({label})")
for cmd in ("status", "widget"):
    ratio(f"{cmd}-year.json", f"w8 {cmd}: 7,300 entries in the last year / 10 entries", f"{cmd}-10", f"{cmd}-year",
          "the dense year vs 10")
for cmd in ("add", "status"):
    ratio(f"{cmd}.json", f"w8 {cmd}: 100,000 entries / 10 entries", f"{cmd}-10", f"{cmd}-100k", "100k vs 10")
PY
