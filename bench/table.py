#!/usr/bin/env python3
"""Prints the rows the bench scripts appended to OUT/rows.tsv as one table, and each against its bar."""
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1] + "/rows.tsv")]
width = max(len(r[0]) for r in rows)
print(f"{'measure':<{width}}  {'value':>9}  {'bar':>6}  {'verdict':<7}  detail")
for name, value, bar, detail in rows:
    verdict = "-"
    if bar.startswith("≤"):
        verdict = "ok" if float(value) <= float(bar[1:]) else "MISSES"
    print(f"{name:<{width}}  {value:>9}  {bar:>6}  {verdict:<7}  {detail}")
