#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compute shaders (Vulkan's Shader modules, Logical addressing, GLSL450): one module whose entry points
need different device features, annotated and specialized (tests/data/shaders/).

- annotate takes no requirement from a compute shader's LocalSize (Vulkan requires one of every GLCompute
  entry point: it is the dispatch's shape, not a feature), and makes the entry point that computes in
  double, its types and Float64 conditional on fp64;
- specialized for a device without fp64: Float64, the double type and that entry point are gone, the
  float one stays; for a device with fp64, both stay; today's validator takes both for vulkan1.1;
- the annotated module passes today's validator for vulkan1.1 with --relax-logical-pointer alone
  (spec/extension.md: its logical-pointer rule does not list OpConditionalEntryPointINTEL)."""
import json
import os
import subprocess
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
SPIRV_AS = os.environ.get("SPIRV_AS", "spirv-as")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")


def vulkan_val(path, *extra):
    """(ok, output) of the validator for vulkan1.1, or None where it cannot read the extension."""
    if not oracle.knows_extension and oracle.uses_extension(path):
        return None
    p = subprocess.run([oracle.VAL, "--target-env", "vulkan1.1", *extra, path], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


def main():
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        plain, ann = os.path.join(tmp, "two.spv"), os.path.join(tmp, "two.a.spv")
        subprocess.run([SPIRV_AS, "--target-env", "vulkan1.1", os.path.join(SRC, "data", "shaders",
                                                                           "two_precisions.spvasm"), "-o", plain],
                       check=True)
        ok, text = vulkan_val(plain)
        check(ok, "the plain shader module is valid for vulkan1.1", text)
        p = run([CLI, "annotate", "-q", plain, "-o", ann])
        if not check(p.returncode == 0, "annotate takes a compute shader module", p.stderr):
            return summary()
        reqs = {k["kernel"]: k["requirements"] for k in json.loads(run([CLI, "reqs", "--json", ann]).stdout)}
        check(reqs.get("f32") == [] and [r.get("aspect") for r in reqs.get("f64", [])] == ["fp64"],
              "LocalSize is no requirement; f64 requires fp64 alone", json.dumps(reqs))
        verdict = vulkan_val(ann, "--relax-logical-pointer")
        if verdict is None:
            print("skipped: the annotated module's validation (this spirv-val cannot read the extension)")
        else:
            check(verdict[0], "the annotated module passes spirv-val vulkan1.1 with --relax-logical-pointer",
                  verdict[1])
            strict = vulkan_val(ann)
            check(not strict[0] and "logical pointer operand" in strict[1] and "OpConditionalEntryPointINTEL"
                  in strict[1], "without it, the validator's rule refuses the conditional entry point "
                  "(spec/extension.md; remove this check when a validator takes it)", strict[1])
        for device, kept in (("intel_gpu_acm_g10", ["f32"]), ("intel_gpu_pvc", ["f32", "f64"])):
            out = os.path.join(tmp, device + ".spv")
            p = run([CLI, "specialize", "-q", "--device", device, ann, "-o", out])
            if not check(p.returncode == 0, "%s: specialize" % device, p.stderr):
                continue
            ok, text = vulkan_val(out)
            check(ok, "%s: the specialized module is valid for vulkan1.1" % device, text)
            dis = run([SPIRV_DIS, out]).stdout
            names = sorted(n for n in ("f32", "f64") if '"%s"' % n in dis)
            double = "OpCapability Float64" in dis or "OpTypeFloat 64" in dis
            check(names == kept and double == ("f64" in kept) and "INTEL" not in dis,
                  "%s: the entry points %s stay, Float64 and the double type only with f64, no trace of the "
                  "extension" % (device, kept), "%s, double %s" % (names, double))
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
