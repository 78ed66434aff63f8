#!/usr/bin/python3
"""Seeded random Apple Health documents, and what libxml2 makes of each, for HealthXMLScannerDifferentialTests.

Each document is shaped as Health's export.xml is (the DOCTYPE with its internal subset, cut down from the one
Health writes at the top of every export, as in Tests/Fixtures/import/apple-health/export.xml; HealthData, ExportDate,
Me, Records with MetadataEntry children, Correlations holding Records), with what XML allows there: entities and
character references in attribute values, either quote, blanks around `=` and between attributes, self-closing
and open-and-closed tags, comments, CDATA, processing instructions, literal tabs and newlines in values (which XML
normalizes to spaces), a byte order mark. About a third are made malformed by one mutation from a list of kinds.

libxml2 judges each one: `xmllint --noout` for well-formedness, and `xmllint --c14n` for the attributes of every
Record that is a child of the root, read back from the canonical form with xml.etree (canonical XML is plain
enough for any parser). Writes DIR/N.xml and DIR/results.json: [{file, kind, libxml2: "ok" or the first error
line, records: [[[name, value], ...], ...]}].

Usage: health_xml_scanner_differential.py SEED COUNT DIR
"""

import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

# Apple's DOCTYPE with its internal subset, as bench/apple_health_export.py writes a real export's (its source is
# named there and in Tests/Fixtures/import/README.md): one copy for the bench and both differential harnesses.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from apple_health_export import DTD  # noqa: E402

DOCTYPE = DTD[DTD.index("<!DOCTYPE"):DTD.index("<HealthData")]

TYPES = ["HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"]
# Attribute value pieces: plain text, the five entities, decimal and hexadecimal references (one past the BMP),
# a literal '>' (allowed), the other quote, and characters XML normalizes to a space.
PIECES = ["Anna", "’s iPhone", " ", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#x41;", "&#65;", "&#x1F600;",
          "&#233;", ">", "é", "\t", "\n", "&#10;", "&#x9;", "5", "."]

MALFORMED = [
    "end-tag-mismatch", "duplicate-attribute", "lt-in-value", "bare-ampersand", "unknown-entity", "bad-char-ref",
    "unquoted-value", "no-space-between-attributes", "double-hyphen-in-comment", "text-after-root",
    "ampersand-in-text", "bad-name", "control-character", "attribute-in-end-tag", "cdata-end-in-text",
    "unclosed-comment", "truncated", "second-root", "value-without-equals", "lt-in-text",
]


def value(rng, quote):
    out = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 5)))
    return out.replace(quote, "&quot;" if quote == '"' else "&apos;")


def attributes(rng, names):
    parts = []
    for name in names:
        quote = rng.choice(['"', "'"])
        around = rng.choice(["", "", " ", "\n  "])
        parts.append(f"{rng.choice([' ', '  ', chr(10) + ' ', chr(9)])}{name}{around}={around}{quote}"
                     f"{value(rng, quote)}{quote}")
    return "".join(parts)


def record(rng, depth):
    names = ["type", "sourceName", "unit", "value", "startDate", "endDate"]
    rng.shuffle(names)
    names = names[: rng.randint(1, len(names))]
    head = f'<Record type="{rng.choice(TYPES)}"' + attributes(rng, [n for n in names if n != "type"])
    if rng.random() < 0.5:
        return head + rng.choice(["/>", " />", "\n/>"])
    children = []
    for _ in range(rng.randint(0, 3)):
        if depth == 0 and rng.random() < 0.2:
            children.append('<HeartRateVariabilityMetadataList><InstantaneousBeatsPerMinute bpm="61" time="8:00"/>'
                            "</HeartRateVariabilityMetadataList>")
        else:
            children.append("<MetadataEntry" + attributes(rng, ["key", "value"]) + "/>")
    return head + ">" + "".join(f"\n  {c}" for c in children) + "\n</Record>"


