#!/usr/bin/env python3
"""w8's Apple Health XML scanner against libxml2 (xmllint), over generated documents.

    health_xml_differential.py W8 COUNT SEED WORKDIR

Writes COUNT seeded Apple Health documents in the shape of a real export (Tests/Fixtures/import/README.md: the XML
declaration, Apple's DOCTYPE with its internal subset, one-space indent, Record attributes in Apple's order), each
varied in the ways XML allows (attribute order, quotes, white space around '=', character and predefined entity
references, comments, processing instructions, CDATA and text between records, MetadataEntry children, an empty
element written open and closed, a Correlation whose Records repeat top-level ones), and some made malformed in one
way libxml2 refuses. For each, libxml2 is asked whether the document is well-formed (`xmllint --noout`) and what
its top-level BodyMass records are (`xmllint --c14n`, entities expanded, attributes in canonical form); w8 imports
it (`w8 import --format apple-health` in a home of its own, in UTC) and lists what it holds (`w8 log --json`).

They must agree: a document libxml2 calls malformed is refused by w8 (exit 65, nothing held), and one it accepts
gives w8 exactly its weigh-ins, instant and kilograms. Prints one JSON line per disagreement and a last line
`N passed, M failed`; exits 1 when any failed.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from datetime import datetime

# Apple's DOCTYPE with its internal subset, as bench/apple_health_export.py writes a real export's (its source is
# named there and in Tests/Fixtures/import/README.md): one copy for the bench and both differential harnesses.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from apple_health_export import DTD  # noqa: E402

DOCTYPE = DTD[DTD.index("<!DOCTYPE"):DTD.index("<HealthData")]
MALFORMED = ["unclosed", "mismatched", "unquoted", "duplicate", "lt-in-value", "undefined-entity", "bare-amp",
             "second-root", "bad-char-ref", "end-before-start"]


def quote(text, rng):
    """`text` as an attribute value's characters, some written as references."""
    out = []
    for ch in text:
        special = {"&": "&amp;", "<": "&lt;", '"': "&quot;", "'": "&apos;", ">": "&gt;"}
        if ch in special:
            out.append(special[ch])
        elif rng.random() < 0.1 and not ch.isspace():
            out.append(rng.choice([f"&#{ord(ch)};", f"&#x{ord(ch):X};", f"&#x{ord(ch):x};"]))
        else:
            out.append(ch)
    return "".join(out)


def attributes(pairs, rng):
    written = []
    for name, value in pairs:
        q = rng.choice(['"', "'"]) if rng.random() < 0.3 else '"'
        value = quote(value, rng)
        if q == "'":
            value = value.replace("'", "&apos;")
        else:
            value = value.replace('"', "&quot;")
        eq = rng.choice(["=", " = ", "=\n  ", "\t=\t"]) if rng.random() < 0.2 else "="
        written.append(f"{name}{eq}{q}{value}{q}")
    sep = rng.choice([" ", "\n  ", "\t"]) if rng.random() < 0.2 else " "
    return sep.join(written)


def record(kind, unit, value, start, rng, source="Health"):
    pairs = [("type", f"HKQuantityTypeIdentifier{kind}"), ("sourceName", source), ("sourceVersion", "17.1"),
             ("unit", unit), ("creationDate", start), ("startDate", start), ("endDate", start), ("value", value)]
    if rng.random() < 0.3:
        rng.shuffle(pairs)
    head = f"<Record {attributes(pairs, rng)}"
    children = ""
    if rng.random() < 0.2:
        children = "\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n "
    if children or rng.random() < 0.2:
        return f"{head}>{children}</Record>"
    return head + rng.choice(["/>", " />", "\n/>"])


