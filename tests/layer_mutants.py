#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A malformed module through the OpenCL layer never takes the application down (docs/opencl-layer.md,
"Validation").

1. Modules of the kinds that once ended the process, made here by patching real ones (OpenCL C compiled
   with clang-15 + llvm-spirv-15, annotated): a store through a value that is not a pointer, an index into
   a scalar, an extended instruction number OpenCL.std lacks, an Aligned memory access and an Alignment
   decoration that are not powers of two, a decoration of the OpenCL.std import, 32-bit pointers for a
   64-bit device, an entry point name that is not UTF-8. Each is refused with CL_INVALID_VALUE and the
   reason on rusticl, pocl and the mock NVIDIA driver, and never handed to the driver. The command-line
   tool's --validate refuses such a module at annotate and at specialize.
2. A campaign with a fixed seed: mutants of annotated modules (several kernels, guarded code, a
   multi-target module) with 1-4 words flipped or replaced, through the layer on every runtime; any
   signal or hang fails, and the input is kept in BUILD/layer-mutants/ to become a regression input.
   SPVCOND_MUTANTS sets the count per runtime (default 100; docs/opencl-layer.md gives a longer run)
   and SPVCOND_MUTANTS_SEED the seed."""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

from layer_common import BITCODE, CLI, DATA, HOST, LAYER, MOCK_ICD, PTX, SRC, compile_cl
from verdicts import check, summary

COUNT = int(os.environ.get("SPVCOND_MUTANTS", "100"))
SEED = int(os.environ.get("SPVCOND_MUTANTS_SEED", "1"))
KEEP = os.path.join(os.environ.get("MESON_BUILD_ROOT", tempfile.gettempdir()), "layer-mutants")
BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
            OPENCL_LAYERS=LAYER)


def runtimes():
    """(name, platform, extra host arguments, environment)."""
    out = [("rusticl", "rusticl", [], BASE)]
    if BITCODE:
        out.append(("pocl", "pocl", [], BASE))
    if MOCK_ICD and PTX:
        out.append(("mock NVIDIA", "NVIDIA", ["--create-only"], dict(BASE, OCL_ICD_VENDORS=MOCK_ICD,
                                                                     SPVCOND_MOCK_NVIDIA="1")))
    return out

def read_words(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def write_words(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))


def instructions(words):
    """[(word offset, opcode, operand words)] of a module."""
    out, k = [], 5
    while k < len(words):
        n = words[k] >> 16
        out.append((k, words[k] & 0xFFFF, words[k + 1:k + n]))
        k += n
    return out


def first(words, opcode, test=lambda ops: True):
    return next((k, ops) for k, op, ops in instructions(words) if op == opcode and test(ops))


def patched(words, kind):
    """A copy of the module with one defect of the kind named."""
    w = list(words)
    if kind == "a store through a value that is not a pointer":
        k, ops = first(w, 62)  # OpStore pointer object
        w[k + 1] = ops[1]
    elif kind == "an index into a scalar":
        k, ops = first(w, 81)  # OpCompositeExtract: one more index than the type has
        w[k] += 1 << 16
        w.insert(k + 1 + len(ops), 0)
    elif kind == "an extended instruction OpenCL.std lacks (2075)":
        k, ops = first(w, 12)  # OpExtInst type result set instruction
        w[k + 4] = 2075
    elif kind == "an Aligned memory access that is not a power of two":
        k, ops = first(w, 61, lambda ops: len(ops) >= 5 and ops[3] & 2)  # OpLoad ... Aligned N
        w[k + 5] = 524296
    elif kind == "an Alignment decoration that is not a power of two":
        k, ops = first(w, 71, lambda ops: len(ops) == 3 and ops[1] == 44)
        w[k + 3] = 0xFFFFFFFF
    elif kind == "a decoration of the OpenCL.std import":
        _, imp = first(w, 11)
        k, ops = first(w, 71)
        w[k + 1] = imp[0]
    elif kind == "32-bit pointers for a 64-bit device":
        k, ops = first(w, 14)  # OpMemoryModel Physical64 -> Physical32
        w[k + 1] = 1
    elif kind == "an entry point name that is not UTF-8":
        k, ops = first(w, 15)
        w[k + 3] = (w[k + 3] & 0xFFFF00FF) | (0xD6 << 8)
    return w


KINDS = {
    # kind: (the module it patches, what the refusal says)
    "a store through a value that is not a pointer": ("demo", r"SPIRV-Tools' validator: .*OpStore"),
    "an index into a scalar": ("demo", r"SPIRV-Tools' validator: .*(non-composite|Reached)"),
    "an extended instruction OpenCL.std lacks (2075)": ("printf", r"(2075|unknown to our grammar)"),
    "an Aligned memory access that is not a power of two": ("demo", r"(power of two|SPIRV-Tools' validator)"),
    "an Alignment decoration that is not a power of two": ("kernels", r"alignment that is not a power of two"),
    "a decoration of the OpenCL.std import": ("demo", r"(SPIRV-Tools' validator|defined before the decorations)"),
    "32-bit pointers for a 64-bit device": ("demo", r"(pointers are 32 bits|SPIRV-Tools' validator|32-bit)"),
    "an entry point name that is not UTF-8": ("demo", r"(not UTF-8|SPIRV-Tools' validator)"),
}


def host(module, platform, extra, env, kernels):
    try:
        p = subprocess.run([HOST, "--platform", platform, *extra, module, *kernels], capture_output=True,
                           text=True, errors="replace", env=env, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "hang", "", ""


def mutate(words, rng):
    w = list(words)
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(5, len(w))
        how = rng.randrange(5)
        if how == 0:
            w[k] ^= 1 << rng.randrange(32)
        elif how == 1:
            w[k] = 0
        elif how == 2:
            w[k] = 1
        elif how == 3:
            w[k] = 0xFFFFFFFF
        elif rng.random() < 0.5:
            w[k] = (w[k] & 0xFFFF) | (rng.randrange(1, 12) << 16)  # another word count
        else:
            w[k] = rng.getrandbits(32)
    return w


def main():
    with tempfile.TemporaryDirectory() as tmp:
        modules = {}
        for name, source, flags in (("demo", os.path.join(SRC, "data", "jit_demo.cl"), []),
                                    ("chain", os.path.join(SRC, "data", "guards", "chain.cl"),
                                     ["-I", os.path.join(SRC, "..", "include")]),
                                    ("kernels", os.path.join(SRC, "data", "layer", "kernels.cl"), []),
                                    ("printf", os.path.join(SRC, "data", "layer", "printf.cl"), [])):
            plain = os.path.join(tmp, name + ".spv")
            compile_cl(source, plain, tmp, *flags)
            annotated = os.path.join(tmp, name + ".a.spv")
            subprocess.run([CLI, "annotate", "-q", plain, "-o", annotated], check=True)
            modules[name] = read_words(annotated)
        modules["multi-target"] = read_words(os.path.join(DATA, "multi_target.spv"))

        # 1. The kinds that once ended the process.
        for kind, (source, said) in KINDS.items():
            path = os.path.join(tmp, "defect.spv")
            write_words(path, patched(modules[source], kind))
            for name, platform, extra, env in runtimes():
                rc, out, err = host(path, platform, extra, env, ["scale_float"])
                check(rc == 1 and "program: not built (OpenCL error -11)" in out and
                      re.search(r"^spvcond: .*" + said, out, re.M) is not None,
                      "%s: %s is refused at the build (CL_BUILD_PROGRAM_FAILURE) and the build log says why"
                      % (name, kind), "rc %s: %s" % (rc, (out + err)[-500:]))

        # The command-line tool learns of the same module at the step that received it, with --validate.
        plain = os.path.join(tmp, "demo.spv")
        bad = os.path.join(tmp, "store.spv")
        write_words(bad, patched(read_words(plain), "a store through a value that is not a pointer"))
        out = os.path.join(tmp, "out.spv")
        p = subprocess.run([CLI, "annotate", "-q", "--validate", plain, "-o", out], capture_output=True, text=True)
        check(p.returncode == 0 and os.path.exists(out), "annotate --validate takes a valid module", p.stderr)
        os.remove(out)
        p = subprocess.run([CLI, "annotate", "-q", "--validate", bad, "-o", out], capture_output=True, text=True)
        check(p.returncode == 1 and not os.path.exists(out) and
              "the input is not valid SPIR-V 1.0 (SPIRV-Tools' validator: OpStore" in p.stderr,
              "annotate --validate refuses a store through a value that is not a pointer (exit 1, no output)",
              p.stderr)
        annotated = os.path.join(tmp, "store.a.spv")
        subprocess.run([CLI, "annotate", "-q", bad, "-o", annotated], check=True)
        p = subprocess.run([CLI, "specialize", "-q", "--validate", "--device", "intel_gpu_pvc", annotated, "-o", out],
                           capture_output=True, text=True)
        check(p.returncode == 1 and not os.path.exists(out) and
              "the specialized module is not valid SPIR-V 1.0 (SPIRV-Tools' validator: OpStore" in p.stderr,
              "specialize --validate refuses it too (exit 1, no output)", p.stderr)

        # 2. The campaign.
        os.makedirs(KEEP, exist_ok=True)
        sources = ["demo", "chain", "multi-target", "kernels"]
        for name, platform, extra, env in runtimes():
            rng = random.Random("%d %s" % (SEED, name))
            outcomes = {"refused": 0, "built": 0}
            bad = []
            for n in range(COUNT):
                source = sources[n % len(sources)]
                path = os.path.join(tmp, "mutant.spv")
                words = mutate(modules[source], rng)
                write_words(path, words)
                rc, out, err = host(path, platform, extra, env, ["scale_float", "refine", "scale", "reduce"])
                if rc == "hang" or rc < 0:
                    kept = os.path.join(KEEP, "%s-%d-%d.spv" % (name.replace(" ", "-"), SEED, n))
                    write_words(kept, words)
                    bad.append("%s (%s): %s" % (kept, "hang" if rc == "hang" else "signal %d" % -rc,
                                                err[-300:].replace("\n", " | ")))
                else:
                    outcomes["built" if "program: built" in out else "refused"] += 1
            check(not bad, "%s: %d mutants (seed %d) through the layer, no signal and no hang (%d refused, %d built)"
                  % (name, COUNT, SEED, outcomes["refused"], outcomes["built"]), "\n".join(bad[:5]))
            print("%s: %d mutants, %s" % (name, COUNT, outcomes))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
