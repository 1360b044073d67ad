#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The batch runner (cli/batch.c, behind tests/verdicts.py's run()) answers as the tool's own process
does: command lines that succeed, fail on their input, fail on their usage (one stopping inside a group of
short options, which leaves getopt's place behind, then more command lines), ask for help or name no
command, each run by spvcond and through one runner, compared for standard output, standard error (the
runner's temporary paths aside) and exit status."""
import os
import sys
import tempfile

import verdicts
from verdicts import check, summary

CLI = os.environ["SPVCOND_CLI"]
DATA = os.environ["SPVCOND_TEST_DATA"]


def main():
    if not verdicts.BATCH:
        print("skipped: no batch runner in this build (SPVCOND_CLI_BATCH)")
        return summary()
    module = os.path.join(DATA, "dot_two_widths.spv")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.spv")
        lines = [["annotate", "-q", module, "-o", out],
                 ["specialize", "-xz", "--device", "intel_gpu_pvc", module, "-o", out],
                 ["check", "--device", "intel_gpu_pvc", module],
                 ["specialize", "-zq", module, "-o", out],
                 ["specialize", "-q", "--device", "intel_gpu_pvc", module, "-o", out],
                 ["info", os.path.join(tmp, "missing.spv")],
                 ["reqs", "--json", module],
                 ["validate", "--bogus"],
                 ["devices", "--json"],
                 ["split", "--help"]]
        for line in lines:
            alone = verdicts.subprocess.run([CLI, *line], capture_output=True, text=True)
            batched = verdicts.run([CLI, *line])
            check((batched.returncode, batched.stdout, batched.stderr) ==
                  (alone.returncode, alone.stdout, alone.stderr),
                  "spvcond %s: the batch runner answers as the tool does" % " ".join(line[:2]),
                  "runner %d %r %r, tool %d %r %r" % (batched.returncode, batched.stdout[-200:],
                                                      batched.stderr[-200:], alone.returncode,
                                                      alone.stdout[-200:], alone.stderr[-200:]))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
