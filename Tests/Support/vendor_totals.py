#!/usr/bin/python3
"""A second reader of the scale and band vendors' exports, independent of w8's Swift code.

Reads one file with Python's csv module and prints its totals as one JSON object:
- weight files (Withings weight.csv, Samsung Health com.samsung.health.weight.*.csv): weights (count), kg_sum,
  with_body_fat, with_note, first and last (the oldest and newest instants, seconds since 1970);
- step files (Withings aggregates_steps.csv, Google Fit's Daily activity metrics.csv, Samsung Health's
  step_daily_trend): days, {date: [steps, metres]}.
The rules are the vendors' as Tests/Fixtures/import/README.md cites them: Withings writes local time (read in the
zone ZONE, the first argument), Samsung UTC; Samsung's first line is metadata, its rows end with an extra comma,
and a day's steps are the source_type -2 row; Google Fit's empty step count is no day. VendorImportCLITests compares
the totals with what `w8 log --json` and `w8 activity --json` hold after `w8 import`.
"""

import csv
import datetime
import json
import sys
import zoneinfo

LB_IN_KG = 0.45359237


def seconds(text, zone):
    text = text.split(".")[0]
    moment = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone)
    return int(moment.timestamp())


def weights(rows, date, weight, fat, note, zone, fat_is_mass, unit):
    found = []
    for row in rows:
        if not row.get(weight):
            continue
        kg = float(row[weight]) * (LB_IN_KG if unit == "lb" else 1)
        fat_value = row.get(fat) or ""
        has_fat = fat_value != "" and float(fat_value) != 0
        found.append((seconds(row[date], zone), kg, has_fat, bool(row.get(note))))
    instants = [f[0] for f in found]
    return {
        "weights": len(found),
        "kg_sum": round(sum(f[1] for f in found), 6),
        "with_body_fat": sum(1 for f in found if f[2]),
        "with_note": sum(1 for f in found if f[3]),
        "first": min(instants),
        "last": max(instants),
    }


def main(zone_name, path):
    zone = zoneinfo.ZoneInfo(zone_name)
    with open(path, encoding="utf-8", newline="") as file:
        lines = file.read().splitlines()
    base = path.rsplit("/", 1)[-1]
    days = {}
    if lines[0].startswith("com.samsung."):
        table = lines[0].split(",")[0]
        reader = csv.reader(lines[1:])
        header = [name.rsplit(".", 1)[-1] for name in next(reader)]
        rows = [dict(zip(header, row)) for row in reader if row]
        if table.endswith("step_daily_trend"):
            for row in rows:
                if row["source_type"] != "-2":
                    continue
                day = datetime.datetime.fromtimestamp(int(row["day_time"]) / 1000, datetime.timezone.utc)
                days[day.date().isoformat()] = [int(row["count"]), round(float(row["distance"]))]
        else:
            print(json.dumps(weights(rows, "start_time", "weight", "body_fat", "comment", datetime.timezone.utc,
                                     False, "kg"), sort_keys=True))
            return
    else:
        rows = list(csv.DictReader(lines))
        header = list(rows[0].keys()) if rows else []
        if header == ["date", "value"] and base.startswith("aggregates_steps"):
            for row in rows:
                days[row["date"]] = [int(row["value"]), 0]
        elif "Step count" in header:
            for row in rows:
                if row["Step count"]:
                    days[row["Date"]] = [int(row["Step count"]), round(float(row["Distance (m)"] or 0))]
        else:
            # Withings weight.csv, English or German, "(kg)" in the header.
            weight = next(n for n in header if n.split(" (")[0] in ("Weight", "Gewicht"))
            fat = next((n for n in header if n.split(" (")[0] in ("Fat mass", "Fettmasse")), None)
            note = next((n for n in header if n in ("Comments", "Kommentare")), None)
            unit = weight.split("(")[1].rstrip(")")
            print(json.dumps(weights(rows, "Date", weight, fat, note, zone, True, unit), sort_keys=True))
            return
    print(json.dumps({"days": days}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
