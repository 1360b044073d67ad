#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fuzz targets' regression inputs replayed (tests/data/fuzz/<target>/), and for fuzz_annotate and
fuzz_validate the test fixtures too (the seeds' kind of input), with every module a target writes from them
(annotated, specialized, repaired) kept and judged by today's validator (tests/oracle.py) whenever it
accepts the input itself: most regression inputs are mutants no validator accepts, and say nothing of the
passes. Usage: fuzz_outputs.py BUILD_TESTS_DIR (the replay_* programs and the built fixtures)."""
import glob
import os
import sys
import tempfile

import oracle
from verdicts import check, run, summary

SRC = os.environ["SPVCOND_TEST_SRC"]
TARGETS = ("fuzz_annotate", "fuzz_specialize", "fuzz_validate")


def main():
    replay_dir = sys.argv[1]
    print(oracle.describe())
    for target in TARGETS:
        inputs = sorted(glob.glob(os.path.join(SRC, "data", "fuzz", target, "*")))
        if target != "fuzz_specialize":  # which reads its values from the first 16 bytes
            inputs += sorted(glob.glob(os.path.join(replay_dir, "*.spv")))
        with tempfile.TemporaryDirectory() as keep:
            p = run([os.path.join(replay_dir, "replay_" + target), *inputs],
                    env=dict(os.environ, SPVCOND_FUZZ_KEEP=keep))
            if not check(p.returncode == 0, "%s: the regression inputs replay" % target, p.stderr[-800:]):
                continue
            kept = sorted(f for f in os.listdir(keep) if not f.endswith("-input.spv"))
            for name in kept:
                case, kind = name[:-4].split("-", 1)
                ok, text = oracle.judge_like(os.path.join(keep, case + "-input.spv"), os.path.join(keep, name), kind)
                check(ok, "%s: %s from input %s: spirv-val" % (target, kind, case), text)
            print("%s: %d inputs replayed, %d modules written" % (target, len(inputs), len(kept)))
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
