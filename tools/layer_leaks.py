#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The OpenCL layer's own errors and leaks in a valgrind memcheck log of an application that used it: every
error whose first frame (past the allocator, for a loss record) is the layer's code, and every loss
record (definitely, indirectly or possibly lost) whose allocation was made by the layer's code: the first
frame after the allocator names one of the markers (the layer's library, or the folders of its sources and
the library's when valgrind ran with --fullpath-after= and the build has debug information). The drivers'
own leaks (rusticl, pocl, LLVM) are theirs and are not counted. Prints them; exit status 1 when there is
one, 2 when the log is not memcheck's. Usage: layer_leaks.py VALGRIND_LOG MARKER..."""
import re
import sys

ALLOCATORS = ("malloc", "calloc", "realloc", "strdup", "operator new", "memalign", "posix_memalign")


def main():
    text = open(sys.argv[1], errors="replace").read()
    markers = sys.argv[2:]
    if "Memcheck" not in text:
        print("not a memcheck log: %s" % sys.argv[1])
        return 2
    leaks, errors = [], []
    for record in re.split(r"\n==\d+== \n", text):
        frames = re.findall(r"(?:at|by) 0x[0-9A-F]+: (.*)", record)
        if "in loss record" in record:
            first = next((f for f in frames if not f.startswith(ALLOCATORS) and "vgpreload" not in f), "")
            if any(m in first for m in markers):
                leaks.append(record.strip())
        elif frames and any(m in frames[0] for m in markers):
            errors.append(record.strip())
    for record in errors + leaks:
        print(record + "\n")
    print("%d errors and %d loss records of the layer's own" % (len(errors), len(leaks)))
    return 1 if errors or leaks else 0


if __name__ == "__main__":
    sys.exit(main())