def document(rng):
    body = []
    for _ in range(rng.randint(0, 8)):
        r = rng.random()
        if r < 0.6:
            body.append(record(rng, 0))
        elif r < 0.7:
            body.append("<!-- a comment with <Record type=\"HKQuantityTypeIdentifierBodyMass\"/> and > in it -->")
        elif r < 0.8:
            body.append("<![CDATA[ <Record type=\"fake\"/> & ]]>")
        elif r < 0.85:
            body.append("<?health instruction?>")
        else:
            body.append('<Correlation type="HKCorrelationTypeIdentifierBloodPressure">' + record(rng, 1)
                        + "</Correlation>")
    # Either prolog, and sometimes a byte order mark before it.
    prolog = rng.choice(["", "", "", "\ufeff"]) + rng.choice(['<?xml version="1.0" encoding="UTF-8"?>\n', ""])
    doctype = rng.choice([DOCTYPE, ""])
    return (prolog + doctype + f'<HealthData locale{rng.choice(["", " "])}="en_US">\n <ExportDate value="2021-02-06'
            ' 11:18:00 +0100"/>\n <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale"/>\n '
            + "\n ".join(body) + "\n</HealthData>\n")


# The kinds made by putting one broken piece before `<Me`, the rest of the document as it was.
BEFORE_ME = {
    "duplicate-attribute": '<Me a="1" a="2"/>',
    "lt-in-value": '<Me a="1<2"/>',
    "bare-ampersand": '<Record type="t" sourceName="A & B"/>',
    "unknown-entity": '<Record type="t" sourceName="&nope;"/>',
    "unquoted-value": "<Me a=1/>",
    "no-space-between-attributes": '<Me a="1"b="2"/>',
    "double-hyphen-in-comment": "<!-- a -- b -->",
    "ampersand-in-text": "a & b",
    "bad-name": '<1Me a="1"/>',
    "control-character": "\x01",
    "cdata-end-in-text": "a ]]> b",
    "value-without-equals": '<Me a "1"/>',
    "lt-in-text": "a < b",
}


def malform(rng, text, kind):
    """`text` broken in the way `kind` names; each keeps the rest of the document as it was."""
    root = text.index("<HealthData")
    me = text.index("<Me ")
    end = text.rindex("</HealthData>")
    if kind in BEFORE_ME:
        return text[:me] + BEFORE_ME[kind] + text[me:]
    if kind == "end-tag-mismatch":
        return text[:end] + "</HealthDta>\n"
    if kind == "bad-char-ref":
        return text[:me] + f'<Me a="{rng.choice(["&#0;", "&#1;", "&#xD800;", "&#xFFFE;", "&#x110000;"])}"/>' + text[me:]
    if kind == "text-after-root":
        return text + "junk\n"
    if kind == "attribute-in-end-tag":
        return text[:end] + '</HealthData a="1">\n'
    if kind == "unclosed-comment":
        return text[:end] + "<!-- never closed\n"
    if kind == "truncated":
        return text[: rng.randint(root + 12, len(text) - 3)]
    if kind == "second-root":
        return text + "<HealthData/>\n"
    raise ValueError(kind)


def libxml2(path):
    check = subprocess.run(["xmllint", "--noout", path], capture_output=True, text=True)
    if check.returncode != 0:
        return (check.stderr.splitlines() or ["malformed"])[0], []
    canonical = subprocess.run(["xmllint", "--c14n", path], capture_output=True, check=True).stdout
    root = ET.fromstring(canonical)
    # Attributes in document order: c14n sorts them; the scanner's order is the document's, so both are sorted.
    return "ok", [sorted(r.attrib.items()) for r in root if r.tag == "Record"]


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    results = []
    for n in range(count):
        text = document(rng)
        kind = rng.choice(MALFORMED) if rng.random() < 0.35 else "well-formed"
        if kind != "well-formed":
            text = malform(rng, text, kind)
        path = os.path.join(out, f"{n}.xml")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        verdict, records = libxml2(path)
        results.append({"file": path, "kind": kind, "libxml2": verdict, "records": records})
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
