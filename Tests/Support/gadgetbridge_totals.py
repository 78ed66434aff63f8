#!/usr/bin/python3
"""A second reader of a Gadgetbridge database, independent of w8's Swift code.

Usage: gadgetbridge_totals.py DATABASE ZONE

Opens the database read only with Python's sqlite3 and prints one JSON object:
- "days": each local day (in ZONE) with steps, {"YYYY-MM-DD": steps}. Every table with TIMESTAMP, DEVICE_ID and
  STEPS columns but XIAOMI_DAILY_SUMMARY_SAMPLE (a day's summary, in milliseconds) is read. In each minute, of the
  devices with a sample of STEPS >= 0 in it, the lowest DEVICE_ID wins, and its STEPS > 0 count (Gadgetbridge's
  -1 is "not measured"). Days without a step are left out.
- "weights": MI_SCALE_WEIGHT_SAMPLE as [[seconds since 1970, kg rounded to 0.01]], oldest first.
GadgetbridgeCLITests compares them with `w8 activity --json` and `w8 log --json` after `w8 import`.
"""

import collections
import datetime
import json
import sqlite3
import sys
import urllib.parse
import zoneinfo


def main():
    path, zone = sys.argv[1], zoneinfo.ZoneInfo(sys.argv[2])
    db = sqlite3.connect("file:" + urllib.parse.quote(path) + "?mode=ro&immutable=1", uri=True)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def columns(table):
        return {row[1].upper() for row in db.execute(f'PRAGMA table_info("{table}")')}

    # minute -> device -> steps (None while only "not measured" samples were seen)
    minutes = collections.defaultdict(dict)
    for table in tables:
        if table == "XIAOMI_DAILY_SUMMARY_SAMPLE" or not {"TIMESTAMP", "DEVICE_ID", "STEPS"} <= columns(table):
            continue
        for timestamp, device, steps in db.execute(f'SELECT TIMESTAMP, DEVICE_ID, STEPS FROM "{table}"'):
            slot = minutes[timestamp // 60]
            measured = steps if steps is not None and steps >= 0 else None
            before = slot.get(device)
            if measured is None:
                slot.setdefault(device, None)
            else:
                slot[device] = measured + (before or 0)

    days = collections.Counter()
    for minute, devices in minutes.items():
        measured = sorted(device for device, steps in devices.items() if steps is not None)
        if not measured or devices[measured[0]] <= 0:
            continue
        day = datetime.datetime.fromtimestamp(minute * 60, zone).date().isoformat()
        days[day] += devices[measured[0]]

    weights = []
    if "MI_SCALE_WEIGHT_SAMPLE" in tables:
        for millis, kg in db.execute("SELECT TIMESTAMP, WEIGHT_KG FROM MI_SCALE_WEIGHT_SAMPLE ORDER BY TIMESTAMP"):
            weights.append([millis // 1000, round(kg, 2)])

    print(json.dumps({"days": dict(sorted(days.items())), "weights": weights}, sort_keys=True))


if __name__ == "__main__":
    main()
