#!/usr/bin/env bash
# `w8 import` of a generated Apple Health export.xml of at least 1 GiB (bench/apple_health_export.py: years of
# heart rate, energy, overlapping watch and phone steps and distance, weigh-ins, water, food, Correlations and
# Workouts) into an empty home, against libxml2's `xmllint --stream --noout` reading the same file once, in the same
# run, warm cache (each read once before timing). Reports the ratio and w8's peak memory (max RSS, GNU time; bar:
# under 100 MiB, the import runs in constant memory). Fails only if the import is wrong (not one weigh-in and one
# day of steps per generated day).
# Usage: bench/apple-health.sh PATH/TO/w8   (HEALTH_SIZE: bytes, default 1 GiB; HEALTH_RUNS: timed runs, default 3)
set -euo pipefail
. "$(dirname "$0")/common.sh"
runs=${HEALTH_RUNS:-3}
trap 'rm -rf "$work"' EXIT
command -v xmllint >/dev/null || { echo "apple-health.sh: xmllint missing (scripts/install-deps: libxml2-utils)" >&2; exit 1; }

xml=$work/export.xml
facts=$(python3 "$(dirname "$0")/apple_health_export.py" "$xml" "${HEALTH_SIZE:-1073741824}")
days=$(echo "$facts" | python3 -c 'import json,sys; print(json.load(sys.stdin)["days"])')
cat "$xml" >/dev/null  # warm the cache for both

env_for() { echo "HOME=$work/$1 XDG_DATA_HOME=$work/$1/data XDG_CONFIG_HOME=$work/$1/config XDG_CACHE_HOME=$work/$1/cache XDG_STATE_HOME=$work/$1/state DBUS_SESSION_BUS_ADDRESS=disabled: TZ=Europe/Berlin"; }

env $(env_for rss) /usr/bin/time -v "$w8" import "$xml" >"$work/rss.out" 2>"$work/rss.time"
grep -q "Imported: $days added, 0 already present, 0 skipped" "$work/rss.out" \
    || { echo "w8 import of the generated export: $(cat "$work/rss.out" "$work/rss.time")" >&2; exit 1; }
grep -q "Activity log: $days days of steps added" "$work/rss.out" \
    || { echo "w8 import of the generated export: $(cat "$work/rss.out")" >&2; exit 1; }
rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/rss.time")

hyperfine --style basic --runs "$runs" --export-json "$out/apple-health.json" \
    --prepare "rm -rf $work/fresh" -n "w8 import" "env $(env_for fresh) $w8 import $xml" \
    -n "xmllint --stream" "xmllint --stream --noout $xml" >/dev/null

python3 - "$out" "$rss" "$(stat -c %s "$xml")" "$facts" >>"$out/rows.tsv" <<'PY'
import json, os, sys
out, rss, size, facts = sys.argv[1], int(sys.argv[2]) / 1024, int(sys.argv[3]) / 1048576, json.loads(sys.argv[4])
r = {x["command"]: x["median"] for x in json.load(open(os.path.join(out, "apple-health.json")))["results"]}
w8, peer = r["w8 import"], r["xmllint --stream"]
print(f"w8 import of a {size:,.0f} MiB Apple Health export.xml / xmllint --stream\t{w8 / peer:.2f}\t-\t"
      f"median {w8:.1f} s vs {peer:.1f} s: {size / w8:.0f} vs {size / peer:.0f} MiB/s; {facts['records']:,} records, "
      f"{facts['days']:,} days")
print(f"w8 import Apple Health export.xml peak memory, MiB\t{rss:.1f}\t≤100\tmax RSS of importing {size:,.0f} MiB")
PY
