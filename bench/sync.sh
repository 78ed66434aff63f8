#!/usr/bin/env bash
# Sync between machines (README "Sync between your machines"), three measures:
#   1. Merging a ten-year history from scratch: home A imports 10,000 weigh-ins, 20,000 intake events and 3,650 days
#      of steps (sync_history.py's backups) and `w8 sync start F` writes them as its journal (33,650 lines); then
#      `w8 sync start F` on a fresh home B, which merges all of them, against `sqlite3` reading the same journal
#      lines into the same tables (entry, intake_event, activity_day and the per-entity stamps, sync_entity, with
#      w8's indexes) in one transaction of a fresh WAL database with synchronous=FULL. Both times and the ratio; no
#      bar. Timed in alternation by interleave.py (SYNC_RUNS, default 3).
#   2. An incremental merge of one new event adds ≤ 2 ms to `w8 status`: with B in step with that folder, `w8 status`
#      on B when nothing new arrived, and right after `w8 add` on A appended one line to A's journal (its
#      preparation, untimed, ended by `sync` so that the kernel's writeback of A's files, which on two machines is
#      the other machine's, does not land in B's time), in the same rounds (SYNC_ROUNDS, default 150), with
#      `w8 status` on a home holding the same data that never joined a folder; the difference of the medians (bar
#      ≤ 2 ms).
#   3. A journal grows by at most 150 bytes per weigh-in: SYNC_ADDS (default 1000) `w8 add` on A, which is synced,
#      and its journal's bytes after minus before, over their number (bar ≤ 150).
# Every w8 run has its own HOME and XDG directories and no session bus; sqlite3 runs under `env` with a HOME of its
# own too (no ~/.sqliterc), so that neither side has a wrapper the other lacks. The script fails only if the data is
# wrong (a count after an import, a merge or the rounds).
# Usage: bench/sync.sh PATH/TO/w8
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
runs=${SYNC_RUNS:-3}
rounds=${SYNC_ROUNDS:-150}
adds=${SYNC_ADDS:-1000}
trap 'rm -rf "$work"' EXIT
began=$EPOCHREALTIME

env_for() { echo "HOME=$work/$1 XDG_DATA_HOME=$work/$1/data XDG_CONFIG_HOME=$work/$1/config XDG_CACHE_HOME=$work/$1/cache DBUS_SESSION_BUS_ADDRESS=disabled:"; }
db_of() { echo "$work/$1/data/w8trackr/w8trackr.sqlite"; }
w8_in() { local home=$1; shift; env $(env_for "$home") "$w8" "$@"; }
# counts DATABASE: "entries intake days" in it; counts_in HOME: in that home's database.
counts() {
    sqlite3 "$1" "SELECT (SELECT count(*) FROM entry) || ' ' || (SELECT count(*) FROM intake_event) || ' '
        || (SELECT count(*) FROM activity_day)"
}
counts_in() { counts "$(db_of "$1")"; }
expect() {  # expect WHAT GOT WANTED
    [ "$2" = "$3" ] || { echo "sync.sh: $1: $2, expected $3" >&2; exit 1; }
}
ms_since() { python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1000))" "$1" "$EPOCHREALTIME"; }

# The history: A and a home that never joins ("off") import the same backups.
folder=$work/folder
mkdir -p "$folder" "$work/a" "$work/off" "$work/b" "$work/peerhome"
python3 "$here/sync_history.py" "$work" >"$work/parts"
while read -r part; do
    w8_in a import "$part" >/dev/null
    w8_in off import "$part" >/dev/null
done <"$work/parts"
expect "home A after the import" "$(counts_in a)" "10000 20000 3650"
expect "the home that never joins, after the import" "$(counts_in off)" "10000 20000 3650"

# A writes its journal: every row as one line, at clock zero (history).
start=$EPOCHREALTIME
w8_in a sync start "$folder" >"$work/a-start.out"
written_ms=$(ms_since "$start")
grep -q '^Synced: 33650 events written' "$work/a-start.out" \
    || { echo "sync.sh: w8 sync start on A: $(cat "$work/a-start.out")" >&2; exit 1; }
