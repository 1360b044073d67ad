#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No opcode is compared with a bare number and no first word is assembled by hand in the library, the
CLI, the benchmark or the fuzz targets: they use the generated names (SPVCOND_OP_DECORATE...) and
spirv_words.h. Usage: check_names.py SOURCE_ROOT"""
import os
import re
import sys

OPCODE = r"(?:\bop\b|\bopcode\b|\btarget_op\b|_opcode_of\([^()]*(?:\([^()]*\))?[^()]*\)|_opcode\([^()]*\))"
RULES = [
    (re.compile(OPCODE + r"\s*(?:==|!=|<=|>=|<|>)\s*[1-9][0-9]*u?\b"), "opcode compared with a number"),
    (re.compile(r"\bcase [1-9][0-9]*:.*\b(?:Op[A-Z]\w*)"), "case label by number"),
    (re.compile(r"<<\s*16\)?\s*\|\s*(?:op\b|opcode\b|SPVCOND_OP_|[0-9])"), "first word assembled by hand (spvcond_first_word)"),
    (re.compile(r"&\s*0xffffu?\b"), "opcode masked by hand (spvcond_opcode_of)"),
]
DIRS = ["src", "cli", "bench", "fuzz"]
ALLOWED = {os.path.join("src", "support", "spirv_words.h")}


def main():
    root = sys.argv[1]
    failures = checked = 0
    files = []
    for d in DIRS:
        for folder, _, names in os.walk(os.path.join(root, d)):
            files += [os.path.relpath(os.path.join(folder, name), root) for name in names]
    for rel in sorted(files):
        name = os.path.basename(rel)
        if True:
            if not name.endswith((".c", ".h")) or rel in ALLOWED:
                continue
            checked += 1
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                for n, line in enumerate(f, start=1):
                    code = re.sub(r"/\*.*?\*/|//.*", "", line)
                    for rule, what in RULES:
                        if rule.search(code):
                            print("FAIL %s:%d: %s: %s" % (rel, n, what, line.strip()))
                            failures += 1
    print("%d passed, %d failed" % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
