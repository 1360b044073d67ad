#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every source file of the tree names its license (an SPDX line in its first three lines), the same
license that meson.build declares and LICENSE holds. Usage: check_license.py SOURCE_ROOT"""
import os
import re
import sys

SOURCE = {".c", ".h", ".cpp", ".py", ".sh", ".build", ".cl", ".spvasm", ".map", ".in", ".dict"}
NAMED = {"meson_options.txt", "run"}
SKIP_DIRS = {".git", "subprojects"}


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        declared = re.search(r"license:\s*'([^']+)'", f.read()).group(1)
    with open(os.path.join(root, "LICENSE"), encoding="utf-8") as f:
        first = f.readline().strip()
    failures = []
    if first != declared + " License":
        failures.append("LICENSE begins %r, meson.build declares %s" % (first, declared))
    tag = "SPDX-License-Identifier: " + declared
    checked = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        for name in files:
            if os.path.splitext(name)[1] not in SOURCE and name not in NAMED:
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                head = [f.readline() for _ in range(3)]
            checked += 1
            if not any(tag in line for line in head):
                failures.append("%s: no '%s' in its first lines" % (os.path.relpath(path, root), tag))
    for f in failures:
        print("FAIL " + f)
    print("%d passed, %d failed" % (checked - len(failures), len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
