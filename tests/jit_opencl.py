#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The JIT client on real OpenCL runtimes (rusticl on llvmpipe, pocl on the CPU).

1. The demonstration module (tests/data/jit_demo.cl: fp64, fp16 and reqd_work_group_size kernels
   sharing helpers), compiled with clang-15 + llvm-spirv-15 and annotated, is unusable as it is:
   rusticl builds it but exposes no kernel, and pocl's route (llvm-spirv -r) refuses it.
2. Specialized by the client for each device, it builds, exposes exactly the kernels the support check
   accepts, and each of them computes correct results; the others are explained in DPC++'s words.
3. Real modules both runtimes load as compiled (darktable, ufo, silx, pocl-tests) go through
   annotate -> specialize -> build, and every kernel the device supports is created."""
import os
import re
import subprocess
import sys
import tempfile

from platforms import one_platform

CLI = os.environ["SPVCOND_CLI"]
JIT = os.environ["SPVCOND_JIT"]
SRC = os.environ["SPVCOND_TEST_SRC"]
CORPUS = os.environ["SPVCOND_CORPUS"]
ENV = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")  # runtimes leak by design

EXPECT = {
    "rusticl": {"supported": {"scale_float", "add_one"},
                "unsupported": {"scale_double": "Required aspect fp64 is not supported on the device",
                                "mix_double": "Required aspect fp64 is not supported on the device",
                                "scale_half": "Required aspect fp16 is not supported on the device"}},
    "pocl": {"supported": {"scale_float", "scale_double", "mix_double", "add_one"},
             "unsupported": {"scale_half": "Required aspect fp16 is not supported on the device"}},
}
REAL = ["darktable__basecurve", "darktable__extended", "ufo__reductor",
        "python3-silx__silx__resources__opencl__convolution", "pocl-tests__tests__kernel__test_convert_type_1"]

passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, (": " + detail) if detail and not ok else ""))
    if ok:
        passed += 1
    else:
        failed += 1


def jit(platform, module, *flags):
    p = subprocess.run([JIT, "--platform", platform, *flags, module], capture_output=True, text=True,
                       env=one_platform(ENV, platform), timeout=600)
    return p.returncode, p.stdout + p.stderr


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bc, spv, ann = (os.path.join(tmp, "demo" + e) for e in (".bc", ".spv", ".a.spv"))
        subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                        "-emit-llvm", "-O0", os.path.join(SRC, "data", "jit_demo.cl"), "-o", bc], check=True)
        subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", spv], check=True)
        subprocess.run([CLI, "annotate", "-q", spv, "-o", ann], check=True)
        for platform, want in EXPECT.items():
            rc, out = jit(platform, ann, "--raw")
            if platform == "rusticl":
                check("program: built; 0 kernels exposed" in out, "%s: the annotated module builds but exposes no kernel"
                      % platform, out[-400:])
            else:
                check("llvm-spirv-15 -r refused the module" in out and "not built" in out,
                      "%s: the annotated module is refused" % platform, out[-400:])
            rc, out = jit(platform, ann)
            created = set(re.findall(r"^kernel (\w+): supported, created, ran, results correct$", out, re.M))
            check(rc == 0 and created == want["supported"],
                  "%s: specialized, exactly %s created and correct" % (platform, sorted(want["supported"])), out[-600:])
            for kernel, reason in want["unsupported"].items():
                check("kernel %s: not supported: %s" % (kernel, reason) in out,
                      "%s: %s explained" % (platform, kernel), out[-400:])
            exposed = re.search(r"program: built; (\d+) kernels exposed", out)
            check(exposed is not None and int(exposed.group(1)) == len(want["supported"]),
                  "%s: the runtime exposes exactly the supported kernels" % platform, out[-300:])
        for name in REAL:
            a = os.path.join(tmp, name + ".a.spv")
            subprocess.run([CLI, "annotate", "-q", os.path.join(CORPUS, name + ".spv"), "-o", a], check=True)
            for platform in EXPECT:
                rc, out = jit(platform, a, "--no-run")
                summary = re.search(r"(\d+) supported kernels, (\d+) exposed, (\d+) failures", out)
                check(rc == 0 and summary is not None and summary.group(3) == "0",
                      "%s on %s: %s" % (name, platform, summary.group(0) if summary else "no summary"), out[-400:])
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
