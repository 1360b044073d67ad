#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""OpenCL's program semantics through the layer (docs/opencl-layer.md, "Program state" and "Object
lifetime"), as tests/layer/programs_host.c, a plain OpenCL host program, sees them on rusticl, pocl and the
mock NVIDIA driver (tests/layer/mock_icd.c, whose kernels hold their program as real drivers' do):

1. A program from IL released before its kernel (as garbage-collected bindings do) leaves no record behind:
   200 programs from OpenCL C afterwards all get their kernels (before the layer owned its programs, 198-200
   of 200 were refused on rusticl once the driver gave the freed program's handle again).
2. Specialization constants (tests/data/layer/spec_constants.spvasm: uint, bool, float, uchar, ulong, ushort):
   the defaults, every constant set (run, results checked), a constant set after a build and built again,
   CL_INVALID_SPEC_ID and CL_INVALID_VALUE where the specification says.
3. The queries through a program's life: CL_PROGRAM_IL, reference count, context and devices, build status,
   options and binary type through compile, link -create-library, link and build; CL_KERNEL_PROGRAM,
   clCloneKernel, clCreateKernelsInProgram; a build with kernels attached refused; the release callback run
   when the last kernel goes.
4. Two modules compiled from OpenCL C (one imports what the other exports), compiled, linked in SPIR-V and
   run, also through a library.
5. `spvcond opencl` says that the loader loaded the layer and which devices take SPIR-V; with a layer the
   loader cannot find, or a libOpenCL.so.1 that loads no layers (as the CUDA toolkit's does not), it says
   the layer is not loaded and exits 1."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from layer_common import BITCODE, CLI, DATA, LAYER, MOCK_ICD, PTX, SRC, compile_cl
from platforms import one_platform
from verdicts import check, summary

HOST = os.environ["SPVCOND_LAYER_PROGRAMS_HOST"]
BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")  # runtimes leak by design
BASE.pop("OPENCL_LAYERS", None)
WITH = dict(BASE, OPENCL_LAYERS=LAYER)


def runtimes():
    """(name, platform, extra host arguments, environment)."""
    out = [("rusticl", "rusticl", [], WITH)]
    if BITCODE:
        out.append(("pocl", "pocl", [], WITH))
    if MOCK_ICD and PTX:
        out.append(("mock NVIDIA", "NVIDIA", ["--create-only"], dict(WITH, OCL_ICD_VENDORS=MOCK_ICD,
                                                                     SPVCOND_MOCK_NVIDIA="1")))
    return out


def host(env, platform, extra, *args):
    p = subprocess.run([HOST, "--platform", platform, *extra, *args], capture_output=True, text=True,
                       errors="replace", env=one_platform(env, platform), timeout=600)
    return p.returncode, p.stdout, p.stderr


def verdicts(name, what, rc, out, err):
    """Each of the host's "ok:"/"FAIL:" lines as a verdict; a crash or no line at all fails."""
    lines = re.findall(r"^(ok|FAIL): (.*)$", out, re.M)
    check(rc >= 0 and lines, "%s, %s: the host ran to its end (exit %d)" % (name, what, rc), out + err)
    for verdict, text in lines:
        check(verdict == "ok", "%s, %s: %s" % (name, what, text), (out + err)[-1500:])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        demo = os.path.join(tmp, "demo.spv")
        compile_cl(os.path.join(SRC, "data", "jit_demo.cl"), demo, tmp)
        parts = []
        for name in ("link_library", "link_user"):
            out = os.path.join(tmp, name + ".spv")
            compile_cl(os.path.join(SRC, "data", "layer", name + ".cl"), out, tmp)
            parts.append(out)
        spec = os.path.join(DATA, "spec_constants.spv")
        for name, platform, extra, env in runtimes():
            if not extra:  # the mock driver compiles no OpenCL C
                rc, out, err = host(env, platform, extra, "stale", demo, "scale_float")
                verdicts(name, "a program released before its kernel", rc, out, err)
            rc, out, err = host(env, platform, extra, "spec", spec)
            verdicts(name, "specialization constants", rc, out, err)
            rc, out, err = host(env, platform, extra, "queries", demo, "scale_float")
            verdicts(name, "queries", rc, out, err)
            rc, out, err = host(env, platform, extra, "link", *parts, "twice_plus_one")
            verdicts(name, "two modules linked", rc, out, err)
            if not extra:
                check(out.count("results 1 3 5 7") == 2, "%s: the linked kernels compute 2 a[i] + 1" % name, out)
        opencl(tmp)
    return summary()


def opencl(tmp):
    p = subprocess.run([CLI, "opencl"], capture_output=True, text=True, env=WITH, timeout=300)
    check(p.returncode == 0 and "the layer: loaded by the ICD loader" in p.stdout and
          re.search(r"rusticl\n.*\n    SPIR-V: SPIR-V_1.0", p.stdout) is not None,
          "spvcond opencl: the layer is loaded, and rusticl's device takes SPIR-V through it", p.stdout + p.stderr)
    p = subprocess.run([CLI, "opencl", "--layer", os.path.join(tmp, "nowhere.so")], capture_output=True, text=True,
                       env=BASE, timeout=300)
    check(p.returncode == 1 and "the layer: NOT loaded" in p.stdout and "SPIR-V: none" in p.stdout,
          "spvcond opencl: a layer the loader cannot find is said not loaded (exit 1)", p.stdout + p.stderr)
    fake = os.path.join(tmp, "no-layers")
    os.makedirs(fake, exist_ok=True)
    shutil.copy(os.environ["SPVCOND_NO_LAYERS_OPENCL"], os.path.join(fake, "libOpenCL.so.1"))
    p = subprocess.run([CLI, "opencl"], capture_output=True, text=True,
                       env=dict(WITH, LD_LIBRARY_PATH=fake), timeout=300)
    check(p.returncode == 1 and "the layer: NOT loaded" in p.stdout and "loads no layers" in p.stdout and
          fake in p.stdout, "spvcond opencl: a libOpenCL.so.1 that loads no layers is named and said so (exit 1)",
          p.stdout + p.stderr)


if __name__ == "__main__":
    sys.exit(main())
