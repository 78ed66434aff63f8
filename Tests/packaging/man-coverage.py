#!/usr/bin/env python3
"""Checks that the man page documents what the binary has: every subcommand with each of its options (from
`w8 --experimental-dump-help`), every config key (from `w8 config --json`), and every exit code (from `w8 --help`).

Usage: man-coverage.py MANPAGE W8
Prints what is missing and exits 1, or exits 0 silently.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def rendered(page):
    """The man page as man renders it for a pipe: plain text, 200 columns, no hyphenation."""
    env = dict(os.environ, MANWIDTH="200", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING="")
    text = subprocess.run(["man", "-E", "UTF-8", "-l", page], env=env, capture_output=True, text=True,
                          check=True).stdout
    return text.replace("\u2010", "-").replace("\u2212", "-")


def sections(text):
    """{HEADING: body} for the headings that start at column 0."""
    found, name = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z ]+$", line):
            name = line.strip()
            found[name] = []
        elif name:
            found[name].append(line)
    return {key: "\n".join(lines) for key, lines in found.items()}


def commands(dump):
    """[(name, [--long options])] for every subcommand, the built-in help command left out."""
    result = []
    for command in dump["command"]["subcommands"]:
        if command["commandName"] == "help":
            continue
        options = sorted({"--" + name["name"] for argument in command.get("arguments", [])
                          if argument.get("shouldDisplay", True)
                          for name in argument.get("names", []) if name["kind"] == "long"} - {"--help", "--version"})
        for sub in command.get("subcommands", []):
            options.append(sub["commandName"])
            options += ["--" + name["name"] for argument in sub.get("arguments", [])
                        for name in argument.get("names", []) if name["kind"] == "long"
                        and name["name"] not in ("help", "version")]
        result.append((command["commandName"], sorted(set(options))))
    return result


def command_chunks(body, names):
    """Each subcommand's part of COMMANDS: from the line that introduces it (`w8 NAME ...` or `NAME ...`, at the
    outermost indent such lines have) to the next such line."""
    lines = body.splitlines()
    starts = []
    for index, line in enumerate(lines):
        match = re.match(r"^(\s*)(?:w8 )?([a-z][a-z-]*)\b", line)
        if match and match.group(2) in names:
            starts.append((len(match.group(1)), index, match.group(2)))
    if not starts:
        return {}
    outer = min(indent for indent, _, _ in starts)
    starts = [(index, name) for indent, index, name in starts if indent == outer]
    chunks = {}
    for position, (index, name) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        chunks.setdefault(name, "\n".join(lines[index:end]))
    return chunks


def main():
    page, w8 = sys.argv[1], sys.argv[2]
    text = rendered(page)
    parts = sections(text)
    missing = []
    for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "CONFIGURATION", "FILES", "ENVIRONMENT",
                    "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
        if heading not in parts:
            missing.append(f"no {heading} section")

    dump = json.loads(subprocess.run([w8, "--experimental-dump-help"], capture_output=True, text=True,
                                     check=True).stdout)
    subcommands = commands(dump)
    chunks = command_chunks(parts.get("COMMANDS", ""), {name for name, _ in subcommands})
    for name, options in subcommands:
        chunk = chunks.get(name)
        if chunk is None:
            missing.append(f"COMMANDS does not introduce w8 {name}")
            continue
        for option in options:
            if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", chunk):
                missing.append(f"w8 {name}: {option} is not documented")

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data")
        keys = json.loads(subprocess.run([w8, "config", "--json"], env=env, capture_output=True, text=True,
                                         check=True).stdout)
    for key in keys:
        if not re.search(r"(?<![\w.])" + re.escape(key) + r"(?![\w.])", parts.get("CONFIGURATION", "")):
            missing.append(f"config key {key} is not in CONFIGURATION")

    help_text = subprocess.run([w8, "--help"], capture_output=True, text=True, check=True).stdout
    codes = re.findall(r"\b(\d+) [a-z]", " ".join(help_text.split()).split("Exit codes:")[1].split(".")[0])
    if not codes:
        missing.append("w8 --help lists no exit codes")
    for code in codes:
        if not re.search(r"(?m)^\s*" + code + r"\b", parts.get("EXIT STATUS", "")):
            missing.append(f"exit code {code} is not in EXIT STATUS")

    files = parts.get("FILES", "")
    for path in ("config.toml", "w8trackr.sqlite", "w8trackr.service", "w8trackr-summary.service",
                 "w8trackr-summary.timer"):
        if path not in files:
            missing.append(f"FILES does not name {path}")

    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
