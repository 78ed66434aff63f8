#!/usr/bin/env bash
# Issue 40: writes packaging/start-order.txt, the order in which `make release` asks lld to lay out w8's functions
# (`--symbol-ordering-file`): the functions the common commands run, those of `w8 --version` first, then those that
# `status`, `widget`, `add` and the others add, so that a command's code sits in few pages instead of being spread
# over the binary's 19 MB of code (bench/README.md, "Issue 40: the code in the order it runs").
#
# Each command runs once under `valgrind --tool=callgrind` (which records every function that runs, not a sample),
# on the release build with its symbols and without its debug information (which valgrind cannot read), in a home of
# its own with ten entries and a goal, under LANG=C.UTF-8 and TZ=UTC, with no session bus. Functions whose input
# section holds other functions too (objects built without function sections: CoreFoundation, parts of ICU) are
# listed last, since the linker can only move those sections whole.
#
# Run it again (`make start-order`) after changes to what a command runs; functions the file does not name are laid
# out after those it names, and names it lists that no longer exist are ignored.
# Usage: bench/start-order.sh PATH/TO/w8   (the unstripped release build, .build-pkg/release/w8)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
w8=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "start-order.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }

bin=$work/w8
strip --strip-debug -o "$bin" "$w8"
h=$work/home
mkdir -p "$h/run"
chmod 700 "$h/run"
export HOME=$h XDG_DATA_HOME=$h/data XDG_CONFIG_HOME=$h/config XDG_CACHE_HOME=$h/cache XDG_STATE_HOME=$h/state \
    XDG_RUNTIME_DIR=$h/run LANG=C.UTF-8 TZ=UTC
unset DBUS_SESSION_BUS_ADDRESS LC_ALL LANGUAGE
for i in $(seq 10 -1 1); do "$bin" add $((190 - i)) --date "2026-01-$((21 - i))" >/dev/null; done
"$bin" goal 160 --date 2026-01-11 >/dev/null

runs=0
profile() {
    runs=$((runs + 1))
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$(printf %02d $runs).out" "$bin" "$@" \
        >/dev/null 2>"$work/valgrind.log" || true
}
# The commands `make bench` times first, then the others.
profile --version
profile status
profile widget --format waybar
profile add 179
mkdir -p "$XDG_CONFIG_HOME/w8trackr"
printf '[notifications]\nenabled = false\n' >"$XDG_CONFIG_HOME/w8trackr/config.toml"
profile add 178.5
profile status
rm "$XDG_CONFIG_HOME/w8trackr/config.toml"
profile add 178 --json
profile status --json
profile widget --format json
profile --help
profile status --help
profile log
profile today
profile drink 250
profile summary
profile milestones
profile add heavy
profile statuss

# The names of functions that share their input section, in the objects the release build links: its own and the
# toolchain's static libraries.
toolchain=$(dirname "$(realpath "$(command -v "${SWIFT:-swift}")")")/../lib/swift_static/linux
objects=$(dirname "$(realpath "$w8")")
for object in "$toolchain"/*.a "$toolchain"/x86_64/swiftrt.o "$objects"/*.build/*.o; do
    objdump -t "$object" 2>/dev/null | awk '$0 ~ / F \.text\t/ { print $NF }'
done | sort -u >"$work/shared"

{
    echo "# Written by bench/start-order.sh: the order of w8's functions for lld (--symbol-ordering-file)."
    echo "# $runs commands under callgrind; regenerate with \`make start-order\`."
    python3 "$here/callgrind_functions.py" "/w8" "$work/shared" "$work"/*.out
} >"$root/packaging/start-order.txt"
echo "packaging/start-order.txt: $(grep -vc '^#' "$root/packaging/start-order.txt") functions, from $runs commands"
