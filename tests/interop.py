#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real multi-target modules from spirv-link --fnvar-* (a 2026 SPIRV-Tools), when a copy is at hand:
$SPVCOND_INTEROP, else ../shared/interop/spirv-link beside the source tree. Nothing here is needed to
build or test the project: without the folder the test is skipped (exit 77).

Every module there goes through repair -> validate -> specialize for the base's device, each variant's,
and one no module is for -> Debian spirv-val. targets-multi.spv carries the linker's defect B (items of
the base that the unconditional kernel uses are guarded by the base's condition): repair removes those
conditions, and then the variant's device gets the variant's `scale` (it uses double) and the base's the
base's (no double); a device matching neither is refused, as the kernel's call has no callee there.
dot4-multi.spv holds two kernels named dot4, float (d32, for target x86_64) and half (d16, x86_64 with
avx512f and Float16Buffer): consistent as it is (repair changes nothing); each device keeps its kernel,
told apart by its body (a 16-bit float type or none), and a device matching neither keeps no kernel. The
linker's registry-version OpModuleProcessed goes with the extension. The inputs of the linker, plain
modules, come out of repair unchanged."""
import os
import re
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
FOLDER = os.environ.get("SPVCOND_INTEROP", os.path.join(SRC, "..", "..", "shared", "interop", "spirv-link"))

CAPS = "Addresses,Linkage,Kernel,Int64"
NONE = ["--target", "5", "--capabilities", CAPS]
# Per module: (device label, specialize flags, what the kept module shows: double, half, kernels, or
# None for a refusal).
MODULES = {
    "targets-multi": [
        ("base (float scale)", ["--target", "4", "--features", "", "--capabilities", CAPS], (False, False, 1)),
        ("variant (double scale)", ["--target", "4", "--features", "12", "--capabilities", CAPS + ",Float64"],
         (True, False, 1)),
        ("no module's", NONE, None),
    ],
    "dot4-multi": [
        ("float (d32)", ["--target", "4", "--features", "", "--capabilities", CAPS], (False, False, 1)),
        ("half (d16)", ["--target", "4", "--features", "12", "--capabilities", CAPS + ",Float16Buffer"],
         (False, True, 1)),
        ("no module's", NONE, (False, False, 0)),
    ],
}


def main():
    if not os.path.exists(os.path.join(FOLDER, "dot4-multi.spv")):
        print("skipped: no spirv-link outputs at %s" % FOLDER)
        return 77
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        for name, devices in MODULES.items():
            module, rep = os.path.join(FOLDER, name + ".spv"), os.path.join(tmp, name + ".rep.spv")
            p = run([CLI, "repair", module, "-o", rep])
            if not check(p.returncode == 0, "%s: repair" % name, p.stderr):
                continue
            print("%s: %s" % (name, p.stderr.strip().splitlines()[-1]))
            v = run([CLI, "validate", rep])
            check(v.returncode == 0, "%s: repaired, it validates" % name, v.stderr)
            # Judged when the linker's own output is valid but for what repair mends: dot4-multi's wrapper
            # kernel passes float pointers to the half variant's parameters (a call spirv-link guards but
            # cannot type), which no repair of conditions changes.
            ok, text = oracle.judge_like(module, rep, "repaired")
            check(ok, "%s: repaired, spirv-val" % name, text)
            for label, flags, want in devices:
                out = os.path.join(tmp, "out.spv")
                if os.path.exists(out):
                    os.remove(out)
                # What check says the device gets: one variant of each name (none where nothing is for it).
                said = run([CLI, "check", *flags, rep]).stdout
                kept = re.findall(r"^(kernel|function) (\S+) %\d+: kept", said, re.M)
                groups = set(re.findall(r"^(kernel|function) (\S+) %\d+:", said, re.M))
                check(len(kept) == len(set(kept)) and (want is None or not want[2] or set(kept) == groups),
                      "%s for the %s device: check names one variant of each" % (name, label), said)
                uncovered = set(re.findall(r"^(?:kernel|function) (\S+): no variant for this device$", said, re.M))
                check(uncovered == ({g[1] for g in groups} - {k[1] for k in kept}),
                      "%s for the %s device: check names the groups it gets no variant of" % (name, label), said)
                p = run([CLI, "specialize", "-q", *flags, rep, "-o", out])
                if want is None:
                    check(p.returncode == 1 and "0 true conditions" in p.stderr and not os.path.exists(out),
                          "%s for %s device: refused, nothing written" % (name, label), p.stderr)
                    continue
                if not check(p.returncode == 0, "%s for the %s device: specialize" % (name, label), p.stderr):
                    continue
                ok, text = oracle.judge(out, "specialized")
                check(ok, "%s for the %s device: spirv-val" % (name, label), text)
                text = run([SPIRV_DIS, out]).stdout
                got = ("OpTypeFloat 64" in text, "OpTypeFloat 16" in text, text.count("OpEntryPoint Kernel"))
                check(got == want and "OpModuleProcessed" not in text,
                      "%s for the %s device: double, half, kernels %s" % (name, label, want), str(got))
                names = re.findall(r'OpName %\S+ "([^"]*)"', text)
                check(len(names) == len(set(names)), "%s for the %s device: one variant of each function left" %
                      (name, label), str(sorted(names)))
        for name in ("base", "var", "d16", "d32"):
            out = os.path.join(tmp, name + ".rep.spv")
            p = run([CLI, "repair", "-q", os.path.join(FOLDER, name + ".spv"), "-o", out])
            check(p.returncode == 0 and open(out, "rb").read() == open(os.path.join(FOLDER, name + ".spv"), "rb").read(),
                  "%s.spv (plain): repair changes nothing" % name, p.stderr)
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
