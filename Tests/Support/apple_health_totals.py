#!/usr/bin/python3
"""A second reader of Apple Health's export.xml (or export.zip), independent of w8's Swift code.

Reads the top-level Records of HealthData with xml.etree.ElementTree.iterparse (Records inside a Correlation repeat
top-level ones and are left out), drops exact duplicates (type, source, start, end, value), and prints one JSON
object: weights (count) and kg_sum, with_body_fat, steps and distance_m per local day in TZ (each second of a day
counted once, from the highest-priority source: Apple Watch, then iPhone, then other apps, a sample's value spread
evenly over its seconds), water_ml and water_events, calories and calorie_events. AppleHealthImportCLITests compares
it with what `w8 log --json`, `w8 activity --json` and `w8 intake --json` hold after `w8 import`.

Usage: apple_health_totals.py FILE TZ
"""

import datetime
import io
import json
import sys
import xml.etree.ElementTree as ET
import zipfile
from zoneinfo import ZoneInfo

LB_IN_KG = 0.45359237
METRES = {"m": 1, "km": 1000, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144}
MILLILITRES = {"mL": 1, "L": 1000, "fl_oz_us": 29.5735295625, "cup_us": 236.5882365}
KILOCALORIES = {"kcal": 1, "Cal": 1, "kJ": 1 / 4.184}
Q = "HKQuantityTypeIdentifier"


def instant(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z")


def rank(record):
    device = record.get("device", "")
    if "model:Watch" in device or "name:Apple Watch" in device or "Watch" in record.get("sourceName", ""):
        return 0
    return 1 if "model:iPhone" in device else 2


def top_level_records(stream):
    depth = 0
    for event, element in ET.iterparse(stream, events=("start", "end")):
        if event == "start":
            depth += 1
            continue
        depth -= 1
        if element.tag == "Record" and depth == 1:
            yield dict(element.attrib)
        if depth <= 1:
            element.clear()


def main(path, zone_name):
    zone = ZoneInfo(zone_name)
    if zipfile.is_zipfile(path):
        archive = zipfile.ZipFile(path)
        name = next(n for n in archive.namelist() if n == "export.xml" or n.endswith("/export.xml"))
        stream = io.BytesIO(archive.read(name))
    else:
        stream = open(path, "rb")
    seen = set()
    weights, fats, samples = {}, {}, []
    water, calories = [], []
    for record in top_level_records(stream):
        key = (record["type"], record.get("sourceName"), record["startDate"], record["endDate"], record.get("value"))
        if key in seen:
            continue
        seen.add(key)
        kind, unit = record["type"][len(Q):], record.get("unit")
        if kind not in ("BodyMass", "BodyFatPercentage", "StepCount", "DistanceWalkingRunning", "DietaryWater",
                        "DietaryEnergyConsumed"):
            continue  # a category's value is a word (HKCategoryValueSleepAnalysisAsleep), and w8 reads none of them
        value = float(record.get("value", "nan"))
        start, end = instant(record["startDate"]), instant(record["endDate"])
        if kind == "BodyMass":
            weights[start] = value * LB_IN_KG if unit == "lb" else value
        elif kind == "BodyFatPercentage":
            fats[start] = value
        elif kind in ("StepCount", "DistanceWalkingRunning"):
            amount = value if kind == "StepCount" else value * METRES[unit]
            samples.append((kind, rank(record), record.get("sourceName"), start, end, amount))
        elif kind == "DietaryWater":
            water.append(round(value * MILLILITRES[unit]))
        elif kind == "DietaryEnergyConsumed":
            calories.append(round(value * KILOCALORIES[unit]))

    days = {}
    for kind in ("StepCount", "DistanceWalkingRunning"):
        covered = {}
        for _, _, _, start, end, amount in sorted(
            (s for s in samples if s[0] == kind), key=lambda s: (s[1], s[2], s[3], s[4])
        ):
            day = start.astimezone(zone).date().isoformat()
            seconds = range(int(start.timestamp()), int(end.timestamp()))
            taken = covered.setdefault(day, set())
            free = [s for s in seconds if s not in taken]
            share = len(free) / len(seconds) if seconds else 1
            taken.update(free)
            totals = days.setdefault(day, [0.0, 0.0])
            totals[0 if kind == "StepCount" else 1] += amount * share
    activity = {day: [round(steps), round(metres)] for day, (steps, metres) in sorted(days.items())}
    print(
        json.dumps(
            {
                "weights": len(weights),
                "kg_sum": round(sum(weights.values()), 6),
                "with_body_fat": len([s for s in weights if s in fats]),
                "activity": activity,
                "water_ml": sum(water),
                "water_events": len(water),
                "calories": sum(calories),
                "calorie_events": len(calories),
            },
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