def document(rng, malformed):
    weights = []
    body = []
    day = rng.randrange(0, 3000)
    for n in range(rng.randrange(1, 12)):
        when = datetime.fromtimestamp(1_500_000_000 + (day + n) * 86400 + rng.randrange(0, 86400))
        offset = rng.choice(["+0000", "+0100", "-0500", "+0530"])
        start = when.strftime("%Y-%m-%d %H:%M:%S") + " " + offset
        if rng.random() < 0.1:
            # A blank written as a tab, a line feed or CR LF: XML reads each as a space in an attribute's value.
            start = start.replace(" ", rng.choice(["\t", "\n", "\r\n"]), 1)
        kg = round(rng.uniform(50, 150), 1)
        unit, value = ("kg", kg) if rng.random() < 0.5 else ("lb", round(kg / 0.45359237, 1))
        source = rng.choice(["Health", "Withings & Co", "Scale <3", 'My "iPhone"', "Ännä's Wäage", "体重計"])
        body.append(record("BodyMass", unit, str(value), start, rng, source))
        weights.append((start, unit, str(value)))
        if rng.random() < 0.3:
            body.append(record("StepCount", "count", str(rng.randrange(1, 5000)), start, rng))
        if rng.random() < 0.15:
            body.append(rng.choice(["<!-- a comment with -- no, a comment -->".replace("-- no", "no"),
                                    "<?health processing instruction?>", "<![CDATA[ <Rec type='x'/> & < ]]>",
                                    "text between records &amp; more"]))
    if rng.random() < 0.2:
        inner = record("BodyMass", "kg", "70", "2020-01-01 08:00:00 +0000", rng)
        body.append(f"<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health\" "
                    f"startDate=\"2020-01-01 08:00:00 +0000\" endDate=\"2020-01-01 08:00:00 +0000\">\n  {inner}\n "
                    f"</Correlation>")
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + '<HealthData locale="en_US">\n'
            ' <ExportDate value="2024-03-01 08:00:00 +0100"/>\n <Me HKCharacteristicTypeIdentifierBiologicalSex="x"/>\n'
            + "".join(f" {part}\n" for part in body) + "</HealthData>\n")
    if malformed:
        kind = rng.choice(MALFORMED)
        records = [m.start() for m in re.finditer(r"<Record ", text)]
        at = rng.choice(records)
        if kind == "unclosed":
            end = text.index(">", at)
            text = text[:end - 1 if text[end - 1] == "/" else end] + text[end + 1:]
        elif kind == "mismatched":
            text = text.replace("</HealthData>", "</HealthDatum>")
        elif kind == "unquoted":
            text = re.sub(r'value="([^"]*)"', r"value=\1", text, count=1)
        elif kind == "duplicate":
            text = text[:at] + '<Record unit="kg" ' + text[at + len("<Record "):]
        elif kind == "lt-in-value":
            text = text[:at] + '<Record note="a<b" ' + text[at + len("<Record "):]
        elif kind == "undefined-entity":
            text = text[:at] + '<Record note="&nbsp;" ' + text[at + len("<Record "):]
        elif kind == "bare-amp":
            text = text[:at] + '<Record note="a & b" ' + text[at + len("<Record "):]
        elif kind == "second-root":
            text = text + "<HealthData locale=\"en_US\"></HealthData>\n"
        elif kind == "bad-char-ref":
            text = text[:at] + '<Record note="&#0;" ' + text[at + len("<Record "):]
        elif kind == "end-before-start":
            text = text.replace(" <ExportDate", " </Record>\n <ExportDate", 1)
        return text, None, kind
    return text, weights, None


def instant(text):
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z").timestamp()


def libxml2(path):
    """Whether libxml2 finds `path` well-formed, and its top-level BodyMass records as (instant, kg)."""
    if subprocess.run(["xmllint", "--noout", "--nonet", path], capture_output=True).returncode != 0:
        return False, None
    c14n = subprocess.run(["xmllint", "--nonet", "--c14n", path], capture_output=True, text=True, check=True).stdout
    found, depth = [], 0
    for match in re.finditer(r"<(/?)([A-Za-z]+)((?:\s+[A-Za-z:]+=\"[^\"]*\")*)\s*>", c14n):
        closing, name, attrs = match.groups()
        if closing:
            depth -= 1
            continue
        values = {k: v.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
                  for k, v in re.findall(r'([A-Za-z:]+)="([^"]*)"', attrs)}
        if depth == 1 and name == "Record" and values.get("type") == "HKQuantityTypeIdentifierBodyMass":
            value = float(values["value"])
            found.append((instant(values["startDate"]), round(value * 0.45359237 if values["unit"] == "lb" else value, 4)))
        depth += 1
    return True, sorted(found)


def w8_reads(w8, path, home):
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TZ": "UTC", "XDG_DATA_HOME": home + "/data",
           "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache", "XDG_STATE_HOME": home + "/state"}
    for name in ("LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "NO_FAKE_STAT"):
        if name in os.environ:
            env[name] = os.environ[name]
    run = subprocess.run([w8, "import", path, "--format", "apple-health"], env=env, capture_output=True, text=True)
    log = subprocess.run([w8, "log", "--json"], env=env, capture_output=True, text=True, check=True).stdout
    entries = sorted((datetime.fromisoformat(e["date"]).timestamp(),
                      round(e["entered_weight"] * 0.45359237 if e["entered_unit"] == "lb" else e["entered_weight"], 4))
                     for e in json.loads(log))
    return run.returncode, run.stderr.strip(), entries


def main(w8, count, seed, workdir):
    rng = random.Random(seed)
    passed = failed = 0
    for n in range(count):
        text, weights, broken = document(rng, malformed=n % 4 == 3)
        path = os.path.join(workdir, f"doc-{n}.xml")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        well_formed, expected = libxml2(path)
        with tempfile.TemporaryDirectory(dir=workdir) as home:
            status, stderr, held = w8_reads(w8, path, home)
        problem = None
        if broken and well_formed:
            problem = f"the generator's {broken} document is well-formed to libxml2"
        elif not well_formed and (status == 0 or held):
            problem = f"libxml2 calls it malformed ({broken}); w8 exited {status} holding {len(held)}"
        elif well_formed and status != 0:
            problem = f"libxml2 reads it; w8 refused it: {stderr}"
        elif well_formed and held != expected:
            problem = f"libxml2 reads {expected}; w8 holds {held}"
        if problem:
            failed += 1
            print(json.dumps({"document": path, "seed": seed, "n": n, "problem": problem}))
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]) else 1)
