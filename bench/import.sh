#!/usr/bin/env bash
# `w8 import` of a generic date,weight CSV of 100,000 rows into an empty home (one transaction), against `sqlite3`
# importing the same CSV into an indexed table in one transaction, in the same run: rows per second and the ratio.
# The idempotent re-import of the same file (0 added) is timed the same way. Peak memory (max RSS, GNU time) of
# importing 100,000 rows vs 10,000 (target ≤ 1.5: bounded memory, rows are streamed). Reports only; the script fails
# only if the import is wrong (not 100,000 entries, or a re-import that adds any). Bar: w8 / sqlite3 ≤ 6.
# The JSON backups (`w8 export --format json`) of the 10k and 100k homes are then restored into empty homes: their
# peak memory, 100k / 10k (bar ≤ 1.5: the backup is read streamed).
# Usage: bench/import.sh PATH/TO/w8   (IMPORT_RUNS: timed runs of each import, default 5)
set -euo pipefail
. "$(dirname "$0")/common.sh"
runs=${IMPORT_RUNS:-5}
trap 'rm -rf "$work"' EXIT

# date,weight every 5 minutes from 2015-01-01 (100,000 rows end in December 2015), 70.0–90.0 kg; the 10k file is
# the first 10,000 rows.
python3 - "$work" <<'PY'
import datetime, random, sys
work = sys.argv[1]
start, rnd = datetime.datetime(2015, 1, 1), random.Random(8)
with open(f"{work}/100k.csv", "w") as large, open(f"{work}/10k.csv", "w") as small:
    large.write("date,weight\n"); small.write("date,weight\n")
    for i in range(100_000):
        row = f"{(start + datetime.timedelta(minutes=5 * i)):%Y-%m-%dT%H:%M:%S},{rnd.randint(700, 900) / 10:.1f}\n"
        large.write(row)
        if i < 10_000:
            small.write(row)
PY

env_for() { echo "HOME=$work/$1 XDG_DATA_HOME=$work/$1/data XDG_CONFIG_HOME=$work/$1/config XDG_CACHE_HOME=$work/$1/cache DBUS_SESSION_BUS_ADDRESS=disabled:"; }
db_of() { echo "$work/$1/data/w8trackr/w8trackr.sqlite"; }

# Peak memory, each into an empty home. The 100k home, checked, is then the template of the re-import.
max_rss() {  # kbytes of `w8 import FILE --unit kg` into the empty home $1
    env $(env_for "$1") /usr/bin/time -v "$w8" import "$2" --unit kg >"$work/$1.out" 2>"$work/$1.time"
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$1.time"
}
rss10=$(max_rss rss10k "$work/10k.csv")
rss100=$(max_rss template "$work/100k.csv")
grep -q 'Imported: 10000 added, 0 already present, 0 skipped' "$work/rss10k.out" \
    || { echo "w8 import of 10k rows: $(cat "$work/rss10k.out")" >&2; exit 1; }
grep -q 'Imported: 100000 added, 0 already present, 0 skipped' "$work/template.out" \
    || { echo "w8 import of 100k rows: $(cat "$work/template.out")" >&2; exit 1; }

count=$(env $(env_for template) "$w8" log --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$count" = 100000 ] || { echo "w8 log --json after importing 100k rows: $count entries" >&2; exit 1; }
sqlite3 "$(db_of template)" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
again=$(env $(env_for template) "$w8" import "$work/100k.csv" --unit kg)
echo "$again" | grep -q 'Imported: 0 added, 100000 already present, 0 skipped' \
    || { echo "w8 re-import of the same 100k rows: $again" >&2; exit 1; }
count=$(sqlite3 "$(db_of template)" 'SELECT count(*) FROM entry')
[ "$count" = 100000 ] || { echo "after re-importing the same 100k rows: $count entries" >&2; exit 1; }
sqlite3 "$(db_of template)" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null

# The peer: the same CSV into a WAL database's table with an index on date, one transaction (.import's own).
cat >"$work/peer.sql" <<SQL
PRAGMA journal_mode = WAL;
CREATE TABLE t (date TEXT NOT NULL, weight REAL NOT NULL);
CREATE INDEX t_on_date ON t (date);
.import --csv --skip 1 $work/100k.csv t
SQL
peer=$work/peer.sqlite
sqlite3 "$peer" <"$work/peer.sql" >/dev/null
[ "$(sqlite3 "$peer" 'SELECT count(*) FROM t')" = 100000 ] || { echo "sqlite3 .import did not import 100k rows" >&2; exit 1; }

hyperfine --style basic --runs "$runs" --export-json "$out/import.json" \
    --prepare "rm -rf $work/fresh" -n "w8 import" "env $(env_for fresh) $w8 import $work/100k.csv --unit kg" \
    --prepare "rm -rf $work/again && cp -a $work/template $work/again" \
    -n "w8 re-import" "env $(env_for again) $w8 import $work/100k.csv --unit kg" \
    --prepare "rm -f $peer $peer-wal $peer-shm" -n "sqlite3 .import" "sqlite3 $peer <$work/peer.sql" >/dev/null

# The streamed backup: each home's JSON backup restored into an empty home, peak memory measured.
env $(env_for rss10k) "$w8" export --format json -o "$work/10k.json"
env $(env_for template) "$w8" export --format json -o "$work/100k.json"
restore_rss() {  # kbytes of `w8 import BACKUP` into the empty home $1
    env $(env_for "$1") /usr/bin/time -v "$w8" import "$2" >"$work/$1.out" 2>"$work/$1.time"
    grep -q "Imported: $3 added" "$work/$1.out" || { echo "w8 import $2: $(cat "$work/$1.out" "$work/$1.time")" >&2; exit 1; }
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$1.time"
}
json10=$(restore_rss json10k "$work/10k.json" 10000)
json100=$(restore_rss json100k "$work/100k.json" 100000)

python3 - "$out" "$rss10" "$rss100" "$json10" "$json100" "$(stat -c %s "$work/100k.json")" >>"$out/rows.tsv" <<'PY'
import json, os, sys
out = sys.argv[1]
rss10, rss100, json10, json100 = (int(x) / 1024 for x in sys.argv[2:6])
size = int(sys.argv[6]) / 1048576
r = {x["command"]: x["median"] for x in json.load(open(os.path.join(out, "import.json")))["results"]}
w8, again, peer = r["w8 import"], r["w8 re-import"], r["sqlite3 .import"]
print(f"w8 import of a 100k-row CSV / sqlite3 .import\t{w8 / peer:.2f}\t≤6\t"
      f"median {w8:.2f} s vs {peer:.2f} s: {100_000 / w8:,.0f} vs {100_000 / peer:,.0f} rows/s")
print(f"w8 re-import of the same CSV (0 added) / sqlite3 .import\t{again / peer:.2f}\t-\tmedian {again:.2f} s")
print(f"w8 import CSV peak memory, 100k rows / 10k rows\t{rss100 / rss10:.2f}\t≤1.5\t"
      f"max RSS {rss100:.1f} MiB vs {rss10:.1f} MiB")
print(f"w8 import JSON backup peak memory, 100k entries / 10k\t{json100 / json10:.2f}\t≤1.5\t"
      f"max RSS {json100:.1f} MiB vs {json10:.1f} MiB; the 100k backup is {size:.1f} MiB")
PY
