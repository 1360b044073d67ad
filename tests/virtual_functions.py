#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Virtual functions with optional features end to end (spec/virtual-functions.md).

OpenCL C with function pointers written the way a user would (tests/data/virtual/*.cl: DPC++'s two design
examples and more shapes), compiled at test time with clang-15 (CL2.0, __cl_clang_function_pointers) +
llvm-spirv-15 (SPV_INTEL_function_pointers), annotated with the sets stated in *.yaml, then: validate;
reqs and check per kernel (the constructor requires nothing, a kernel calling a set what the set needs);
the [SYCL/virtual functions] property, the same from annotate --props and reqs --props; specialize for
every built-in device: every stub stays, a body stays exactly when the device has its set's aspects, no
Float64 / Float16 capability or type is left for a device without them, and the translator reads the
result back (llvm-spirv-15 -r: Debian's spirv-val rejects every function-pointer module, even the
compiler's own output). Today's spirv-val (tests/oracle.py) judges every annotated and specialized module
whose input it accepts, and the translator's function-variants consumer reads every annotated one. Also: no set stated (the default set, and the warning),
errors (an unknown set, a function in two sets, a kernel as a virtual function), and, with the JIT client,
what pocl and rusticl make of the constructor and use kernels."""
import json
import os
import re
import subprocess
import sys
import tempfile

import oracle
from platforms import one_platform
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
JIT = os.environ.get("SPVCOND_JIT")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
VIRTUAL = os.path.join(SRC, "data", "virtual")


def has(d, aspect):
    return aspect in d["aspects"] or d["may_support_other_aspects"]


# Per program: the kernels' requirements; the stubs (virtual functions) and the aspects their bodies need.
PROGRAMS = {
    "design": ({"construct": set(), "use": set(), "use_fp64": {"fp64"}},
               {"base_foo": set(), "base_bar": {"fp64"}}),
    "split": ({"build": set(), "call_foo": {"fp64"}, "call_bar": set()},
              {"foo_foo": {"fp64"}, "foo_bar": set()}),
    "features": ({"fill": set(), "direct": set(), "by_index": set(), "mix": {"fp64"}, "halves": {"fp16"}},
                 {"plain_add": set(), "dbl_pow": {"fp64"}, "half_scale": {"fp16"}}),
}
# Functions besides the virtual ones that a device keeps: the helpers of the fp64 body.
HELPERS = {"features": lambda d: {"square"} if has(d, "fp64") else set()}
# What the property set says the kernels use.
USES = {"design": "_ZTSv,set_fp64", "split": "fp64_set,regular_set", "features": "_ZTSv,set_fp16,set_fp64"}

def compile_cl(name, tmp, *extra):
    bc, spv = (os.path.join(tmp, name + e) for e in (".bc", ".spv"))
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL2.0", "-Xclang",
                    "-cl-ext=+__cl_clang_function_pointers", "-Xclang", "-finclude-default-header", "-emit-llvm",
                    "-O0", *extra, os.path.join(VIRTUAL, name + ".cl"), "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-ext=+SPV_INTEL_function_pointers", bc, "-o", spv], check=True)
    return spv


def module_text(spv):
    """Function names by definition, capabilities and float types, from the translator's reading: the
    module goes through llvm-spirv-15 -r (the oracle) and llvm-dis-15."""
    bc = spv + ".bc"
    p = run(["llvm-spirv-15", "-r", spv, "-o", bc])
    if p.returncode != 0:
        return None, p.stderr
    return run(["llvm-dis-15", bc, "-o", "-"]).stdout, ""


def defined(ll):
    return set(re.findall(r"^define [^@]*@([\w.]+)\(", ll, re.M))


def props_uses(text):
    m = re.search(r"\[SYCL/virtual functions\]\nuses-virtual-functions-set=2\|(\S+)", text)
    if not m:
        return None
    # LLVM's base64 packs bits LSB first; decode it the way spec/props.md says.
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    bits = 0
    for k, c in enumerate(m.group(1)):
        bits |= alphabet.index(c) << (6 * k)
    raw = bits.to_bytes((6 * len(m.group(1)) + 7) // 8, "little")
    size = int.from_bytes(raw[:8], "little") // 8
    return raw[8:8 + size].decode()


def annotated(name, tmp, yaml=True):
    spv = compile_cl(name, tmp)
    ann = os.path.join(tmp, name + ".ann.spv")
    props = os.path.join(tmp, name + ".prop")
    extra = ["--requirements", os.path.join(VIRTUAL, name + ".yaml")] if yaml else []
    p = run([CLI, "annotate", *extra, "--props", props, spv, "-o", ann])
    if p.returncode == 0:
        ok, text = oracle.judge_like(spv, ann, "annotated")
        check(ok, "%s annotated: spirv-val" % name, text)
        ok, text = oracle.translated_like(spv, ann)
        check(ok, "%s annotated: the translator's consumer reads it" % name, text)
    return spv, ann, props, p


def main():
    devices = json.loads(run([CLI, "devices", "--json"], check=True).stdout)
    devices = [d for d in devices if d["source"] == "built-in"]
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        for name, (kernels, members) in PROGRAMS.items():
            spv, ann, props, p = annotated(name, tmp)
            if not check(p.returncode == 0, "%s: annotate" % name, p.stderr.strip()):
                continue
            check("warning" not in p.stderr, "%s: every indirect call's set is stated" % name, p.stderr.strip())
            stubs = sum(1 for need in members.values() if need)
            check(re.search(r"%d virtual-function stubs" % stubs, p.stderr), "%s: %d stubs" % (name, stubs),
                  p.stderr.strip())
            v = run([CLI, "validate", ann])
            check(v.returncode == 0, "%s: validate proves no specialization dangles" % name, v.stdout + v.stderr)
            reqs = json.loads(run([CLI, "reqs", "--json", ann], check=True).stdout)
            got = {k["kernel"]: {r["aspect"] for r in k["requirements"]} for k in reqs}
            check(got == kernels, "%s: each kernel requires its sets' aspects, the constructor nothing" % name,
                  "%s, expected %s" % (got, kernels))
            # DPC++'s own entry for gfx941 lists no aspect at all: every requirement shows.
            verdicts = run([CLI, "check", "--device", "dpcpp:amd_gpu_gfx941", ann]).stdout
            for kernel, need in kernels.items():
                want = ("Required aspect %s is not supported on the device" % sorted(need)[0]) if need else \
                    "%s: supported" % kernel
                check(want in verdicts, "%s: check says of %s: %s" % (name, kernel, want), verdicts)
            with open(props) as f:
                text = f.read()
            check(props_uses(text) == USES[name], "%s: uses-virtual-functions-set" % name, text)
            check(run([CLI, "reqs", "--props", ann]).stdout == text, "%s: reqs --props = annotate --props" % name)
            check("virtual-function sets used: %s\n" % USES[name] in run([CLI, "reqs", ann]).stdout,
                  "%s: reqs lists the sets used" % name)

            for d in devices:
                out = os.path.join(tmp, "%s.%s.spv" % (name, d["name"]))
                p = run([CLI, "specialize", "-q", "--device", d["name"], ann, "-o", out])
                if not check(p.returncode == 0, "%s: specialize for %s" % (name, d["name"]), p.stderr.strip()):
                    continue
                ok, text = oracle.judge_like(spv, out, "specialized")
                check(ok, "%s for %s: spirv-val" % (name, d["name"]), text)
                ll, err = module_text(out)
                if not check(ll is not None, "%s for %s: llvm-spirv-15 -r reads it" % (name, d["name"]), err):
                    continue
                want = {k for k, need in kernels.items() if all(has(d, a) for a in need)}
                for member, need in members.items():
                    want.add(member)  # the stub: every vtable entry resolves
                    if need and all(has(d, a) for a in need):
                        want.add(member + ".body")
                want |= HELPERS.get(name, lambda d: set())(d)
                kept = defined(ll) - {"clamp01"}  # called by a kernel and by a body: kept everywhere
                check(kept == want, "%s for %s: functions" % (name, d["name"]),
                      "kept %s, expected %s" % (sorted(kept), sorted(want)))
                dis = run([SPIRV_DIS, out]).stdout
                if not has(d, "fp64"):
                    check(" double" not in ll and not re.search(r"Float64|OpTypeFloat 64", dis),
                          "%s for %s: no Float64, no double" % (name, d["name"]))
                if not has(d, "fp16"):
                    check(" half" not in ll and not re.search(r"Float16\b|OpTypeFloat 16", dis),
                          "%s for %s: no Float16, no half" % (name, d["name"]))

        # Debug information follows: the stub keeps the function's DISubprogram; the translator reads each
        # specialization back and LLVM's verifier accepts it.
        spv = compile_cl("design", tmp, "-g")
        ann = os.path.join(tmp, "design.g.ann.spv")
        p = run([CLI, "annotate", "-q", "--requirements", os.path.join(VIRTUAL, "design.yaml"), spv, "-o", ann])
        check(p.returncode == 0 and run([CLI, "validate", ann]).returncode == 0, "-g: annotate, validate", p.stderr)
        for dev in ("intel_gpu_pvc", "intel_gpu_tgllp"):
            out = os.path.join(tmp, "design.g.%s.spv" % dev)
            p = run([CLI, "specialize", "-q", "--device", dev, ann, "-o", out])
            ll, err = module_text(out) if p.returncode == 0 else (None, p.stderr)
            v = run(["opt-15", "-passes=verify", out + ".bc", "-o", os.devnull]) if ll else None
            check(ll and v.returncode == 0 and re.search(r"define [^@]*@base_bar\(float %0\) #\d+ !dbg", ll),
                  "-g on %s: read back, verified, base_bar keeps its debug information" % dev,
                  err + (v.stderr if v else ""))

        # No set stated: the vtable's functions form the default set, which the calling kernels use (and
        # are told so); the constructor still requires nothing.
        spv, ann, props, p = annotated("design", tmp, yaml=False)
        check(p.returncode == 0 and "kernel 'use_fp64' makes an indirect call but states no calls_indirectly"
              in p.stderr, "no sets stated: the warning", p.stderr)
        got = run([CLI, "reqs", ann]).stdout
        check("construct: no requirements" in got and re.search(r"use_fp64:\n  aspect fp64", got),
              "no sets stated: the constructor requires nothing, the callers the default set's fp64", got)

        # Errors name what is wrong; nothing is written.
        spv = os.path.join(tmp, "design.spv")
        for yaml, message in (("use:\n  calls_indirectly: [nowhere]\n",
                               "'use' calls virtual-function set 'nowhere', but no function is in that set"),
                              ("base_bar:\n  indirectly_callable: a\nbase_bar:\n  indirectly_callable: b\n",
                               "function 'base_bar' is stated in two virtual-function sets, 'a' and 'b'"),
                              ("use:\n  indirectly_callable: s\n",
                               "kernel 'use' is stated indirectly_callable: a kernel cannot be a virtual function"),
                              ("base_bar:\n  indirectly_callable: 'a,b'\n", "cannot hold ','")):
            reqs = os.path.join(tmp, "bad.yaml")
            with open(reqs, "w") as f:
                f.write(yaml)
            out = os.path.join(tmp, "bad.spv")
            p = run([CLI, "annotate", "--requirements", reqs, spv, "-o", out])
            check(p.returncode == 1 and message in p.stderr and not os.path.exists(out),
                  "refused: %s" % message, p.stderr.strip())

        # The runtimes: the constructor, then the kernels calling through the objects it built, on one buffer.
        if JIT:
            ann = os.path.join(tmp, "design.ann.spv")
            env = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")
            for platform in ("pocl", "rusticl"):
                p = run([JIT, "--platform", platform, "--print", "--shared", ann], env=one_platform(env, platform),
                        timeout=600)
                got = re.search(r"use: results (\S+)", p.stdout)
                if got:
                    check(float(got.group(1)) == 2.0, "design on %s: use calls base_foo" % platform, p.stdout)
                    print("design on %s: %s" % (platform, " / ".join(re.findall(r"\w+: results [^\n]*", p.stdout))))
                    continue
                # The runtime cannot run it: then it cannot run the compiler's own module either.
                q = run([JIT, "--platform", platform, "--raw", "--print", "--shared", spv],
                        env=one_platform(env, platform), timeout=600)
                said = (p.stdout + p.stderr).strip().splitlines()
                check(not re.search(r"use: results", q.stdout),
                      "design on %s: fails only where the unannotated module fails too" % platform, q.stdout)
                print("design on %s: cannot run function pointers (the compiler's own module neither): %s" %
                      (platform, next((x for x in said if "symbol" in x or "panicked" in x), said[-1:] or "")))
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
