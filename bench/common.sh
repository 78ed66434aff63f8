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
