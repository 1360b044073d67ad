#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed corpora for the fuzz targets: SPIR-V assembled from the test fixtures, small real modules,
annotated versions, and text inputs for the text readers.
Usage: make_seeds.py OUT CORPUS_DIR (tools/make-corpus.py --print-dir gives the folder)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def function_name_mask(data):
    """Generator word for fuzz_annotate's stated requirements: low bit on, second byte selecting, among
    the first eight word-aligned strings (as the harness finds them), those naming functions."""
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data) - 3, 4)]
    functions, names, p = set(), set(), 5
    insts = []
    while p < len(words) and words[p] >> 16:
        insts.append(words[p:p + (words[p] >> 16)])
        p += words[p] >> 16
    text = lambda ws: b"".join(w.to_bytes(4, "little") for w in ws).split(b"\0")[0]
    functions = {w[2] for w in insts if w[0] & 0xffff == 54 and len(w) > 2}
    names = {text(w[3:]) for w in insts if w[0] & 0xffff == 15 and len(w) > 3}
    names |= {text(w[2:]) for w in insts if w[0] & 0xffff == 5 and len(w) > 2 and w[1] in functions}
    mask, seen, at = 0, 0, 20
    while at + 1 < len(data) and seen < 8:
        n = 0
        while at + n < len(data) and n < 64 and 0x20 < data[at + n] < 0x7f:
            n += 1
        if n and at + n < len(data) and data[at + n] == 0:
            mask |= (data[at:at + n] in names) << seen
            seen += 1
            at += n & ~3
        at += 4
    return mask


out = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = sys.argv[2]
for t in ["fuzz_roundtrip", "fuzz_annotate", "fuzz_specialize", "fuzz_validate", "fuzz_text", "fuzz_builtin_names", "fuzz_driver_checks", "fuzz_cache_entry"]:
    os.makedirs(os.path.join(out, t), exist_ok=True)
modules = []
with tempfile.TemporaryDirectory() as tmp:
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "*.spvasm"))):
        dst = os.path.join(tmp, os.path.basename(src) + ".spv")
        if subprocess.run(["spirv-as", "--preserve-numeric-ids", "--target-env", "spv1.2", src, "-o", dst],
                          capture_output=True).returncode == 0:
            modules.append(dst)
    # The translator-shaped multi-target fixtures, assembled as their test assembles them.
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "translator", "*.spvasm"))):
        dst = os.path.join(tmp, os.path.basename(src) + ".spv")
        if subprocess.run([sys.executable, os.path.join(root, "tests", "fnvar_asm.py"), "spirv-as", src, dst],
                          capture_output=True).returncode == 0:
            modules.append(dst)
    # Guarded code (spec/guards.md), compiled as its test compiles it.
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "guards", "*.cl"))):
        bc, dst = (os.path.join(tmp, os.path.basename(src) + e) for e in (".bc", ".spv"))
        if subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang",
                           "-finclude-default-header", "-emit-llvm", "-O0", "-I", os.path.join(root, "include"), src,
                           "-o", bc],
                          capture_output=True).returncode == 0 and \
                subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", dst],
                               capture_output=True).returncode == 0:
            modules.append(dst)
    # Virtual functions (spec/virtual-functions.md): function pointers, as their test compiles them.
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "virtual", "*.cl"))):
        bc, dst = (os.path.join(tmp, os.path.basename(src) + e) for e in (".bc", ".spv"))
        if subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL2.0", "-Xclang",
                           "-cl-ext=+__cl_clang_function_pointers", "-Xclang", "-finclude-default-header",
                           "-emit-llvm", "-O0", src, "-o", bc], capture_output=True).returncode == 0 and \
                subprocess.run(["llvm-spirv-15", "--spirv-ext=+SPV_INTEL_function_pointers", bc, "-o", dst],
                               capture_output=True).returncode == 0:
            modules.append(dst)
    # Compute shaders (spec/annotate.md, "Shader modules"): capability requirements and guarded GLSL, as
    # their tests compile them (tests/shaders.py), where glslang is there.
    for src in sorted(glob.glob(os.path.join(root, "tests", "data", "vulkan", "*.comp"))):
        dst = os.path.join(tmp, os.path.basename(src) + ".spv")
        if subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-I" + os.path.join(root, "include"),
                           src, "-o", dst], capture_output=True).returncode == 0:
            modules.append(dst)
    modules += [p for p in sorted(glob.glob(os.path.join(corpus, "*.spv"))) if os.path.getsize(p) < 40000]
    for k, path in enumerate(modules):
        data = open(path, "rb").read()
        for t in ["fuzz_roundtrip", "fuzz_annotate", "fuzz_validate", "fuzz_driver_checks"]:
            open(os.path.join(out, t, "seed%03d.spv" % k), "wb").write(data)
        if os.path.basename(path).startswith("guard_spec_ids"):  # its SpecId 100 means fp64 (6)
            guarded = data[:8] + bytes([data[8] | 2, data[9], 100, 6]) + data[12:]
            open(os.path.join(out, "fuzz_annotate", "guard%03d.spv" % k), "wb").write(guarded)
        if len(data) < 40000:  # split (spec/split.md): bit 3 of the generator word
            open(os.path.join(out, "fuzz_annotate", "split%03d.spv" % k), "wb").write(
                data[:8] + bytes([data[8] | 8]) + data[9:])
        mask = function_name_mask(data)
        if mask:
            stated = data[:8] + bytes([data[8] | 1, mask]) + data[10:]
            open(os.path.join(out, "fuzz_annotate", "req%03d.spv" % k), "wb").write(stated)
            if "virtual" in path:  # and sets stated for the names
                stated = data[:8] + bytes([data[8] | 5, mask]) + data[10:]
                open(os.path.join(out, "fuzz_annotate", "sets%03d.spv" % k), "wb").write(stated)
        ann = os.path.join(tmp, "a.spv")
        cli = os.path.join(root, "build-fuzz", "tools", "spvcond")
        if os.path.exists(cli) and subprocess.run([cli, "annotate", "-q", path, "-o", ann],
                                                  capture_output=True).returncode == 0:
            data = open(ann, "rb").read()
            open(os.path.join(out, "fuzz_validate", "ann%03d.spv" % k), "wb").write(data)
        open(os.path.join(out, "fuzz_specialize", "seed%03d" % k), "wb").write(bytes(range(16)) + data)
