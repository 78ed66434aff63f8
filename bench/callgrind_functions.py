#!/usr/bin/env python3
"""The functions of one object that callgrind output files record as run, as a symbol ordering file for lld.

Prints the functions each file records (one mangled name a line, each once; names callgrind could not resolve,
0x..., are left out), the files taken in the order given and each function where a file first names it, so that
the functions of the first command come first. Names in SHARED (a file of names, one a line) come last: they are
functions whose input section holds others too, which the linker can only place whole.

Usage: callgrind_functions.py OBJECT_SUFFIX SHARED CALLGRIND_OUT...
"""
import re
import sys


def functions(path, suffix):
    objects, names, seen, found = {}, {}, set(), []
    current = None

    def resolve(table, spec):
        # callgrind compresses names: "(7) name" defines number 7, a later "(7)" refers to it.
        match = re.match(r"\((\d+)\)(?: (.*))?$", spec)
        if not match:
            return spec
        if match.group(2) is not None:
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1), "")

    with open(path, errors="replace") as lines:
        for line in lines:
            key, _, value = line.rstrip("\n").partition("=")
            if key == "ob":
                current = resolve(objects, value)
            elif key == "cob":
                resolve(objects, value)
            elif key == "cfn":
                resolve(names, value)
            elif key == "fn":
                name = re.sub(r"'\d+$", "", resolve(names, value))  # 'N marks a recursion level
                if current and current.endswith(suffix) and name and not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    found.append(name)
    return found


if __name__ == "__main__":
    suffix, shared = sys.argv[1], set(open(sys.argv[2]).read().split())
    seen, alone, together = set(), [], []
    for path in sys.argv[3:]:
        for name in functions(path, suffix):
            if name not in seen:
                seen.add(name)
                (together if name in shared else alone).append(name)
    print("\n".join(alone + together))
