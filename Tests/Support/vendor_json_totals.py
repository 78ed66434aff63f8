#!/usr/bin/python3
"""A second reader of Fitbit's and Garmin's JSON exports, independent of w8's Swift code.

Usage: vendor_json_totals.py FILE ZONE [UNIT]

Reads one file with Python's json module: Fitbit's weight-*.json (weights in UNIT, lb or kg, as the account kept
them) or steps-*.json (a count a minute, in UTC), or Garmin Connect's *_userBioMetrics.json (grams) or
UDSFile_*.json (a day's totalSteps and totalDistanceMeters). Prints one JSON object: weights (count), kg_sum,
with_body_fat, and steps / distance_m (per local day in ZONE, "YYYY-MM-DD": total). VendorImportCLITests compares
them with what `w8 log --json` and `w8 activity --json` hold after `w8 import`.
"""

import datetime
import json
import sys
import zoneinfo

LB_IN_KG = 0.45359237


def whole(number):
    # Half away from zero, as Swift's rounded(), not Python's round-half-even.
    return int(number + 0.5) if number >= 0 else -int(-number + 0.5)


def main(path, zone, unit="lb"):
    with open(path, encoding="utf-8") as file:
        records = json.load(file)
    assert isinstance(records, list), "not an array"
    totals = {"weights": 0, "kg_sum": 0.0, "with_body_fat": 0, "steps": {}, "distance_m": {}}
    first = records[0] if records else {}
    if "logId" in first:
        for record in records:
            totals["weights"] += 1
            totals["kg_sum"] += record["weight"] * (LB_IN_KG if unit == "lb" else 1)
            totals["with_body_fat"] += 1 if record.get("fat") else 0
    elif "dateTime" in first:
        seen = set()
        local = zoneinfo.ZoneInfo(zone)
        for record in records:
            if record["dateTime"] in seen:
                continue
            seen.add(record["dateTime"])
            moment = datetime.datetime.strptime(record["dateTime"], "%m/%d/%y %H:%M:%S")
            day = moment.replace(tzinfo=datetime.timezone.utc).astimezone(local).date().isoformat()
            totals["steps"][day] = totals["steps"].get(day, 0) + int(record["value"])
            totals["distance_m"][day] = 0
    elif "metaData" in first:
        for record in records:
            weight = record.get("weight")
            if not weight:
                continue
            totals["weights"] += 1
            totals["kg_sum"] += weight["weight"] / 1000
            totals["with_body_fat"] += 1 if weight.get("bodyFat") else 0
    else:
        for record in records:
            if record.get("totalSteps") is None:
                continue
            day = record["calendarDate"][:10]
            totals["steps"][day] = int(record["totalSteps"])
            totals["distance_m"][day] = whole(record.get("totalDistanceMeters") or 0)
    totals["kg_sum"] = round(totals["kg_sum"], 6)
    print(json.dumps(totals, sort_keys=True))


if __name__ == "__main__":
    main(*sys.argv[1:])