texts = {
    0: "my_gpu:\n  aspects: [fp16, atomic64, 9]\n  may_support_other_aspects: false\n  sub-group-sizes: [8, 16]\n"
       "  max-work-group-size: 256\n",
    1: "k:\n  uses: [fp64]\n  declared: [fp16]\n  reqd_work_group_size: [64, 2]\n  reqd_sub_group_size: 16\n",
    2: "[SYCL/kernel reqs]\nk_double=2|ACAAAAAAAAQAAAAAAAAAAYAAAAAAAEAA\nk_plain=2|gAAAAAAAAAAAAAAA\n",
    4: "small:\n  vulkan:\n    api-version: 1.1\n    type: integrated-gpu\n    features: [shaderInt64, shaderFloat16]\n"
       "    subgroup-size: 32\n    subgroup-operations: [basic, vote, arithmetic]\n    min-subgroup-size: 8\n"
       "    max-subgroup-size: 32\n    max-compute-work-group-invocations: 1024\n  architecture: intel_gpu_tgllp\n",
    3: "[SYCL/device requirements]\naspects=2|gAAAAAAAAAgBAAAA\nreqd_work_group_size_uint64_t=2|"
       "ADAAAAAAAAAEAAAAAAAAAEAAAAAAAAAABAAAAAAAAAA\nwork_group_num_dim=1|3\nreqd_sub_group_size=1|16\n",
}
for sel, text in texts.items():
    open(os.path.join(out, "fuzz_text", "seed%d" % sel), "wb").write(bytes([sel]) + text.encode())
# Built-in names as the translator and libclc's nvptx64 library spell them (the first byte's low bit adds "_Z").
names = ["_Z13get_global_idj", "_Z6vload4mPU3AS2Kf", "_Z5fractfPU3AS4f", "_Z10atomic_addPU3AS1Vii",
         "_Z6sincosDv4_fPU3AS4S_", "_Z5frexpDv2_dPDv2_i", "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i",
         "_Z3fooPU3AS3KfS0_", "_Z7vstore4Dv4_fmPU3AS1f"]
for k, name in enumerate(names):
    open(os.path.join(out, "fuzz_builtin_names", "seed%d" % k), "wb").write(b"\0" + name.encode())
print("seeds: %d modules" % len(modules))
