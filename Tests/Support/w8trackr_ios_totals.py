#!/usr/bin/python3
"""A second reader of the iPhone W8Trackr app's exports, independent of w8's Swift code.

Reads one export (the CSV `date,weight,unit,note,bodyFat` or the JSON `{"appVersion", "entries", ...}`) with
Python's own csv and json modules and prints its totals as one JSON object:
count, kg_sum (every weight in kg, lb x 0.45359237), with_body_fat, with_note, and first/last (the oldest and
newest instants in UTC, seconds since 1970). AppImportCLITests compares them with what `w8 log --json` holds
after `w8 import`.
"""

import csv
import datetime
import io
import json
import sys

LB_IN_KG = 0.45359237


def kilograms(weight, unit):
    if unit in ("lb", "lbs"):
        return weight * LB_IN_KG
    if unit == "kg":
        return weight
    raise ValueError(f"unit {unit!r}")


def utc_seconds(text):
    # The app writes UTC without a zone designator.
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")
    return int(moment.replace(tzinfo=datetime.timezone.utc).timestamp())


def csv_entries(text):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["date", "weight", "unit", "note", "bodyFat"], rows[0]
    for row in rows[1:]:
        if len(row) == 6:
            # A German phone writes the weight with an unquoted decimal comma: 79,5.
            row = [row[0], row[1] + "." + row[2]] + row[3:]
        date, weight, unit, note, fat = row
        yield date, float(weight), unit, note, fat


def json_entries(text):
    document = json.loads(text)
    assert document["entryCount"] == len(document["entries"])
    for entry in document["entries"]:
        fat = entry.get("bodyFatPercentage")
        yield entry["date"], float(entry["weight"]), entry["unit"], entry.get("note", ""), fat


def main(path):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    entries = list(json_entries(text) if text.lstrip().startswith("{") else csv_entries(text))
    instants = [utc_seconds(date) for date, *_ in entries]
    totals = {
        "count": len(entries),
        "kg_sum": round(sum(kilograms(weight, unit) for _, weight, unit, _, _ in entries), 6),
        "with_body_fat": sum(1 for *_, fat in entries if fat not in (None, "")),
        "with_note": sum(1 for _, _, _, note, _ in entries if note),
        "first": min(instants),
        "last": max(instants),
    }
    print(json.dumps(totals, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
