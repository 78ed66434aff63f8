#!/usr/bin/env python3
"""Stands in for waybar, which needs a Wayland compositor: a process whose command name is `waybar` and that
prints the number of every real-time signal it receives, one a line, after a first line `ready PID`."""
import os
import signal
import sys

with open("/proc/self/comm", "w") as comm:
    comm.write("waybar")


def received(number, _frame):
    print(number, flush=True)


for number in range(signal.SIGRTMIN, signal.SIGRTMAX + 1):
    signal.signal(number, received)
print(f"ready {os.getpid()}", flush=True)
while True:
    signal.pause()
