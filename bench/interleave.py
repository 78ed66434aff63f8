#!/usr/bin/env python3
"""Times commands in alternation, so that each sees the same machine: round after round, every command once,
in a shuffled order, each right after its own preparation. hyperfine runs all the runs of one command before the
next, so a shared machine that slows down for a minute (other tenants, a busier notification server) lands on
one side of the ratio only.

Usage: interleave.py --runs N [--warmup N] --export-json FILE [--prepare SHELL] -n NAME COMMAND ...
Each `-n NAME COMMAND` may follow its own `--prepare`, run by bash before every timed run of that command.
COMMAND is split into words as a shell would and started without a shell (as `hyperfine -N`), its output to
/dev/null. The JSON has hyperfine's shape: {"results": [{"command", "median", "mean", "times"}]}.
"""
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import time


def main(argv):
    runs, warmup, export, prepare, commands = 30, 3, None, None, []
    i = 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--runs":
            runs = int(argv[i + 1])
        elif flag == "--warmup":
            warmup = int(argv[i + 1])
        elif flag == "--export-json":
            export = argv[i + 1]
        elif flag == "--prepare":
            prepare = argv[i + 1]
        elif flag == "-n":
            commands.append({"name": argv[i + 1], "argv": shlex.split(argv[i + 2]), "prepare": prepare})
            prepare = None
            i += 1
        else:
            sys.exit(f"interleave.py: unknown argument '{flag}'")
        i += 2
    if not commands or export is None:
        sys.exit(__doc__)
    null = os.open(os.devnull, os.O_WRONLY)
    times = {c["name"]: [] for c in commands}
    for round in range(warmup + runs):
        for command in random.sample(commands, len(commands)):
            if command["prepare"]:
                subprocess.run(["bash", "-c", command["prepare"]], check=True, stdout=null)
            start = time.perf_counter()
            pid = os.posix_spawnp(
                command["argv"][0], command["argv"], os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
            _, status = os.waitpid(pid, 0)
            elapsed = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"interleave.py: '{command['name']}' failed with {os.waitstatus_to_exitcode(status)}")
            if round >= warmup:
                times[command["name"]].append(elapsed)
    results = [
        {"command": name, "median": statistics.median(t), "mean": statistics.mean(t), "times": t}
        for name, t in times.items()
    ]
    with open(export, "w") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
