#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The grammar corrections (spec/grammar/README) on real inputs.

Inline assembly written in OpenCL C the way a user would (tests/data/inline_asm/base.cl), compiled at test
time with clang-15 + llvm-spirv-15 (SPV_INTEL_inline_assembly; it writes OpAsmTargetINTEL without a result
type, as today's grammar has it): every command reads it (info, reqs, validate, check, annotate,
specialize, repair, split), and what they write passes today's validator and the translator. With
SPIRV-Tools v2026.4's spirv-link at hand (../shared/tools, or $SPIRV_LINK), a multi-target module whose
variants are inline assembly (base.cl's add for x86_64, avx.cl's for x86_64 with avx512f) is made, repaired,
and specialized for each target: each keeps its own assembly, passes today's validator, and the
translator reads it. The fixture `corrections` (bfloat16's OpTypeFloat encoding, the ten-operand
OpArbitraryFloatPowNINTEL) is read, validated, annotated and specialized."""
import os
import re
import subprocess
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
DATA = os.environ["SPVCOND_TEST_DATA"]
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
ASM = os.path.join(SRC, "data", "inline_asm")
LINK = os.environ.get("SPIRV_LINK") or os.path.join(oracle.SHARED_TOOLS, "spirv-tools-2026", "bin", "spirv-link")
# What spirv-link's --fnvar-capabilities asks of a device for base.cl (k_double needs Float64).
CAPS = "Addresses,Linkage,Kernel,Int64,Float64,AsmINTEL"
# A disassembler that reads the extension, for the multi-target module (Debian's cannot).
DIS_2026 = os.path.join(oracle.SHARED_TOOLS, "spirv-tools-2026", "bin", "spirv-dis")


def compile_cl(name, tmp):
    bc, spv = (os.path.join(tmp, name + e) for e in (".bc", ".spv"))
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                    "-emit-llvm", "-O0", os.path.join(ASM, name + ".cl"), "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", "--spirv-ext=+SPV_INTEL_inline_assembly", bc,
                    "-o", spv], check=True)
    return spv


def asm_texts(path, dis=SPIRV_DIS):
    return re.findall(r'OpAsmINTEL %\S+ %\S+ %\S+ "([^"]*)"', run([dis, path]).stdout)


def reads_back(path):
    """llvm-spirv-15 -r: Debian's translator reads the module (its inline assembly included)."""
    p = run(["llvm-spirv-15", "-r", path, "-o", path + ".bc"])
    return p.returncode == 0, p.stderr.strip()


def every_command(tmp):
    spv = compile_cl("base", tmp)
    check(asm_texts(spv) == ["add $0, $1, $2"], "base.cl: the compiler wrote its inline assembly", str(asm_texts(spv)))
    p = run([CLI, "info", spv])
    check(p.returncode == 0 and "AsmINTEL" in p.stdout, "info reads inline assembly", p.stderr.strip())
    p = run([CLI, "validate", spv])
    check(p.returncode == 0, "validate reads inline assembly", p.stderr.strip())
    ann = os.path.join(tmp, "base.ann.spv")
    p = run([CLI, "annotate", "-q", spv, "-o", ann])
    if not check(p.returncode == 0, "annotate reads inline assembly", p.stderr.strip()):
        return
    ok, text = oracle.judge_like(spv, ann, "annotated")
    check(ok, "annotated: spirv-val", text)
    ok, text = oracle.translated_like(spv, ann)
    check(ok, "annotated: the translator's consumer reads it", text)
    check(run([CLI, "validate", ann]).returncode == 0, "annotated: validate")
    reqs = run([CLI, "reqs", ann]).stdout
    check("k_double:\n  aspect fp64" in reqs and "k: no requirements" in reqs, "reqs: k_double needs fp64, k nothing",
          reqs)
    said = run([CLI, "check", "--device", "intel_gpu_acm_g10", ann]).stdout
    check("k_double: not supported" in said and "k: supported" in said, "check on a device without fp64", said)
    for device, kernels in (("intel_gpu_acm_g10", 1), ("intel_gpu_pvc", 2)):
        out = os.path.join(tmp, "base.%s.spv" % device)
        p = run([CLI, "specialize", "-q", "--device", device, ann, "-o", out])
        if not check(p.returncode == 0, "specialize for %s" % device, p.stderr.strip()):
            continue
        ok, text = oracle.judge_like(spv, out, "specialized")
        check(ok, "specialized for %s: spirv-val" % device, text)
        dis = run([SPIRV_DIS, out]).stdout
        check(dis.count("OpEntryPoint Kernel") == kernels and asm_texts(out) == ["add $0, $1, $2"],
              "specialized for %s: %d kernels, the assembly kept" % (device, kernels))
        ok, text = reads_back(out)
        check(ok, "specialized for %s: llvm-spirv-15 -r reads it" % device, text)
    rep = os.path.join(tmp, "base.rep.spv")
    p = run([CLI, "repair", "-q", spv, "-o", rep])
    check(p.returncode == 0 and open(rep, "rb").read() == open(spv, "rb").read(), "repair leaves it alone",
          p.stderr.strip())
    out = os.path.join(tmp, "split")
    p = run([CLI, "split", "-q", spv, "-o", out])
    if check(p.returncode == 0, "split reads inline assembly", p.stderr.strip()):
        images = [line.split("|")[0] for line in open(os.path.join(out, "split.table")).read().splitlines()[1:] if line]
        check(len(images) == 2, "split: two images (fp64 and not)", str(images))
        for code in images:
            ok, text = oracle.judge_like(spv, os.path.join(out, code), "split image")
            check(ok, "split image %s: spirv-val" % code, text)


