#!/usr/bin/env python3
"""Writes a ten-year history as w8 JSON backups (`w8 export --format json`'s shape, version 3) for bench/sync.sh:
10,000 weigh-ins, 20,000 intake events (water, other drinks, meals, snacks) and 3,650 days of steps, the days from
2016-11-28 to 2026-11-25, the same bytes on every run (seeded).

Usage: sync_history.py DIR   writes DIR/history-0.json … DIR/history-3.json and prints their paths, one a line.

Why several files: `w8 import` reads a backup's `entries` streamed but every other member whole, and refuses a
value longer than 1 MiB (JSONObjectStream.defaultMaxValueBytes). 20,000 intake events are about 2 MB, so the
intake log goes in chunks of 5,000 (about 0.5 MB each); the first file holds the entries and the steps too.
"""
import datetime
import json
import random
import sys

DAYS = 3650
WEIGH_INS = 10_000
INTAKE = 20_000
CHUNK = 5_000


def history():
    rnd = random.Random(2026)
    first = datetime.datetime(2016, 11, 28)
    moment = lambda day, hour, minute: (first + datetime.timedelta(days=day, hours=hour, minutes=minute)).strftime(
        "%Y-%m-%dT%H:%M:%S+00:00")
    entries, intake, activity = [], [], []
    weight = 92.0
    for day in range(DAYS):
        # The day's share of each total, so that the totals are exact: weigh-ins mornings (and some evenings),
        # drinks and meals through the day.
        weigh_ins = (day + 1) * WEIGH_INS // DAYS - day * WEIGH_INS // DAYS
        events = (day + 1) * INTAKE // DAYS - day * INTAKE // DAYS
        weight += rnd.uniform(-0.25, 0.245)
        weight = min(max(weight, 68.0), 96.0)
        for k in range(weigh_ins):
            entries.append({
                "id": len(entries) + 1, "date": moment(day, 6 + 7 * k, rnd.randrange(60)),
                "weight": round(weight + rnd.uniform(-0.6, 0.6), 1), "unit": "kg", "note": None,
                "body_fat_percent": round(rnd.uniform(18, 26), 1) if k == 0 and day % 7 == 0 else None,
            })
        for k in range(events):
            kind = rnd.choices(("water", "beverage", "meal", "snack"), (50, 12, 28, 10))[0]
            event = {"kind": kind, "date": moment(day, 7 + 14 * k // events, rnd.randrange(60)),
                     "volume_ml": None, "calories": 0, "note": None}
            if kind == "water":
                event["volume_ml"] = rnd.choice((250, 330, 500))
            elif kind == "beverage":
                event["volume_ml"], event["calories"] = rnd.choice(((250, 110), (330, 140), (200, 5)))
            else:
                event["calories"] = rnd.randrange(300, 900) if kind == "meal" else rnd.randrange(80, 300)
                if rnd.random() < 0.1:
                    event["note"] = rnd.choice(("pasta", "salad", "apple", "soup and bread"))
            intake.append(event)
        steps = rnd.randrange(1500, 16000)
        activity.append({"day": moment(day, 0, 0)[:10], "source": "gadgetbridge", "steps": steps,
                         "distance_m": steps * 7 // 10})
    return entries, intake, activity


def main(directory):
    entries, intake, activity = history()
    assert (len(entries), len(intake), len(activity)) == (WEIGH_INS, INTAKE, DAYS)
    base = {"format": "w8trackr-backup", "version": 3, "w8_version": "0.1.0",
            "exported_at": "2026-11-28T00:00:00+00:00", "settings": {}, "goal": None, "milestones_achieved": [],
            "achievements": []}
    for part in range(INTAKE // CHUNK):
        document = dict(base, intake=intake[part * CHUNK:(part + 1) * CHUNK],
                        activity=activity if part == 0 else [], entries=entries if part == 0 else [])
        path = f"{directory}/history-{part}.json"
        with open(path, "w") as f:
            json.dump(document, f, separators=(",", ":"))
        print(path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
