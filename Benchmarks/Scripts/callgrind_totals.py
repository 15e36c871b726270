#!/usr/bin/env python3
"""Prints `<instructions> <mallocs>` for one callgrind dump: its `totals:` line, and how many calls the
program made to the malloc family (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign), from
the dump's call graph. Callgrind records every call from a function to another with its count (`calls=`),
so the calls into these functions, from wherever they came, are the allocations the counted requests made.

Usage: callgrind_totals.py DUMP
Standard library only.
"""

import re
import sys

MALLOC_FAMILY = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def main():
    names = {}

    def name_of(token):
        """A function name as written or by its compressed id: `(12) name` defines 12, `(12)` uses it."""
        match = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not match:
            return token
        if match.group(2) is not None:
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1), "")

    instructions = None
    mallocs = 0
    callee = None
    with open(sys.argv[1]) as dump:
        for line in dump:
            if line.startswith("fn="):
                name_of(line[3:].strip())  # fn= and cfn= share one table of ids
            elif line.startswith("cfn="):
                callee = name_of(line[4:].strip())
            elif line.startswith("calls=") and callee is not None:
                if callee.split("@")[0] in MALLOC_FAMILY:
                    mallocs += int(line[6:].split()[0])
            elif line.startswith("totals:"):
                instructions = int(line.split()[1])
    if instructions is None:
        sys.exit(f"no totals in {sys.argv[1]}")
    print(instructions, mallocs)


if __name__ == "__main__":
    main()
