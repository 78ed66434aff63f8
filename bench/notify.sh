#!/usr/bin/env bash
# `w8 add` that crosses a milestone and posts it to a running dunst, against `notify-send` posting the same text to
# the same dunst, in the same run (bar: median ratio ≤ 1.5, issue 40; it was 2.0, issue 25);
# `w8 --version` against `notify-send --help` (≤ 1.2, issue 40), in the same rounds.
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

# Each run starts from a copy of the milestone home; the peer posts the notification w8 posts (common.sh).
milestone_home "$WORK/home"
peer=$(milestone_peer)
# The same under LANG=de_DE.UTF-8 (issue 29): w8 binds its catalog and posts the German text; the peer posts that
# German text, in the same locale. The catalogs are this tree's (`make catalogs`). The four commands alternate in one
# run, so that the German add and the English add are timed on the same machine minute too.
export W8TRACKR_LOCALEDIR=$(cd "$(dirname "$0")/.." && pwd)/.build/locale
peer_de=$(milestone_peer de_DE.UTF-8)
[ "$peer_de" != "$peer" ] || { echo "the German milestone is the English one: $peer_de" >&2; exit 1; }
# In alternation, round after round (interleave.py): the ratio of two commands is not at the mercy of a minute in
# which the shared machine or dunst was slower for one of them only.
python3 "$(dirname "$0")/interleave.py" --warmup 3 --runs 60 --export-json "$out/notify.json" \
    --prepare "$reset && dunstctl close-all" -n "w8 add" "env LANG=C.UTF-8 $w8 add 175" \
    --prepare "dunstctl close-all" -n "notify-send" "env LANG=C.UTF-8 $peer" \
    --prepare "$reset && dunstctl close-all" -n "w8 add de" "env LANG=de_DE.UTF-8 $w8 add 175" \
    --prepare "dunstctl close-all" -n "notify-send de" "env LANG=de_DE.UTF-8 $peer_de" \
    -n "w8 --version" "$w8 --version" -n "notify-send --help" "notify-send --help"

python3 - "$out" >>"$out/rows.tsv" <<'PY'
import json, os, sys
out = sys.argv[1]
def medians(name):
    return {x["command"]: x["median"] for x in json.load(open(os.path.join(out, name)))["results"]}
r = medians("notify.json")
w8, ns = r["w8 add"], r["notify-send"]
print(f"w8 add posting a milestone / notify-send\t{w8 / ns:.2f}\t≤1.5\t"
      f"LANG=C.UTF-8: median {w8 * 1000:.1f} ms vs {ns * 1000:.1f} ms, 60 runs each interleaved, dunst cleared before each")
w8_de, ns_de = r["w8 add de"], r["notify-send de"]
print(f"w8 add posting a milestone in German / notify-send\t{w8_de / ns_de:.2f}\t≤1.5\t"
      f"LANG=de_DE.UTF-8 for both: median {w8_de * 1000:.1f} ms vs {ns_de * 1000:.1f} ms, in the same rounds")
print(f"w8 add posting in German / in English\t{w8_de / w8:.2f}\t-\t"
      f"median {w8_de * 1000:.1f} ms vs {w8 * 1000:.1f} ms, in the same rounds")
w8, ns = r["w8 --version"], r["notify-send --help"]
print(f"w8 --version / notify-send --help\t{w8 / ns:.2f}\t≤1.2\tmedian {w8 * 1000:.1f} ms vs {ns * 1000:.1f} ms, "
      "in the same rounds")
PY
