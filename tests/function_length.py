#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No function of the C files in the given folders is longer than LIMIT lines, from the line that names it
to its closing brace (the project's style: a command of the CLI reads its options from a table and is a
page long).

  function_length.py LIMIT DIR..."""
import glob
import os
import re
import sys

from verdicts import check, summary


def functions(path):
    """(name, first line, length) of each function defined at the left margin, in the project's style:
    the return type on its own line, the name at column 0, the body's braces at column 0."""
    with open(path) as f:
        lines = f.read().splitlines()
    name, start = None, 0
    for number, line in enumerate(lines, 1):
        m = re.match(r"([A-Za-z_]\w*)\(", line)
        if m and not line.endswith(";"):
            name, start = m.group(1), number
        elif line == "}" and name:
            yield name, start, number - start + 1
            name = None


def main(limit, *dirs):
    limit = int(limit)
    paths = sorted(p for d in dirs for p in glob.glob(os.path.join(d, "*.c")))
    count, long = 0, []
    for path in paths:
        for name, start, length in functions(path):
            count += 1
            if length > limit:
                long.append(f"{path}:{start}: {name}, {length} lines")
    check(count > 0, f"{count} functions found in {len(paths)} files")
    check(not long, f"none longer than {limit} lines", "; ".join(long))
    return summary()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
