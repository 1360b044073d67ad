#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real multi-target modules from spirv-link --fnvar-* (a 2026 SPIRV-Tools), when a copy is at hand:
$SPVCOND_INTEROP, else ../shared/interop/spirv-link beside the source tree. Nothing here is needed to
build or test the project: without the folder the test is skipped (exit 77).

dot4-multi.spv holds two kernels named dot4, float (d32, for target x86_64) and half (d16, for
x86_64 with avx512f and Float16Buffer): specialized for each device, the output passes Debian's spirv-val
(the linker's registry-version OpModuleProcessed goes with the extension) and keeps that device's
kernel, told apart by its body (a 16-bit float type or none)."""
import os
import subprocess
import sys
import tempfile

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
SPIRV_VAL = os.environ.get("SPIRV_VAL", "spirv-val")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
FOLDER = os.environ.get("SPVCOND_INTEROP", os.path.join(SRC, "..", "..", "shared", "interop", "spirv-link"))

BASE = ["--target", "4", "--capabilities", "Addresses,Linkage,Kernel,Int64"]
HALF = ["--target", "4", "--features", "12", "--capabilities", "Addresses,Linkage,Kernel,Int64,Float16Buffer"]


def main():
    module = os.path.join(FOLDER, "dot4-multi.spv")
    if not os.path.exists(module):
        print("skipped: no spirv-link outputs at %s" % FOLDER)
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, flags, half in (("float (d32)", BASE, False), ("half (d16)", HALF, True)):
            out = os.path.join(tmp, "out.spv")
            p = subprocess.run([CLI, "specialize", "-q", *flags, module, "-o", out], capture_output=True, text=True)
            v = subprocess.run([SPIRV_VAL, out], capture_output=True, text=True) if p.returncode == 0 else p
            text = subprocess.run([SPIRV_DIS, out], capture_output=True, text=True).stdout if p.returncode == 0 else ""
            ok = (p.returncode == 0 and v.returncode == 0 and text.count('OpEntryPoint Kernel') == 1 and
                  ("OpTypeFloat 16" in text) == half and "OpModuleProcessed" not in text)
            print("%s dot4-multi for the %s kernel's device%s" % ("ok  " if ok else "FAIL", label,
                                                                 "" if ok else ": " + p.stderr + v.stdout + v.stderr))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
