#!/usr/bin/env python3
"""Seed corpora for the fuzz targets: SPIR-V assembled from the test fixtures, small real modules,
annotated versions, and text inputs for the text readers."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

out = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "..", "shared", "corpus", "modules")
for t in ["fuzz_roundtrip", "fuzz_annotate", "fuzz_specialize", "fuzz_validate", "fuzz_text"]:
    os.makedirs(os.path.join(out, t), exist_ok=True)
modules = []
with tempfile.TemporaryDirectory() as tmp:
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "*.spvasm"))):
        dst = os.path.join(tmp, os.path.basename(src) + ".spv")
        if subprocess.run(["spirv-as", "--preserve-numeric-ids", "--target-env", "spv1.2", src, "-o", dst],
                          capture_output=True).returncode == 0:
            modules.append(dst)
    modules += [p for p in sorted(glob.glob(os.path.join(corpus, "*.spv"))) if os.path.getsize(p) < 40000]
    for k, path in enumerate(modules):
        data = open(path, "rb").read()
        for t in ["fuzz_roundtrip", "fuzz_annotate", "fuzz_validate"]:
            open(os.path.join(out, t, "seed%03d.spv" % k), "wb").write(data)
        ann = os.path.join(tmp, "a.spv")
        cli = os.path.join(root, "build-fuzz", "tools", "spvcond")
        if os.path.exists(cli) and subprocess.run([cli, "annotate", "-q", path, "-o", ann],
                                                  capture_output=True).returncode == 0:
            data = open(ann, "rb").read()
            open(os.path.join(out, "fuzz_validate", "ann%03d.spv" % k), "wb").write(data)
        open(os.path.join(out, "fuzz_specialize", "seed%03d" % k), "wb").write(bytes(range(16)) + data)
texts = {
    0: "my_gpu:\n  aspects: [fp16, atomic64, 9]\n  may_support_other_aspects: false\n  sub-group-sizes: [8, 16]\n"
       "  max-work-group-size: 256\n",
    1: "k:\n  uses: [fp64]\n  declared: [fp16]\n  reqd_work_group_size: [64, 2]\n  reqd_sub_group_size: 16\n",
    2: "[SYCL/kernel reqs]\nk_double=2|ACAAAAAAAAQAAAAAAAAAAYAAAAAAAEAA\nk_plain=2|gAAAAAAAAAAAAAAA\n",
}
for sel, text in texts.items():
    open(os.path.join(out, "fuzz_text", "seed%d" % sel), "wb").write(bytes([sel]) + text.encode())
print("seeds: %d modules" % len(modules))
