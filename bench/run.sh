#!/usr/bin/env bash
# Benchmarks that report ratios against a peer measured in the same run, never absolute timings in tests.
#   1. `w8 add` and `w8 status` with 100,000 entries stored vs with 10 (target ≤ 1.2: no full scans).
#   2. `w8 status` with a dense last year (20 entries a day for 365 days up to now, 7,300 entries: all read by the
#      one-year trend) vs with 10 (target ≤ 1.5).
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
hyperfine --style basic --warmup 3 --runs 40 -N \
    --export-json "$out/status-year.json" \
    -n "status-10" "env $(env_for small) $w8 status" \
    -n "status-year" "env $(env_for year) $w8 status" >/dev/null

# No session bus: `add` measures recording and evaluation, not a notification server.
for cmd in "add 190.5" "status"; do
    name=${cmd%% *}
    hyperfine --style basic --warmup 3 --runs 40 -N \
        --export-json "$out/$name.json" \
        -n "$name-10" "env $(env_for small) $w8 $cmd" \
        -n "$name-100k" "env $(env_for large) $w8 $cmd" >/dev/null
done

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
lines = []
for name in ("add", "status"):
    results = {r["command"]: r for r in json.load(open(os.path.join(out, name + ".json")))["results"]}
    small, large = results[name + "-10"]["median"], results[name + "-100k"]["median"]
    ratio = large / small
    verdict = "ok" if ratio <= 1.2 else "MISSES target 1.2"
    lines.append(f"w8 {name}: 100k entries / 10 entries = {ratio:.3f} (median {large*1000:.2f} ms vs {small*1000:.2f} ms) {verdict}")
results = {r["command"]: r for r in json.load(open(os.path.join(out, "status-year.json")))["results"]}
small, year = results["status-10"]["median"], results["status-year"]["median"]
ratio = year / small
verdict = "ok" if ratio <= 1.5 else "MISSES target 1.5"
lines.append(f"w8 status: dense last year (7,300 entries) / 10 entries = {ratio:.3f} "
             f"(median {year*1000:.2f} ms vs {small*1000:.2f} ms) {verdict}")
print("\n".join(lines))
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
PY
