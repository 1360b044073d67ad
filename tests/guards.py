#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Guarded code end to end (spec/guards.md).

OpenCL C written the way a user would (tests/data/guards/*.cl, with the shipped spvcond/device_if.h),
compiled at test time with clang-15 + llvm-spirv-15, then annotate -> validate -> specialize for every
built-in device -> Debian spirv-val. For each program and device: the functions kept, by name, are the
path the device takes (and only it); no branch on a frozen condition and no spvcond.* name is left; the
kernel requires nothing a guard covers (reqs) and every device supports it (check); every annotated module
is one the translator's consumer can take (translator_shapes.py), the fixtures' too, and a fixture without
guards specialized with every condition true is the fixture, byte for byte. Also: the inline-use
warning, bad markers (an error naming the instruction, no output), guard SpecIds stated in a
requirements file and the extension's device constants (assembled fixtures), and, when the JIT client
was built, the chain kernel on rusticl (fallback path) and pocl (fp64 path)."""
import json
import os
import re
import subprocess
import sys
import tempfile

import oracle
from platforms import one_platform
import translator_shapes
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
DATA = os.environ["SPVCOND_TEST_DATA"]
JIT = os.environ.get("SPVCOND_JIT")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
INCLUDE = os.path.join(SRC, "..", "include")
GUARDS = os.path.join(SRC, "data", "guards")


def has(d, aspect):
    return aspect in d["aspects"] or d["may_support_other_aspects"]


def arch(d):
    return tuple(d.get("architecture", ()))


PVC = (2, 1, 21)

# Per program: the kernel, and the functions a device keeps besides it.
PROGRAMS = {
    "chain": ("refine", lambda d: {"refine_fp64"} if has(d, "fp64") else
              {"refine_fp16"} if has(d, "fp16") else {"refine_fp32"}),
    "if_else": ("twice", lambda d: {"twice_fp64"} if has(d, "fp64") else {"twice_fp32"}),
    "nested": ("nested", lambda d: ({"count_atomic64"} if has(d, "atomic64") else {"count_fp64"})
               if has(d, "fp64") else {"count_plain"}),
    "call_chain": ("norm", lambda d: {"norm_fp64", "square"} if has(d, "fp64") else {"norm_fp32"}),
    "shared_helper": ("shared", lambda d: {"offset", "offset_fp64"} if has(d, "fp64") else {"offset"}),
    "phi": ("pick", lambda d: {"pick_fp64"} if has(d, "fp64") else {"pick_fp32"}),
    "loop": ("steps", lambda d: {"step_fp64"} if has(d, "fp64") else {"step_fp32"}),
    "switch": ("modes", lambda d: {"mode_fp64"} if has(d, "fp64") else {"mode_fp32"}),
    "arch": ("tuned", lambda d: {"on_pvc"} if arch(d) == PVC else
             {"on_intel_gpu"} if arch(d)[:2] == (2, 1) else {"elsewhere"}),
}
# Built-in targets that do not say which architecture they are: spir64 (any device) and spir64_gen (an
# Intel GPU, chosen later). The x86_64 targets are CPUs and spir64_fpga no registry category: "elsewhere".
UNDECIDED = ("spir64", "spir64_gen")
BAD = {
    "bad_body": "__spvcond_device_has is a marker, declared and never defined, but function",
    "bad_argument": "__spvcond_device_has: argument 1 is not an integer constant",
    "bad_aspect": "__spvcond_device_has(35): no aspect has that number",
    "bad_architecture": "__spvcond_architecture_is(2, 1, 999): the device registry has no such architecture",
}

def compile_cl(name, tmp):
    bc, spv = (os.path.join(tmp, name + e) for e in (".bc", ".spv"))
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                    "-emit-llvm", "-O0", "-I", INCLUDE, os.path.join(GUARDS, name + ".cl"), "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", spv], check=True)
    return spv


def functions(spv):
    """Names of the module's named functions (llvm-spirv's entry-point wrappers have none)."""
    text = run([SPIRV_DIS, "--raw-id", spv]).stdout
    names = dict(re.findall(r'OpName %(\d+) "([^"]*)"', text))
    return {names[i] for i in re.findall(r"%(\d+) = OpFunction ", text) if i in names}, text


def folded(text):
    """No branch left on a constant, nor any requirement constant's name."""
    consts = set(re.findall(r"%(\d+) = OpConstant(?:True|False) ", text))
    branches = re.findall(r"OpBranchConditional %(\d+) ", text)
    return not any(b in consts for b in branches) and "spvcond." not in text


def annotate(spv, out, *extra):
    """spvcond annotate; what it writes goes to today's validator and the translator's consumer."""
    p = run([CLI, "annotate", *extra, spv, "-o", out])
    if p.returncode == 0:
        ok, text = oracle.judge_like(spv, out, "annotated")
        check(ok, "%s annotated: spirv-val" % os.path.basename(spv), text)
        ok, text = oracle.translated_like(spv, out)
        check(ok, "%s annotated: the translator's consumer reads it" % os.path.basename(spv), text)
    return p


def specialize_everywhere(name, ann, devices, expect, kernel, tmp):
    """Specialize for every device; check spirv-val, the kept functions and the folding."""
    for d in devices:
        out = os.path.join(tmp, "%s.%s.spv" % (name, d["name"]))
        p = run([CLI, "specialize", "-q", "--device", d["name"], ann, "-o", out])
        if name == "arch" and d["name"] in UNDECIDED:
            check(p.returncode == 2 and "needs the device's architecture" in p.stderr,
                  "arch: %s does not say which architecture it is: refused, naming the fact" % d["name"], p.stderr)
            continue
        if not check(p.returncode == 0, "%s: specialize for %s" % (name, d["name"]), p.stderr.strip()):
            continue
        ok, text = oracle.judge(out, "specialized")
        check(ok, "%s for %s: spirv-val" % (name, d["name"]), text)
        kept, text = functions(out)
        want = expect(d) | ({kernel} if kernel else set())
        check(kept == want, "%s for %s: functions kept" % (name, d["name"]),
              "kept %s, expected %s" % (sorted(kept), sorted(want)))
        check(folded(text), "%s for %s: guard branches folded, no requirement constant left" % (name, d["name"]))
        # What a consumer that does not fold gives: the same functions, valid, the branches left on constants.
        p = run([CLI, "specialize", "-q", "--no-fold", "--device", d["name"], ann, "-o", out])
        ok, text = oracle.judge(out, "specialized") if p.returncode == 0 else (False, "")
        check(p.returncode == 0 and ok and functions(out)[0] == want,
              "%s for %s, not folded: valid, the same functions" % (name, d["name"]), p.stderr + text)


def main():
    devices = json.loads(run([CLI, "devices", "--json"], check=True).stdout)
    devices = [d for d in devices if d["source"] == "built-in"]
    check(len(devices) > 50, "built-in devices listed", str(len(devices)))
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        for name, (kernel, expect) in PROGRAMS.items():
            spv = compile_cl(name, tmp)
            ann = os.path.join(tmp, name + ".ann.spv")
            p = annotate(spv, ann, "-q")
            if not check(p.returncode == 0, "%s: annotate" % name, p.stderr.strip()):
                continue
            v = run([CLI, "validate", ann])
            check(v.returncode == 0, "%s: validate" % name, v.stdout + v.stderr)
            shapes = translator_shapes.problems(ann)
            check(not shapes, "%s: the translator's consumer can take it" % name, "; ".join(shapes[:3]))
            reqs = run([CLI, "reqs", ann]).stdout
            check("%s: no requirements" % kernel in reqs, "%s: the kernel requires nothing" % name, reqs.strip())
            verdicts = run([CLI, "check", "--device", "amd_gpu_gfx941", ann]).stdout
            check("not supported" not in verdicts, "%s: supported on a device without fp64 or fp16" % name,
                  verdicts.strip())
            specialize_everywhere(name, ann, devices, expect, kernel, tmp)

        # Inline use: a warning naming the function, the instruction and the guard; fp64 is required.
        spv = compile_cl("inline", tmp)
        ann = os.path.join(tmp, "inline.ann.spv")
        p = annotate(spv, ann)
        check(p.returncode == 0 and re.search(r"warning: .*inline_use uses fp64 inline \(OpFConvert\) under the "
                                              r"guard device_has\(fp64\).*move that code into a function", p.stderr),
              "inline use: warning", p.stderr.strip())
        check("Required aspect fp64" in run([CLI, "check", "--device", "intel_gpu_acm_g10", ann]).stdout,
              "inline use: the kernel requires fp64")
        specialize_everywhere("inline", ann, devices, lambda d: {"inline_use"} if has(d, "fp64") else set(), None,
                              tmp)

        # Bad markers: an error naming the instruction, exit 1, no output.
        for name, message in BAD.items():
            spv = compile_cl(name, tmp)
            out = os.path.join(tmp, name + ".ann.spv")
            p = annotate(spv, out)
            check(p.returncode == 1 and message in p.stderr and re.search(r"\[Op\w+, instruction \d+\]", p.stderr)
                  and not os.path.exists(out), "%s: refused" % name, p.stderr.strip())

        # A front end's guard constant, declared by a requirements file.
        reqs = os.path.join(tmp, "guards.yaml")
        with open(reqs, "w") as f:
            f.write("spec-constants:\n  100: fp64\n")
        ann = os.path.join(tmp, "spec_ids.ann.spv")
        p = annotate(os.path.join(DATA, "guard_spec_ids.spv"), ann, "-q", "--requirements", reqs)
        if check(p.returncode == 0, "guard SpecIds: annotate", p.stderr.strip()):
            check(run([CLI, "validate", ann]).returncode == 0, "guard SpecIds: validate")
            check("k: no requirements" in run([CLI, "reqs", ann]).stdout, "guard SpecIds: k requires nothing")
            specialize_everywhere("guard_spec_ids", ann, devices,
                                  lambda d: {"fast"} if has(d, "fp64") else {"slow"}, "k", tmp)
        with open(reqs, "w") as f:
            f.write("spec-constants:\n  100: fp64\n  101: fp64\n")
        p = annotate(os.path.join(DATA, "guard_spec_ids.spv"), os.path.join(tmp, "two.spv"), "--requirements", reqs)
        check(p.returncode == 1 and "one SpecId per aspect" in p.stderr, "guard SpecIds: two for one aspect refused",
              p.stderr.strip())

        # The extension's device constants and a tree of them.
        ann = os.path.join(tmp, "device_constants.ann.spv")
        p = annotate(os.path.join(DATA, "guard_device_constants.spv"), ann, "-q")
        if check(p.returncode == 0, "device constants: annotate", p.stderr.strip()):
            check(run([CLI, "validate", ann]).returncode == 0, "device constants: validate")
            check("k: no requirements" in run([CLI, "reqs", ann]).stdout,
                  "device constants: a guard on capability Float64 covers fp64")
            for dev, want in (("intel_gpu_pvc", {"k", "tuned"}), ("intel_gpu_acm_g10", {"k", "plain"})):
                out = os.path.join(tmp, "dc.%s.spv" % dev)
                p = run([CLI, "specialize", "-q", "--device", dev, "--capabilities", "Float64", ann, "-o", out])
                check(p.returncode == 0 and oracle.judge(out, "specialized")[0], "device constants: %s" % dev,
                      p.stderr)
                kept, text = functions(out)
                check(kept == want and "OpBranchConditional" not in text, "device constants on %s: path" % dev,
                      str(sorted(kept)))

        # Every fixture annotate accepts gives a module the translator's consumer can take.
        for fixture in sorted(f for f in os.listdir(DATA) if f.endswith(".spv")):
            ann = os.path.join(tmp, "fixture.ann.spv")
            if annotate(os.path.join(DATA, fixture), ann, "-q").returncode == 0:
                shapes = translator_shapes.problems(ann)
                check(not shapes, "fixture %s: the translator's consumer can take it" % fixture, "; ".join(shapes[:3]))
                back = os.path.join(tmp, "fixture.back.spv")
                if not fixture.startswith(("guard_", "virtual_")):  # rewritten; the round trip is for the others
                    check(run([CLI, "specialize", "-q", ann, "-o", back]).returncode == 0 and
                          open(back, "rb").read() == open(os.path.join(DATA, fixture), "rb").read(),
                          "fixture %s: specialized with every condition true, the module annotated" % fixture)
                os.remove(ann)

        # Real runtimes: the chain's kernel takes the fallback on rusticl, the fp64 path on pocl.
        if JIT:
            ann = os.path.join(tmp, "chain.ann.spv")
            env = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")
            for platform, path, value in (("rusticl", "fallback", 32), ("pocl", "fp64", 64)):
                for fold in ([], ["--no-fold"]):
                    p = run([JIT, "--platform", platform, "--print", *fold, ann], env=one_platform(env, platform),
                            timeout=600)
                    got = re.search(r"refine: results (\S+) (\S+) (\S+) (\S+)", p.stdout)
                    want = [value + i / 2 for i in range(4)]
                    check(got is not None and [float(x) for x in got.groups()] == want,
                          "chain on %s%s takes the %s path (x / 2 + %d)" % (platform, " (not folded)" if fold else "",
                                                                          path, value), p.stdout + p.stderr)
                    print("chain on %s%s: %s" % (platform, " (not folded)" if fold else "",
                                                 got.group(0) if got else "no result"))
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
