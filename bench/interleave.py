#!/usr/bin/env python3
"""Times commands in alternation, so that each sees the same machine: round after round, every command once,
in a shuffled order, each right after its own preparation. hyperfine runs all the runs of one command before the
next, so a shared machine that slows down for a minute (other tenants, a busier notification server) lands on
one side of the ratio only.

Usage: interleave.py --runs N [--warmup N] [--perf-stat] --export-json FILE [--prepare SHELL] -n NAME COMMAND ...
Each `-n NAME COMMAND` may follow its own `--prepare`, run by bash before every timed run of that command.
COMMAND is split into words as a shell would and started without a shell (as `hyperfine -N`), its output to
/dev/null; leading NAME=VALUE words are set in its environment, as a shell would, with no `env` process.
The JSON has hyperfine's shape: {"results": [{"command", "median", "mean", "times"}]}.
With --perf-stat every run is one `perf stat -e task-clock,page-faults,duration_time`: "times" are then perf's
duration_time (from the child's exec to its exit, without perf's own start), and each result also has
"task_clock" (seconds of CPU, all threads) and "page_faults", one per run.
"""
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

PERF_EVENTS = "task-clock,page-faults,duration_time"


def split_command(command):
    """COMMAND's words, and the environment its leading NAME=VALUE words make of ours."""
    words, env = shlex.split(command), dict(os.environ)
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return words, env


def perf_counts(path):
    """task-clock (s), page faults and duration_time (s) from `perf stat -x ,` output."""
    counts = {}
    for line in open(path):
        fields = line.strip().split(",")
        if len(fields) > 2 and fields[2] in ("task-clock", "page-faults", "duration_time"):
            counts[fields[2]] = float(fields[0])
    return counts["task-clock"] / 1e3, int(counts["page-faults"]), counts["duration_time"] / 1e9


def main(argv):
    runs, warmup, export, prepare, commands, perf = 30, 3, None, None, [], False
    i = 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--runs":
            runs = int(argv[i + 1])
        elif flag == "--warmup":
            warmup = int(argv[i + 1])
        elif flag == "--export-json":
            export = argv[i + 1]
        elif flag == "--perf-stat":
            perf = True
            i += 1
            continue
        elif flag == "--prepare":
            prepare = argv[i + 1]
        elif flag == "-n":
            words, env = split_command(argv[i + 2])
            commands.append({"name": argv[i + 1], "argv": words, "env": env, "prepare": prepare})
            prepare = None
            i += 1
        else:
            sys.exit(f"interleave.py: unknown argument '{flag}'")
        i += 2
    if not commands or export is None:
        sys.exit(__doc__)
    null = os.open(os.devnull, os.O_WRONLY)
    times = {c["name"]: [] for c in commands}
    cpu = {c["name"]: [] for c in commands}
    faults = {c["name"]: [] for c in commands}
    counts = tempfile.NamedTemporaryFile(prefix="perf-stat.", delete=False).name
    prefix = ["perf", "stat", "-x", ",", "-o", counts, "-e", PERF_EVENTS, "--"] if perf else []
    for round in range(warmup + runs):
        for command in random.sample(commands, len(commands)):
            if command["prepare"]:
                subprocess.run(["bash", "-c", command["prepare"]], check=True, stdout=null)
            start = time.perf_counter()
            argv = prefix + command["argv"]
            pid = os.posix_spawnp(argv[0], argv, command["env"], file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
            _, status = os.waitpid(pid, 0)
            elapsed = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"interleave.py: '{command['name']}' failed with {os.waitstatus_to_exitcode(status)}")
            if perf:
                task_clock, page_faults, elapsed = perf_counts(counts)
            if round >= warmup:
                times[command["name"]].append(elapsed)
                if perf:
                    cpu[command["name"]].append(task_clock)
                    faults[command["name"]].append(page_faults)
    os.unlink(counts)
    results = []
    for name, t in times.items():
        results.append({"command": name, "median": statistics.median(t), "mean": statistics.mean(t), "times": t})
        if perf:
            results[-1].update(task_clock=cpu[name], page_faults=faults[name])
    with open(export, "w") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
