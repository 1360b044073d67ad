#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The offline compiler the OpenCL CTS calls in its SPIR-V mode (`--compilation-mode spir-v
--compilation-program "python3 cl_offline_compiler.py"`; the interface is the CTS's
test_common/harness/cl_offline_compiler-interface.txt):

    cl_offline_compiler.py --mode=spir-v --source=FILE.cl --output=FILE.spv64 --cl-device-info=INFO [-- OPTIONS]

OpenCL C goes to SPIR-V as a user of the layer compiles it: clang-15 for spir or spir64 (the device's
CL_DEVICE_ADDRESS_BITS) without the optional OpenCL C extensions (and their 3.0 features) the device does not
list, the build options clang takes (-D, -I, -cl-std, the -cl-* math options, -w, -Werror), then llvm-spirv-15
up to the highest SPIR-V version the device lists in CL_DEVICE_IL_VERSION (1.0 to 1.4, the translator's range).
The options only a driver's build reads (-cl-kernel-arg-info...) are left to clBuildProgram, which the CTS
calls with them. CLANG and LLVM_SPIRV name other programs.
Binary mode is not offered: exit status 2."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

CLANG = os.environ.get("CLANG", "clang-15")
LLVM_SPIRV = os.environ.get("LLVM_SPIRV", "llvm-spirv-15")

# Build options clang takes as they are; "-D"/"-I" may stand alone, with the value in the next word.
PLAIN = {"-w", "-Werror", "-cl-single-precision-constant", "-cl-denorms-are-zero",
         "-cl-fp32-correctly-rounded-divide-sqrt",
         "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
         "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp"}


# OpenCL C extensions clang-15 defines for spir targets by default that a device may lack, and the OpenCL C 3.0
# feature each one stands beside (clang requires the two to agree).
OPTIONAL = {"cl_khr_fp64": "__opencl_c_fp64", "cl_khr_fp16": None,
            "cl_khr_3d_image_writes": "__opencl_c_3d_image_writes",
            "cl_khr_int64_base_atomics": None, "cl_khr_int64_extended_atomics": None, "cl_khr_subgroups": None,
            "cl_khr_mipmap_image": None, "cl_khr_mipmap_image_writes": None, "cl_khr_depth_images": None,
            "cl_khr_srgb_image_writes": None, "cl_khr_gl_msaa_sharing": None}

# The OpenCL C 3.0 features a device without the generic address space cannot have (clang requires them off
# together).
GENERIC = ["__opencl_c_generic_address_space", "__opencl_c_pipes", "__opencl_c_device_enqueue"]


def device_info(path):
    info = {}
    for line in open(path):
        if "=" in line and not line.startswith("#"):
            key, value = line.rstrip("\n").split("=", 1)
            info[key] = value.strip('"')
    return info


def clang_options(words):
    kept, k = [], 0
    while k < len(words):
        w = words[k]
        if w in ("-D", "-I") and k + 1 < len(words):
            kept += [w, words[k + 1]]
            k += 1
        elif w.startswith(("-D", "-I", "-cl-std=")) or w in PLAIN:
            kept.append(w)
        k += 1
    return kept


def spirv_version(il_versions):
    found = [(int(a), int(b)) for a, b in re.findall(r"SPIR-V_(\d+)\.(\d+)", il_versions)]
    best = max([v for v in found if v <= (1, 4)], default=(1, 2))
    return "%d.%d" % best


def main(argv):
    args, options = {}, []
    if "--" in argv:
        k = argv.index("--")
        argv, options = argv[:k], [w for part in argv[k + 1:] for w in shlex.split(part)]
    for a in argv:
        if a.startswith("--") and "=" in a:
            key, value = a[2:].split("=", 1)
            args[key] = value
    missing = [k for k in ("mode", "source", "output", "cl-device-info") if k not in args]
    if missing:
        print("cl_offline_compiler.py: missing --%s" % " --".join(missing), file=sys.stderr)
        return 2
    if args["mode"] != "spir-v":
        print("cl_offline_compiler.py: only --mode=spir-v is offered, not %s" % args["mode"], file=sys.stderr)
        return 2
    info = device_info(args["cl-device-info"])
    target = "spir" if info.get("CL_DEVICE_ADDRESS_BITS") == "32" else "spir64"
    extensions = set(info.get("CL_DEVICE_EXTENSIONS", "").split())
    # clang's spir defaults (every extension and feature) less what the device lacks
    off = [e for e in OPTIONAL if e not in extensions] + [OPTIONAL[e] for e in OPTIONAL
                                                          if e not in extensions and OPTIONAL[e]]
    if not info.get("CL_DEVICE_VERSION", "").startswith("OpenCL 2."):
        # OpenCL 3.0 makes the generic address space optional and the device information the CTS hands over does
        # not say whether the device has it: compile as for a device without it (built-ins with named address
        # spaces, which every device has), and without the features that require it.
        off += GENERIC
    if info.get("CL_DEVICE_IMAGE_SUPPORT") == "0":
        off += ["__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes"]
    kept = clang_options(options)
    if not any(w.startswith("-cl-std=") for w in kept):
        kept.append("-cl-std=CL1.2")  # what a driver assumes without -cl-std
    with tempfile.TemporaryDirectory() as tmp:
        bitcode = os.path.join(tmp, "kernel.bc")
        compile_ = [CLANG, "-c", "-target", target, "-emit-llvm", "-O0", "-Xclang", "-finclude-default-header",
                    *(["-Xclang", "-cl-ext=" + ",".join("-" + e for e in sorted(set(off)))] if off else []),
                    *kept, args["source"], "-o", bitcode]
        if subprocess.run(compile_).returncode != 0:
            print("cl_offline_compiler.py: %s failed" % " ".join(map(shlex.quote, compile_)), file=sys.stderr)
            return 1
        translate = [LLVM_SPIRV, "--spirv-max-version=" + spirv_version(info.get("CL_DEVICE_IL_VERSION", "")),
                     bitcode, "-o", args["output"]]
        if subprocess.run(translate).returncode != 0:
            print("cl_offline_compiler.py: %s failed" % " ".join(map(shlex.quote, translate)), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
