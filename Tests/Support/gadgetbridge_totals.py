#!/usr/bin/python3
"""A second reader of a Gadgetbridge database, independent of w8's Swift code.

Usage: gadgetbridge_totals.py DATABASE ZONE

Opens the database read only with Python's sqlite3 and prints one JSON object:
- "days": each local day (in ZONE) with steps, {"YYYY-MM-DD": steps}. Every table with TIMESTAMP, DEVICE_ID and
  STEPS columns but XIAOMI_DAILY_SUMMARY_SAMPLE (a day's summary, in milliseconds) is read. In each minute, of the
  devices with a sample of STEPS >= 0 in it, the lowest DEVICE_ID wins, and its STEPS > 0 count (Gadgetbridge's
  -1 is "not measured"). GARMIN_ACTIVITY_SAMPLE and CMF_ACTIVITY_SAMPLE hold the day's running total, read as
  differences first. Days without a step are left out.
- "distance_m": the same days' distance in whole metres, from the same winning samples: GARMIN_ACTIVITY_SAMPLE's
  DISTANCE_CM (a running total too) and HUAWEI_ACTIVITY_SAMPLE's DISTANCE in metres; no other table has one.
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


# Tables whose STEPS are the day's running total; the app turns them into differences (convertCumulativeSteps).
RUNNING_TOTALS = {"GARMIN_ACTIVITY_SAMPLE", "CMF_ACTIVITY_SAMPLE"}


# Centimetres of a sample, where the app has them (getDistanceCm); every other table's is "not measured".
CENTIMETRES = {
    "GARMIN_ACTIVITY_SAMPLE": "DISTANCE_CM",
    "HUAWEI_ACTIVITY_SAMPLE": "CASE WHEN DISTANCE = -1 THEN -1 ELSE DISTANCE * 100 END",
}


def differences(samples, local_day):
    """Running totals as what they add to the device's previous totals of the same day (the day of the second
    before); a value not above 0 stays as it is."""
    out, last = [], {}
    for timestamp, device, steps, cm in samples:
        day = local_day(timestamp - 1)
        before = last.get(device)
        if not before or before[0] != day:
            before = (day, 0, 0)
        steps_before, cm_before = before[1], before[2]
        if steps is not None and steps > 0:
            steps, steps_before = steps - steps_before, steps
        if cm is not None and cm > 0:
            cm, cm_before = cm - cm_before, cm
        last[device] = (day, steps_before, cm_before)
        out.append((timestamp, device, steps, cm))
    return out


def main():
    path, zone = sys.argv[1], zoneinfo.ZoneInfo(sys.argv[2])
    db = sqlite3.connect("file:" + urllib.parse.quote(path) + "?mode=ro&immutable=1", uri=True)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def columns(table):
        return {row[1].upper() for row in db.execute(f'PRAGMA table_info("{table}")')}

    def local_day(seconds):
        return datetime.datetime.fromtimestamp(seconds, zone).date()

    # minute -> device -> [steps (None while only "not measured" samples were seen), centimetres]
    minutes = collections.defaultdict(dict)
    for table in tables:
        if table == "XIAOMI_DAILY_SUMMARY_SAMPLE" or not {"TIMESTAMP", "DEVICE_ID", "STEPS"} <= columns(table):
            continue
        cm = CENTIMETRES.get(table, "-1")
        samples = db.execute(f'SELECT TIMESTAMP, DEVICE_ID, STEPS, {cm} FROM "{table}" ORDER BY DEVICE_ID, TIMESTAMP')
        if table in RUNNING_TOTALS:
            samples = differences(list(samples), local_day)
        for timestamp, device, steps, cm in samples:
            slot = minutes[timestamp // 60].setdefault(device, [None, 0])
            if steps is not None and steps >= 0:
                slot[0] = (slot[0] or 0) + steps
            if cm is not None and cm > 0:
                slot[1] += cm

    days, centimetres = collections.Counter(), collections.Counter()
    for minute, devices in minutes.items():
        measured = sorted(device for device, (steps, _) in devices.items() if steps is not None)
        if not measured or devices[measured[0]][0] <= 0:
            continue
        day = local_day(minute * 60).isoformat()
        days[day] += devices[measured[0]][0]
        centimetres[day] += devices[measured[0]][1]
    # Half a metre up, as Swift's rounded() does (Python's round() goes to the even one).
    distance_m = {day: int(centimetres[day] / 100 + 0.5) for day in days}

    weights = []
    if "MI_SCALE_WEIGHT_SAMPLE" in tables:
        for millis, kg in db.execute("SELECT TIMESTAMP, WEIGHT_KG FROM MI_SCALE_WEIGHT_SAMPLE ORDER BY TIMESTAMP"):
            weights.append([millis // 1000, round(kg, 2)])

    print(json.dumps({"days": dict(days), "distance_m": distance_m, "weights": weights}, sort_keys=True))


if __name__ == "__main__":
    main()
