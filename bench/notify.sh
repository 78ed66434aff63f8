#!/usr/bin/env bash
# `w8 add` that crosses a milestone and posts it to a running dunst, against `notify-send` posting the same text to
# the same dunst, in the same run (bar: median ratio ≤ 2.0, issue 25, with every notification through libnotify);
# `w8 --version` against `notify-send --help` (≤ 2).
# dunst slows down as notifications pile up, so the screen is cleared (`dunstctl close-all`) before every timed run
# of both commands.
# Usage: bench/notify.sh PATH/TO/w8   (runs Xvfb, a private D-Bus session and dunst itself)
set -euo pipefail
. "$(dirname "$0")/common.sh"
rmdir "$work"

in_private_session "$0"

printf '[global]\n  stack_duplicates = false\n  history_length = 20\n' >"$WORK/dunstrc"
start_dunst "$WORK/dunstrc"
trap 'kill $dunst 2>/dev/null || true' EXIT

# A template home: goal 160 from 180, so that every `w8 add 175` crosses 25%. Each run starts from a copy.
home=$WORK/home
db=$home/data/w8trackr/w8trackr.sqlite
export HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config
"$w8" add 180 --date 2026-01-01 >/dev/null
"$w8" goal 160 --date 2026-01-01 >/dev/null
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
# As any earlier w8 leaves the home: w8 keeps the emptied WAL and its index beside the database (sqlite3, closing
# last, removed them), and the integrity stamp of the last changing command that checked the file (README, "Where the
# data lives"): `goal` again, the same journey, checks the file sqlite3 changed and records it. Each run starts from
# copies of the four files, their times kept (cp -p) and the database's inode too (cp onto the same file), so that the
# stamp still describes them, as it does after any w8 run; without -p every run paid the whole-file check.
"$w8" goal 160 --date 2026-01-01 >/dev/null
"$w8" status >/dev/null
for f in "" -wal -shm .checked; do cp -p "$db$f" "$WORK/template.sqlite$f"; done
reset="cp -p $WORK/template.sqlite $db && cp -p $WORK/template.sqlite-wal $db-wal && cp -p $WORK/template.sqlite-shm \
$db-shm && cp -p $WORK/template.sqlite.checked $db.checked"

# The text w8 posts for 25% of this journey, so that both post the same notification: `posted_text [LANG]` adds the
# weight from the template home, under LANG when given, and prints what dunst showed as "summary<TAB>body".
posted_text() {
    eval "$reset"
    local posted
    posted=$(env ${1:+LANG=$1} "$w8" add 175 --json)
    grep -q '"notified": "25"' <<<"$posted" || { echo "w8 add ${1:-} did not post through dunst: $posted" >&2; exit 1; }
    dunstctl close-all
    sleep 0.2
    dunstctl history | python3 -c '
import json, sys
n = json.load(sys.stdin)["data"][0][0]
print(n["summary"]["data"] + "\t" + n["body"]["data"])'
}
text=$(posted_text)
summary=${text%%$'\t'*} body=${text#*$'\t'}
[ -n "$summary" ] || { echo "dunst kept no history of the milestone" >&2; exit 1; }

# In alternation, round after round (interleave.py): the ratio of two commands is not at the mercy of a minute in
# which the shared machine or dunst was slower for one of them only.
# The peer posts the same notification w8 posts: app name, text, icon, category, urgency and desktop entry, so that
# dunst does the same work for both (an icon name it searches the themes for, or the file w8 found, as
# LibnotifyNotificationSink.resolveIcon finds the 48 px PNG first).
icon=w8trackr
for dir in "$XDG_DATA_HOME" $(tr ':' ' ' <<<"${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"); do
    [ -f "$dir/icons/hicolor/48x48/apps/w8trackr.png" ] && { icon=$dir/icons/hicolor/48x48/apps/w8trackr.png; break; }
done
peer=$(printf 'notify-send -a W8Trackr -i %q -c x-w8trackr.milestone -u normal -h string:desktop-entry:w8trackr %q %q' \
    "$icon" "$summary" "$body")
# The same under LANG=de_DE.UTF-8 (issue 29): w8 binds its catalog and posts the German text; the peer posts that
# German text, in the same locale. The catalogs are this tree's (`make catalogs`). The four commands alternate in one
# run, so that the German add and the English add are timed on the same machine minute too.
export W8TRACKR_LOCALEDIR=$(cd "$(dirname "$0")/.." && pwd)/.build/locale
text=$(posted_text de_DE.UTF-8)
summary_de=${text%%$'\t'*} body_de=${text#*$'\t'}
[ "$summary_de" != "$summary" ] || { echo "the German milestone is the English one: $summary_de" >&2; exit 1; }
peer_de=$(printf 'env LANG=de_DE.UTF-8 notify-send -a W8Trackr -i %q -c x-w8trackr.milestone -u normal -h string:desktop-entry:w8trackr %q %q' \
    "$icon" "$summary_de" "$body_de")
python3 "$(dirname "$0")/interleave.py" --warmup 3 --runs 60 --export-json "$out/notify.json" \
    --prepare "$reset && dunstctl close-all" -n "w8 add" "env LANG=C.UTF-8 $w8 add 175" \
    --prepare "dunstctl close-all" -n "notify-send" "env LANG=C.UTF-8 $peer" \
    --prepare "$reset && dunstctl close-all" -n "w8 add de" "env LANG=de_DE.UTF-8 $w8 add 175" \
    --prepare "dunstctl close-all" -n "notify-send de" "$peer_de"
hyperfine --style basic -N --warmup 5 --runs 50 --export-json "$out/version.json" \
    -n "w8 --version" "$w8 --version" -n "notify-send --help" "notify-send --help" >/dev/null

python3 - "$out" >>"$out/rows.tsv" <<'PY'
import json, os, sys
out = sys.argv[1]
def medians(name):
    return {x["command"]: x["median"] for x in json.load(open(os.path.join(out, name)))["results"]}
r = medians("notify.json")
w8, ns = r["w8 add"], r["notify-send"]
print(f"w8 add posting a milestone / notify-send\t{w8 / ns:.2f}\t≤2.0\t"
      f"LANG=C.UTF-8: median {w8 * 1000:.1f} ms vs {ns * 1000:.1f} ms, 60 runs each interleaved, dunst cleared before each")
w8_de, ns_de = r["w8 add de"], r["notify-send de"]
print(f"w8 add posting a milestone in German / notify-send\t{w8_de / ns_de:.2f}\t≤2.0\t"
      f"LANG=de_DE.UTF-8 for both: median {w8_de * 1000:.1f} ms vs {ns_de * 1000:.1f} ms, in the same rounds")
print(f"w8 add posting in German / in English\t{w8_de / w8:.2f}\t-\t"
      f"median {w8_de * 1000:.1f} ms vs {w8 * 1000:.1f} ms, in the same rounds")
r = medians("version.json")
w8, ns = r["w8 --version"], r["notify-send --help"]
print(f"w8 --version / notify-send --help\t{w8 / ns:.2f}\t≤2\tmedian {w8 * 1000:.1f} ms vs {ns * 1000:.1f} ms")
PY
