#!/usr/bin/env bash
# The size of the binary `make install` installs (stripped) next to the release build's, the number of shared
# libraries it loads, and the size of the .deb built from it. Reports only.
# Usage: bench/size.sh PATH/TO/w8   (the unstripped release build)
set -euo pipefail
. "$(dirname "$0")/common.sh"
trap 'rm -rf "$work"' EXIT
strip --strip-all -o "$work/w8" "$w8"
mib() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
row "installed binary (stripped), MiB" "$(mib "$work/w8")" "-" "release build unstripped: $(mib "$w8") MiB"
libs=$(ldd "$work/w8" | wc -l)
row "shared libraries loaded by w8 add" "$libs" "-" "ldd; none of cairo, X11: $(ldd "$work/w8" | grep -c -i -E 'cairo|libX|xcb' || true)"
deb=$("$(dirname "$0")/../packaging/debian/build-deb" "$w8" "$work")
row ".deb, MiB" "$(mib "$deb")" "-" "$(basename "$deb")"
