#!/usr/bin/env python3
"""Writes a realistic Apple Health export.xml of at least SIZE bytes (default 1 GiB) to PATH, for bench/apple-health.sh.

Apple's DTD first (HealthKit Export Version 8, as rgosdin/docs commit 793bb33 apple_health_export/export.xml has it),
then years of days, each: heart-rate samples every few minutes from the watch (with a MetadataEntry), active
energy burned, step and walking/running distance samples from the phone and the watch (overlapping, as real ones
do), a weigh-in with body fat, water and energy eaten, a blood-pressure Correlation that repeats its two Records,
and a Workout with events and metadata. Timestamps carry +0100 or +0200 by the day's offset in Europe/Berlin.
Prints the number of days, records and kept steps/distance samples, as JSON.
Usage: apple_health_export.py PATH [SIZE]
"""
import datetime
import json
import random
import sys
from zoneinfo import ZoneInfo

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 8 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute)*)>
<!ELEMENT WorkoutEvent EMPTY>
<!ELEMENT ActivitySummary EMPTY>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2026-11-20 21:07:11 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-06-16" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
"""
WATCH = ('&lt;&lt;HKDevice: 0x283c90a50&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, '
         'hardware:Watch4,2, software:5.1.3&gt;')
PHONE = ('&lt;&lt;HKDevice: 0x282e3a260&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, '
         'hardware:iPhone10,4, software:12.3&gt;')
Q = "HKQuantityTypeIdentifier"
ZONE = ZoneInfo("Europe/Berlin")


def main(path, size):
    rnd = random.Random(28)
    day = datetime.date(2016, 1, 1)
    days = records = kept = 0
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        out.write(DTD)
        written = len(DTD)
        while written < size:
            midnight = datetime.datetime(day.year, day.month, day.day, tzinfo=ZONE)
            z = midnight.strftime("%z")
            def at(minute):
                t = midnight + datetime.timedelta(minutes=minute)
                return t.strftime("%Y-%m-%d %H:%M:%S ") + z
            parts = []
            add = parts.append
            def rec(type_, source, device, unit, start, end, value, meta=None):
                nonlocal records
                records += 1
                d = f' device="{device}"' if device else ""
                head = (f' <Record type="{Q}{type_}" sourceName="{source}" sourceVersion="5.1.3"{d} unit="{unit}" '
                        f'creationDate="{at(end + 1)}" startDate="{at(start)}" endDate="{at(end)}" value="{value}"')
                if meta:
                    add(head + ">\n" + "".join(f'  <MetadataEntry key="{k}" value="{v}"/>\n' for k, v in meta)
                        + " </Record>\n")
                else:
                    add(head + "/>\n")
            for m in range(0, 1440, 4):
                rec("HeartRate", "Anna’s Apple Watch", WATCH, "count/min", m, m, rnd.randint(55, 140),
                    [("HKMetadataKeyHeartRateMotionContext", rnd.randint(0, 2))])
                rec("ActiveEnergyBurned", "Anna’s Apple Watch", WATCH, "kcal", m, m + 4, f"{rnd.uniform(0.1, 9):.3f}")
            for m in range(420, 1320, 12):
                for source, device, shift in (("Anna’s Apple Watch", WATCH, 0), ("Anna’s iPhone", PHONE, 5)):
                    steps = rnd.randint(0, 900)
                    rec("StepCount", source, device, "count", m + shift, m + shift + 10, steps)
                    rec("DistanceWalkingRunning", source, device, "km", m + shift, m + shift + 10,
                        f"{steps * 0.00075:.5f}")
                    kept += 2
            rec("BodyMass", "Withings", "", "kg", 450, 450, f"{rnd.uniform(70, 90):.1f}")
            rec("BodyFatPercentage", "Withings", "", "%", 450, 450, f"{rnd.uniform(0.18, 0.26):.3f}")
            for m in (540, 780, 1000):
                rec("DietaryWater", "WaterMinder", "", "mL", m, m, 250)
                rec("DietaryEnergyConsumed", "MyFitnessPal", "", "kcal", m + 10, m + 10, rnd.randint(300, 900))
            add(f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Withings" '
                f'sourceVersion="4.6.1" creationDate="{at(461)}" startDate="{at(460)}" endDate="{at(460)}">\n'
                f'  <Record type="{Q}BloodPressureSystolic" sourceName="Withings" unit="mmHg" creationDate="{at(461)}" '
                f'startDate="{at(460)}" endDate="{at(460)}" value="121"/>\n'
                f'  <Record type="{Q}BloodPressureDiastolic" sourceName="Withings" unit="mmHg" creationDate="{at(461)}" '
                f'startDate="{at(460)}" endDate="{at(460)}" value="79"/>\n </Correlation>\n')
            add(f' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" '
                f'totalDistance="2.1" totalDistanceUnit="km" totalEnergyBurned="120" totalEnergyBurnedUnit="kcal" '
                f'sourceName="Anna’s Apple Watch" sourceVersion="5.1.3" device="{WATCH}" creationDate="{at(1111)}" '
                f'startDate="{at(1080)}" endDate="{at(1110)}">\n  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                f'  <WorkoutEvent type="HKWorkoutEventTypePause" date="{at(1090)}"/>\n </Workout>\n')
            add(f' <ActivitySummary dateComponents="{day}" activeEnergyBurned="412.5" activeEnergyBurnedGoal="400" '
                f'activeEnergyBurnedUnit="kcal" appleExerciseTime="34" appleExerciseTimeGoal="30" '
                f'appleStandHours="11" appleStandHoursGoal="12"/>\n')
            text = "".join(parts)
            out.write(text)
            written += len(text.encode())
            days += 1
            day += datetime.timedelta(days=1)
        out.write("</HealthData>\n")
    print(json.dumps({"days": days, "records": records, "kept_samples": kept, "last_day": str(day)}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30)
