#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The public header, the linker map and the shared library's exports must list the same functions."""
import re
import subprocess
import sys

header, mapfile, lib = sys.argv[1:4]
declared = set(re.findall(r"SPVCOND_API\s+[^;(]*?\b(spvcond_\w+)\s*\(", open(header).read()))
mapped = set(re.findall(r"^\s+(spvcond_\w+);", open(mapfile).read(), re.M))
out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
exported = set(m.split("@")[0] for m in re.findall(r"\sT\s+(\S+)", out))
ok = True
for name, a, b in (("header but not in the map", declared, mapped), ("map but not in the header", mapped, declared),
                   ("map but not exported", mapped, exported), ("exported but not in the map", exported, mapped)):
    if a - b:
        print("in the %s: %s" % (name, ", ".join(sorted(a - b))))
        ok = False
print("%d public functions" % len(declared))
sys.exit(0 if ok else 1)