def multi_target(tmp):
    if not os.access(LINK, os.X_OK):
        print("skipped: the inline-assembly multi-target module (no spirv-link with --fnvar-targets at %s)" % LINK)
        return
    for name in ("base", "avx"):
        compile_cl(name, tmp)
    csv = os.path.join(tmp, "targets.csv")
    with open(os.path.join(ASM, "targets.csv")) as f, open(csv, "w") as g:
        g.write(f.read())
    multi = os.path.join(tmp, "multi.spv")
    p = run([LINK, "--fnvar-targets", csv, "--fnvar-capabilities", "base.spv", "avx.spv", "-o", multi], cwd=tmp)
    if not check(p.returncode == 0, "spirv-link: the multi-target module", p.stderr.strip()):
        return
    check(sorted(asm_texts(multi, DIS_2026)) == ["add $0, $1, $2", "vpaddd $0, $1, $2"],
          "multi-target: both variants' assembly", str(asm_texts(multi, DIS_2026)))
    check(run([CLI, "info", multi]).returncode == 0, "multi-target: info reads it")
    rep = os.path.join(tmp, "multi.rep.spv")
    p = run([CLI, "repair", "-q", multi, "-o", rep])
    if not check(p.returncode == 0, "multi-target: repair", p.stderr.strip()):
        return
    check(run([CLI, "validate", rep]).returncode == 0, "multi-target, repaired: validate")
    ok, text = oracle.judge(rep, "repaired")
    check(ok, "multi-target, repaired: spirv-val", text)
    for label, flags, want in (("x86_64", ["--target", "4", "--features", ""], "add $0, $1, $2"),
                               ("x86_64 with avx512f", ["--target", "4", "--features", "12"], "vpaddd $0, $1, $2")):
        out = os.path.join(tmp, "multi.%d.spv" % len(flags))
        p = run([CLI, "specialize", "-q", *flags, "--capabilities", CAPS, rep, "-o", out])
        if not check(p.returncode == 0, "multi-target for %s: specialize" % label, p.stderr.strip()):
            continue
        check(asm_texts(out) == [want], "multi-target for %s: keeps '%s' only" % (label, want), str(asm_texts(out)))
        ok, text = oracle.judge(out, "specialized")
        check(ok, "multi-target for %s: spirv-val" % label, text)
        ok, text = reads_back(out)
        check(ok, "multi-target for %s: llvm-spirv-15 -r reads it" % label, text)
        ok, text = oracle.translated(rep, "repaired", ["--fnvar-target=4"] + (["--fnvar-features=12"] if len(flags) > 2
                                                                            else []))
        check(ok, "multi-target for %s: the translator's consumer reads the repaired module" % label, text)


def corrections_fixture(tmp):
    fixture = os.path.join(DATA, "corrections.spv")
    p = run([CLI, "info", fixture])
    check(p.returncode == 0 and "BFloat16TypeKHR" in p.stdout, "corrections: info reads bfloat16 and PowN",
          p.stderr.strip())
    check(run([CLI, "validate", fixture]).returncode == 0, "corrections: validate")
    if oracle.knows_extension:  # a validator of today's grammar; Debian's knows neither bfloat16 nor PowN's form
        ok, text = oracle.judge(fixture, "fixture")
        check(ok, "corrections: the fixture is valid", text)
    else:
        print("corrections: the fixture is not judged (%s predates its grammar)" % oracle.VAL_NAME)
    ann, out = os.path.join(tmp, "corr.ann.spv"), os.path.join(tmp, "corr.s.spv")
    p = run([CLI, "annotate", "-q", fixture, "-o", ann])
    if check(p.returncode == 0, "corrections: annotate", p.stderr.strip()):
        p = run([CLI, "specialize", "-q", ann, "-o", out])
        check(p.returncode == 0 and open(out, "rb").read() == open(fixture, "rb").read(),
              "corrections: the round trip is exact", p.stderr.strip())


def main():
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        every_command(tmp)
        multi_target(tmp)
        corrections_fixture(tmp)
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
