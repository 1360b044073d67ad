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
   multi-target module) with 1-4 words flipped or replaced, through the layer on every runtime, one host
   process taking mutant after mutant (a new one after a mutant that ends it); any signal or hang fails,
   and the input is kept in BUILD/layer-mutants/ to become a regression input.
   SPVCOND_MUTANTS sets the count per runtime (default 100; docs/opencl-layer.md gives a longer run)
   and SPVCOND_MUTANTS_SEED the seed."""
import os
import random
import re
import signal
import struct
import subprocess
import sys
import tempfile

from layer_common import BITCODE, CLI, DATA, HOST, LAYER, MOCK_ICD, PTX, SRC, compile_cl
from platforms import one_platform
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


def host_each(paths, platform, extra, env, kernels):
    """Each module through the host program (layer-host --each: one process takes module after module, an
    OpenCL platform started once), a new process after one a module ended: {path: (status, output)}, the
    status the module's exit status (0 built and ran, 1 refused), or -SIGNAL or "hang" for the module
    that ended the process."""
    results, left = {}, list(paths)
    while left:
        listing = os.path.join(os.path.dirname(left[0]), "each.list")
        with open(listing, "w") as f:
            f.write("".join(path + "\n" for path in left))
        try:
            p = subprocess.run([HOST, "--platform", platform, *extra, "--each", listing, *kernels], capture_output=True,
                               text=True, errors="replace", env=one_platform(env, platform),
                               timeout=60 + 150 * len(left))
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = "hang", _text(e.stdout), _text(e.stderr)
        parts = re.split(r"^== module (.*)$", out, flags=re.M)
        taken = 0
        for path, text in zip(parts[1::2], parts[2::2]):
            taken += 1
            status = re.search(r"^== status (\d+)$", text, re.M)
            if status:
                results[path] = (int(status.group(1)), text[:status.start()])
            else:  # this module ended the process: SIGALRM is the host's own limit (EACH_SECONDS)
                results[path] = ("hang" if rc in ("hang", -signal.SIGALRM) else rc, text + err)
        if not taken:  # no module reached: the platform itself failed
            for path in left:
                results[path] = (rc, out + err)
            break
        left = left[taken:]
    return results


def _text(data):
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


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
        defects = {}
        for k, (kind, (source, said)) in enumerate(KINDS.items()):
            path = os.path.join(tmp, "defect-%d.spv" % k)
            write_words(path, patched(modules[source], kind))
            defects[path] = (kind, said)
        for name, platform, extra, env in runtimes():
            results = host_each(list(defects), platform, extra, env, ["scale_float"])
            for path, (kind, said) in defects.items():
                rc, out = results[path]
                check(rc == 1 and "program: not built (OpenCL error -11)" in out and
                      re.search(r"^spvcond: .*" + said, out, re.M) is not None,
                      "%s: %s is refused at the build (CL_BUILD_PROGRAM_FAILURE) and the build log says why"
                      % (name, kind), "rc %s: %s" % (rc, out[-500:]))

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
            mutants = {}
            for n in range(COUNT):
                path = os.path.join(tmp, "mutant-%d.spv" % n)
                mutants[path] = (n, mutate(modules[sources[n % len(sources)]], rng))
                write_words(path, mutants[path][1])
            outcomes = {"refused": 0, "built": 0}
            bad = []
            results = host_each(list(mutants), platform, extra, env, ["scale_float", "refine", "scale", "reduce"])
            for path, (n, words) in mutants.items():
                rc, out = results[path]
                if rc == "hang" or rc < 0:
                    kept = os.path.join(KEEP, "%s-%d-%d.spv" % (name.replace(" ", "-"), SEED, n))
                    write_words(kept, words)
                    bad.append("%s (%s): %s" % (kept, "hang" if rc == "hang" else "signal %d" % -rc,
                                                out[-300:].replace("\n", " | ")))
                else:
                    outcomes["built" if "program: built" in out else "refused"] += 1
            check(not bad, "%s: %d mutants (seed %d) through the layer, no signal and no hang (%d refused, %d built)"
                  % (name, COUNT, SEED, outcomes["refused"], outcomes["built"]), "\n".join(bad[:5]))
            print("%s: %d mutants, %s" % (name, COUNT, outcomes))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
