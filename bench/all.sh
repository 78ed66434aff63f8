#!/usr/bin/env bash
# `make bench`: every bench script against the binary that is installed (BIN, stripped here as `make install`
# strips it), then ONE table of the ratios they measured in this run, each against its bar.
# Usage: bench/all.sh PATH/TO/w8   (the unstripped release build, .build-pkg/release/w8)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "${BENCH_OUT:-artifacts/bench}")
mkdir -p "$out"
rm -f "$out/rows.tsv"
bin=$out/w8
strip --strip-all -o "$bin" "$1"
export BENCH_OUT=$out
"$here/size.sh" "$1"
"$here/notify.sh" "$bin"
PROFILE_BARS=1 "$here/profile.sh" "$bin"
"$here/run.sh" "$bin"
"$here/import.sh" "$bin"
"$here/apple-health.sh" "$bin"
"$here/sync.sh" "$bin"
"$here/idle.sh" "$bin"
"$here/idle-presence.sh" "$bin"
echo
"$here/table.py" "$out" | tee "$out/table.txt"
