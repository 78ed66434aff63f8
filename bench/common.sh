# Sourced by the bench scripts: the w8 under test ($1, default the release build), the output directory
# ($BENCH_OUT, default artifacts/bench) and a scratch directory in $work that the script removes on exit.
# `row` appends one line of the table that bench/table.py prints.
w8=$(realpath "${1:-.build/release/w8}")
out=$(realpath -m "${BENCH_OUT:-artifacts/bench}")
mkdir -p "$out"
work=$(mktemp -d)

# row NAME VALUE BAR DETAIL: the ratio (or figure) VALUE against its bar (`≤ N`, or `-` when it is only reported).
row() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$out/rows.tsv"
}

# in_private_session SCRIPT: unless already inside, runs SCRIPT again (with $w8) under its own Xvfb and a private
# D-Bus session (dbus-run-session), with WORK its scratch directory, then exits; inside, returns at once.
in_private_session() {
    [ "${W8_BENCH_INNER:-}" = 1 ] && return
    work=$(mktemp -d)
    trap 'kill $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
    exec 3>"$work/display"
    Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 >"$work/xvfb.log" 2>&1 &
    xvfb=$!
    for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
    export DISPLAY=":$(head -1 "$work/display")" W8_BENCH_INNER=1 WORK=$work
    dbus-run-session -- "$1" "$w8"
    exit
}

# idle_switches DAEMON LOG: waits IDLE_SECONDS (default 60) beside a `sleep` peer, the first quarter (at most 2 s) to
# let the daemon settle; prints "DAEMON_SWITCHES PEER_SWITCHES SECONDS", the voluntary and involuntary
# context switches of all the daemon's threads and of the peer over the SECONDS measured. Fails when the daemon exited.
idle_switches() {
    local seconds=${IDLE_SECONDS:-60} settle measured peer d0 p0 d1 p1
    settle=$(awk -v s="$seconds" 'BEGIN { x = s / 4; if (x > 2) x = 2; print x }')
    measured=$(awk -v s="$seconds" -v t="$settle" 'BEGIN { print s - t }')
    sleep $((seconds + 5)) &
    peer=$!
    sleep "$settle"
    kill -0 "$1" 2>/dev/null || { echo "w8 daemon exited: $(cat "$2")" >&2; exit 1; }
    d0=$(thread_switches "$1"); p0=$(thread_switches $peer)
    sleep "$measured"
    d1=$(thread_switches "$1"); p1=$(thread_switches $peer)
    kill $peer 2>/dev/null || true
    echo "$((d1 - d0)) $((p1 - p0)) $measured"
}

thread_switches() {  # total voluntary + involuntary context switches of every thread of $1
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'
}

# start_dunst CONFIG: starts dunst with CONFIG on this session's bus, its pid in $dunst, and returns once it owns
# org.freedesktop.Notifications (at most 5 s).
start_dunst() {
    dunst -config "$1" >"$WORK/dunst.log" 2>&1 &
    dunst=$!
    for _ in $(seq 100); do
        gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true && break
        sleep 0.05
    done
}

# milestone_home DIR: makes DIR the home (HOME, XDG_DATA_HOME and XDG_CONFIG_HOME, exported) of a journey whose every
# `w8 add 175` crosses 25 % of the goal (160 from 180), and sets $reset, the shell command that puts its database
# back before each run.
milestone_home() {
    local db=$1/data/w8trackr/w8trackr.sqlite
    export HOME=$1 XDG_DATA_HOME=$1/data XDG_CONFIG_HOME=$1/config
    "$w8" add 180 --date 2026-01-01 >/dev/null
    "$w8" goal 160 --date 2026-01-01 >/dev/null
    sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    # As any earlier w8 leaves the home: w8 keeps the emptied WAL and its index beside the database (sqlite3, closing
    # last, removed them), and the integrity stamp of the last changing command that checked the file (README, "Where
    # the data lives"): `goal` again, the same journey, checks the file sqlite3 changed and records it. Each run starts
    # from copies of the four files, their times kept (cp -p) and the database's inode too (cp onto the same file), so
    # that the stamp still describes them, as it does after any w8 run; without -p every run paid the whole-file check.
    "$w8" goal 160 --date 2026-01-01 >/dev/null
    "$w8" status >/dev/null
    for f in "" -wal -shm .checked; do cp -p "$db$f" "$WORK/template.sqlite$f"; done
    reset="cp -p $WORK/template.sqlite $db && cp -p $WORK/template.sqlite-wal $db-wal && cp -p \
$WORK/template.sqlite-shm $db-shm && cp -p $WORK/template.sqlite.checked $db.checked"
}

# posted_text [LANG]: adds the weight from the milestone home, under LANG when given, and prints what dunst showed
# as "summary<TAB>body".
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

# milestone_peer [LANG]: the `notify-send` command that posts what `w8 add 175` posts from the milestone home (under
# LANG when given): app name, text, icon, category, urgency and desktop entry, so that dunst does the same work for
# both (an icon name it searches the themes for, or the file w8 found, as LibnotifyNotificationSink.resolveIcon finds
# the 48 px PNG first).
milestone_peer() {
    local text summary body icon=w8trackr dir
    text=$(posted_text "$@")
    summary=${text%%$'\t'*} body=${text#*$'\t'}
    [ -n "$summary" ] || { echo "dunst kept no history of the milestone" >&2; exit 1; }
    for dir in "$XDG_DATA_HOME" $(tr ':' ' ' <<<"${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"); do
        dir=$dir/icons/hicolor/48x48/apps/w8trackr.png
        [ -f "$dir" ] && { icon=$dir; break; }
    done
    printf 'notify-send -a W8Trackr -i %q -c x-w8trackr.milestone -u normal -h string:desktop-entry:w8trackr %q %q' \
        "$icon" "$summary" "$body"
}
