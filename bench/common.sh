# Sourced by the bench scripts: the w8 under test ($1, default the release build), the output directory
# ($BENCH_OUT, default artifacts/bench) and a scratch directory in $work that the script removes on exit.
w8=$(realpath "${1:-.build/release/w8}")
out=${BENCH_OUT:-artifacts/bench}
mkdir -p "$out"
work=$(mktemp -d)
