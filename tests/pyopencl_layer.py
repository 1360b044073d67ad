#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyOpenCL, a real client, through the OpenCL layer (docs/opencl-layer.md, "Per device"): `cl.Program(ctx,
il).build()` with OPENCL_LAYERS naming the layer, on rusticl and pocl. PyOpenCL warns (CompilerWarning)
whenever a build log is not empty, so the layer writes into the log only what the application needs: a
plain module and an annotated one whose kernels the device all keeps build without a warning; an annotated
module whose fp64 kernels rusticl lacks warns, and the log says why, and so does the same module plain
(annotated in memory). Debian's python3-pyopencl runs under
Debian's python3 (/usr/bin/python3); without it the test says so and checks nothing."""
import os
import re
import subprocess
import sys
import tempfile

from layer_common import CLI, LAYER, SRC, compile_cl
from verdicts import check, summary

DEBIAN_PYTHON = "/usr/bin/python3"
CLIENT = r"""
import sys, warnings
import pyopencl as cl
path, wanted = sys.argv[1], sys.argv[2]
platform = [p for p in cl.get_platforms() if wanted in p.name][0]
context = cl.Context(platform.get_devices()[:1])
with open(path, "rb") as f:
    il = f.read()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    program = cl.Program(context, il).build()
    print("kernels:", " ".join(sorted(k.function_name for k in program.all_kernels())))
    for w in caught:  # the build's warnings (PyOpenCL's CompilerWarning)
        if issubclass(w.category, cl.CompilerWarning):
            print("warning:", w.category.__name__, str(w.message).replace("\n", " | "))
"""


def sanitizer_runtimes():
    """The sanitizer runtimes a sanitized layer links: Python is not built with them, so they are preloaded."""
    p = subprocess.run(["ldd", LAYER], capture_output=True, text=True)
    return re.findall(r"=> (\S*lib(?:asan|ubsan)\.so\S*)", p.stdout)


def client(module, platform):
    env = dict(os.environ, OPENCL_LAYERS=LAYER, RUSTICL_ENABLE="llvmpipe", PYOPENCL_COMPILER_OUTPUT="1",
               ASAN_OPTIONS="detect_leaks=0")
    preload = ":".join(sanitizer_runtimes())
    if preload:
        env["LD_PRELOAD"] = preload
    env.pop("PYTHONPATH", None)
    p = subprocess.run([DEBIAN_PYTHON, "-c", CLIENT, module, platform], capture_output=True, text=True, env=env,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    probe = subprocess.run([DEBIAN_PYTHON, "-c", "import pyopencl"], capture_output=True) \
        if os.path.exists(DEBIAN_PYTHON) else None
    if not probe or probe.returncode != 0:
        print("skipped: PyOpenCL (Debian's python3-pyopencl for %s) is not installed" % DEBIAN_PYTHON)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        demo, demo_a, chain, chain_a = (os.path.join(tmp, n) for n in ("demo.spv", "demo.a.spv", "chain.spv",
                                                                        "chain.a.spv"))
        compile_cl(os.path.join(SRC, "data", "jit_demo.cl"), demo, tmp)
        user = os.path.join(tmp, "kernels.spv")
        compile_cl(os.path.join(SRC, "data", "layer", "kernels.cl"), user, tmp)
        subprocess.run([CLI, "annotate", "-q", demo, "-o", demo_a], check=True)
        compile_cl(os.path.join(SRC, "data", "guards", "chain.cl"), chain, tmp, "-I", os.path.join(SRC, "..", "include"))
        subprocess.run([CLI, "annotate", "-q", chain, "-o", chain_a], check=True)
        for platform, name in (("rusticl", "rusticl"), ("Portable Computing Language", "pocl")):
            for what, module, kernels in (
                    ("a plain module whose kernels the device all keeps", user,
                     "atomics calls_kernel reduce scaled vectors"),
                    ("an annotated module whose kernels the device all keeps", chain_a, "refine")):
                rc, out, err = client(module, platform)
                check(rc == 0 and "kernels: %s\n" % kernels in out and "warning:" not in out,
                      "PyOpenCL on %s through the layer: %s builds without a warning (%s)" % (name, what, kernels),
                      out + err[-600:])
        for what, module in (("an annotated module", demo_a), ("a plain module", demo)):
            rc, out, err = client(module, "rusticl")
            check(rc == 0 and "kernels: add_one scale_float\n" in out and "warning: CompilerWarning" in out and
                  "spvcond: kernel scale_double is not available on this device: Required aspect fp64" in out,
                  "PyOpenCL on rusticl: %s whose fp64 kernels the device lacks warns, and says why" % what,
                  out + err[-600:])
    print("PyOpenCL through the layer: a plain build's log is the driver's alone")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