device=$(ls "$folder/w8trackr/devices")
journal=$folder/w8trackr/devices/$device
journal_bytes=$(cat "$journal"/*.jsonl | wc -c)
events=$(cat "$journal"/*.jsonl | wc -l)

# The peer reads A's journal lines into the tables w8 merges into (w8's schema for them), one transaction.
peer=$work/peer.sqlite
{
    cat <<'SQL'
PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
CREATE TABLE entry (id INTEGER PRIMARY KEY AUTOINCREMENT, date DATETIME NOT NULL, weight DOUBLE NOT NULL CHECK (weight > 0),
    unit TEXT NOT NULL CHECK (unit IN ('lb', 'kg')), note TEXT, body_fat_percent DOUBLE, created_at DATETIME NOT NULL, uid TEXT);
CREATE INDEX entry_on_date ON entry (date, id);
CREATE UNIQUE INDEX entry_on_uid ON entry (uid) WHERE uid IS NOT NULL;
CREATE TABLE intake_event (id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('water', 'beverage', 'meal', 'snack', 'calories')), date DATETIME NOT NULL,
    volume_ml INTEGER CHECK ((volume_ml IS NULL) OR ((volume_ml > 0) AND (volume_ml <= 5000))),
    calories INTEGER NOT NULL CHECK ((calories >= 0) AND (calories <= 10000)) DEFAULT 0, note TEXT,
    created_at DATETIME NOT NULL, uid TEXT);
CREATE INDEX intake_event_on_date ON intake_event (date, id);
CREATE UNIQUE INDEX intake_event_on_uid ON intake_event (uid) WHERE uid IS NOT NULL;
CREATE TABLE activity_day (day TEXT NOT NULL, source TEXT NOT NULL, steps INTEGER NOT NULL CHECK (steps >= 0),
    distance_m INTEGER NOT NULL CHECK (distance_m >= 0) DEFAULT 0, updated_at DATETIME NOT NULL, PRIMARY KEY (day, source));
CREATE TABLE sync_entity (kind TEXT NOT NULL, entity TEXT NOT NULL, clock_ms INTEGER NOT NULL, clock_counter INTEGER NOT NULL,
    device TEXT NOT NULL, sequence INTEGER NOT NULL, deleted INTEGER NOT NULL, data_sum TEXT,
    PRIMARY KEY (kind, entity)) WITHOUT ROWID;
CREATE INDEX sync_entity_on_device ON sync_entity (device, sequence);
CREATE TEMP TABLE line (j TEXT);
.mode ascii
.separator "\t" "\n"
SQL
    for file in "$journal"/*.jsonl; do echo ".import $file line"; done
    cat <<'SQL'
BEGIN;
CREATE TEMP TABLE ev AS SELECT j ->> '$.id' AS id, j ->> '$.hlc[0]' AS ms, j ->> '$.hlc[1]' AS counter, j ->> '$.put' AS kind,
    j ->> '$.ent' AS ent, j -> '$.data' AS data, j ->> '$.sum' AS sum FROM line;
INSERT INTO entry (date, weight, unit, note, body_fat_percent, created_at, uid)
    SELECT strftime('%Y-%m-%d %H:%M:%f', (data ->> 't') / 1000.0, 'unixepoch'), data ->> 'w', data ->> 'u', data ->> 'n',
        data ->> 'f', strftime('%Y-%m-%d %H:%M:%f', 'now'), ent FROM ev WHERE kind = 'weight';
INSERT INTO intake_event (kind, date, volume_ml, calories, note, created_at, uid)
    SELECT data ->> 'k', strftime('%Y-%m-%d %H:%M:%f', (data ->> 't') / 1000.0, 'unixepoch'), data ->> 'v', data ->> 'c',
        data ->> 'n', strftime('%Y-%m-%d %H:%M:%f', 'now'), ent FROM ev WHERE kind = 'intake';
INSERT INTO activity_day (day, source, steps, distance_m, updated_at)
    SELECT substr(ent, 1, 10), substr(ent, 12), data ->> 's', data ->> 'm', strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM ev WHERE kind = 'steps';
INSERT INTO sync_entity
    SELECT kind, ent, ms, counter, substr(id, 1, instr(id, '.') - 1), substr(id, instr(id, '.') + 1), 0, sum FROM ev;
COMMIT;
SQL
} >"$work/peer.sql"

# 1. B merges the whole folder from scratch. Its preparation empties B and removes the device directories earlier
# B runs left in the folder (each fresh B is a new device); the last B stays, in step, for the next measure.
python3 "$here/interleave.py" --runs "$runs" --warmup 1 --export-json "$out/sync-merge.json" \
    --prepare "rm -rf $work/b && mkdir $work/b && find $folder/w8trackr/devices -mindepth 1 -maxdepth 1 ! -name $device -exec rm -rf {} +" \
    -n "w8 sync start" "env $(env_for b) $w8 sync start $folder" \
    --prepare "rm -f $peer $peer-wal $peer-shm" \
    -n "sqlite3" "env HOME=$work/peerhome sqlite3 $peer '.read $work/peer.sql'"
expect "home B after merging A's journal" "$(counts_in b)" "10000 20000 3650"
expect "the peer's tables" "$(counts "$peer")" "10000 20000 3650"
w8_in b status >/dev/null  # B in step, its first read after the merge done

# 2. `w8 status` on B with nothing new, and right after one new line in A's journal, in the same rounds.
python3 "$here/interleave.py" --runs "$rounds" --warmup 3 --export-json "$out/sync-status.json" \
    -n "in step" "env $(env_for b) $w8 status" \
    --prepare "env $(env_for a) $w8 add 176.4 && sync" \
    -n "one new event" "env $(env_for b) $w8 status" \
    -n "sync off" "env $(env_for off) $w8 status"
expect "home B after the rounds (each merged one new weigh-in)" "$(counts_in b)" "$((10000 + rounds + 3)) 20000 3650"

# 3. Bytes per weigh-in of A's journal (all its months; meta.json is no journal).
before=$(cat "$journal"/*.jsonl | wc -c)
lines_before=$(cat "$journal"/*.jsonl | wc -l)
for i in $(seq "$adds"); do
    w8_in a add "17$((i % 10)).$((i % 7))" >/dev/null
done
after=$(cat "$journal"/*.jsonl | wc -c)
lines_after=$(cat "$journal"/*.jsonl | wc -l)
expect "home A's entries after the adds" "$(counts_in a)" "$((10000 + rounds + 3 + adds)) 20000 3650"

python3 - "$out" "$runs" "$rounds" "$adds" "$events" "$journal_bytes" "$written_ms" "$before" "$after" \
    "$lines_before" "$lines_after" >"$work/rows.tsv" <<'PY'
import json, os, sys
out = sys.argv[1]
runs, rounds, adds, events, journal_bytes, written_ms, before, after, lines_before, lines_after = map(int, sys.argv[2:])
def medians(file):
    return {r["command"]: r["median"] for r in json.load(open(os.path.join(out, file)))["results"]}
m = medians("sync-merge.json")
w8, peer = m["w8 sync start"], m["sqlite3"]
print(f"w8 sync start merging a ten-year journal / sqlite3\t{w8 / peer:.2f}\t-\t"
      f"median {w8:.2f} s vs {peer:.2f} s, {runs} runs interleaved: {events:,} lines, {journal_bytes / 1048576:.1f} MiB "
      f"(10,000 weigh-ins, 20,000 intake events, 3,650 days of steps); {events / w8:,.0f} vs {events / peer:,.0f} "
      f"events/s; writing the journal on A: {written_ms / 1000:.1f} s, once")
s = medians("sync-status.json")
steady, new, off = s["in step"], s["one new event"], s["sync off"]
print(f"w8 status after one new event - in step, ms\t{(new - steady) * 1000:.2f}\t≤2\t"
      f"median {new * 1000:.1f} ms vs {steady * 1000:.1f} ms, {rounds} rounds interleaved, `w8 add` on A before each")
print(f"w8 status in step with the ten-year folder / sync off\t{steady / off:.2f}\t-\t"
      f"median {steady * 1000:.1f} ms vs {off * 1000:.1f} ms (the same data, a home that never joined), same rounds")
print(f"sync journal bytes per weigh-in (w8 add)\t{(after - before) / adds:.1f}\t≤150\t"
      f"{adds} adds on A: {before:,} → {after:,} bytes, {lines_after - lines_before} lines")
PY
cat "$work/rows.tsv" >>"$out/rows.tsv"
"$here/table.py" "$work"
echo "sync.sh: $(($(ms_since "$began") / 1000)) s"
