#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per real module: what annotate found and emitted, and what specialize keeps for a few devices,
with wall times. Usage: corpus_report.py SPVCOND [MODULE...] (default: the corpus, as
tools/make-corpus.py finds or builds it, and libclc)."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

DEVICES = ["x86_64", "intel_gpu_pvc", "intel_gpu_acm_g10", "amd_gpu_gfx90a", "nvidia_gpu_sm_50"]


def timed(args):
    t = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    return p, (time.perf_counter() - t) * 1000


def main():
    cli = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) > 2:
        modules = sys.argv[2:]
    else:
        corpus = subprocess.run([sys.executable, os.path.join(here, "make-corpus.py"), "--print-dir"],
                                stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        modules = sorted(glob.glob(os.path.join(corpus, "*.spv"))) + sorted(glob.glob("/usr/lib/clc/*.spv"))
    print("| module | KiB | kernels | roots | requirements | spec consts | decorations | annotate ms | "
          + " | ".join("%s kept/removed (ms)" % d for d in DEVICES) + " |")
    print("|---" * (8 + len(DEVICES)) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        ann = os.path.join(tmp, "a.spv")
        out = os.path.join(tmp, "s.spv")
        for path in modules:
            p, t_ann = timed([cli, "annotate", path, "-o", ann])
            if p.returncode:
                print("| %s | annotate failed: %s |" % (os.path.basename(path), p.stderr.strip()[:100]))
                continue
            m = re.search(r"annotated: (\d+) roots \((\d+) conditional\), (\d+) requirements, (\d+) spec constants, "
                          r"(\d+) ConditionalINTEL", p.stderr)
            info = json.loads(subprocess.run([cli, "info", "--json", path], capture_output=True, text=True).stdout)
            cells = []
            for dev in DEVICES:
                q, t_spec = timed([cli, "specialize", "--device", dev, ann, "-o", out])
                s = re.search(r"(\d+) functions kept, (\d+) removed", q.stderr)
                cells.append("%s/%s (%.0f)" % (s.group(1), s.group(2), t_spec) if s else "failed")
            print("| %s | %d | %d | %s | %s | %s | %s | %.0f | %s |" % (
                os.path.basename(path).replace(".spv", ""), os.path.getsize(path) // 1024, len(info["entry_points"]),
                m.group(1), m.group(3), m.group(4), m.group(5), t_ann, " | ".join(cells)))


if __name__ == "__main__":
    main()
