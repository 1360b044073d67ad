#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The benchmark's synthetic modules are valid: small sizes of each shape (code only, table or store
filled, deep and wide call graphs, a library) pass Debian's spirv-val as generated, and once annotated and
specialized for two devices. Usage: synthetic_modules.py SPVCOND_SYNTH SPVCOND"""
import os
import subprocess
import sys
import tempfile

import oracle

SHAPES = [
    ["--size", "20k"],
    ["--size", "300k", "--seed", "7"],
    ["--size", "1M"],
    ["--size", "2M", "--max-ids", "30000"],               # the table-filled shape of the 1 GB module
    ["--size", "2M", "--max-ids", "30000", "--filler", "stores"],  # the store-filled one
    ["--size", "1M", "--max-ids", "3900", "--filler", "stores"],   # its mix at 1 MB (the benchmark's stores series)
    ["--size", "300k", "--depth", "12", "--fanout", "1"],  # deep chains
    ["--size", "300k", "--depth", "2", "--fanout", "16", "--kernels", "3"],
    ["--size", "300k", "--library"],                       # every helper exported, no kernel (as libclc)
]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def main():
    synth, spvcond = sys.argv[1], sys.argv[2]
    val = os.environ.get("SPIRV_VAL", "spirv-val")
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for n, shape in enumerate(SHAPES):
            m, a = os.path.join(d, "m%d.spv" % n), os.path.join(d, "a%d.spv" % n)
            try:
                run([synth] + shape + ["-o", m])
                run([val, m])
                if "--library" in shape:
                    info = run([spvcond, "info", m])
                    if "entry points (0," not in info or "Linkage" not in info:
                        raise RuntimeError("not a library:\n" + info[:400])
                run([spvcond, "annotate", "-q", m, "-o", a])
                run([spvcond, "validate", a])
                ok, text = oracle.judge(a, "annotated")
                if not ok:
                    raise RuntimeError("annotated: spirv-val: " + text[:400])
                for device in ("intel_gpu_acm_g10", "intel_gpu_pvc"):
                    s = os.path.join(d, "s%d-%s.spv" % (n, device))
                    run([spvcond, "specialize", "-q", "--device", device, a, "-o", s])
                    ok, text = oracle.judge(s, "specialized")
                    if not ok:
                        raise RuntimeError("specialized: spirv-val: " + text[:400])
                print("ok   %s (%d bytes)" % (" ".join(shape), os.path.getsize(m)))
            except RuntimeError as e:
                failures += 1
                print("FAIL %s: %s" % (" ".join(shape), e))
    print(oracle.report())
    print("%d passed, %d failed" % (len(SHAPES) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
