#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The OpenCL layer (docs/opencl-layer.md) under an unmodified application, on real runtimes.

tests/layer/host.c is a plain OpenCL host program: it calls only the OpenCL API (clCreateProgramWithIL,
clBuildProgram, clGetProgramBuildInfo, clCreateKernel...) and knows nothing of spvcond. It is run on
rusticl (llvmpipe: no fp64, no fp16) and pocl (fp64), with and without OPENCL_LAYERS naming the layer:

1. Without the layer both runtimes refuse every module from IL, and a careful application that asks for an
   IL version first finds none.
2. With it, the device reports SPIR-V 1.0-1.4 and cl_khr_il_program; the annotated demonstration module
   (tests/data/jit_demo.cl compiled with clang-15 + llvm-spirv-15, then annotated) builds; exactly the
   kernels the device can run are there and compute the right results; the others are absent
   (CL_INVALID_KERNEL_NAME) and the build log says why in DPC++'s words and which route the layer took.
   The same through clCreateProgramWithILKHR found by name, and through clCompileProgram + clLinkProgram.
3. A guarded-code module (tests/data/guards/chain.cl) and a multi-target module
   (tests/data/layer/multi_target.spvasm): each device takes its own path (x / 2 + 32 without fp64,
   x / 2 + 64 with it).
4. Plain SPIR-V (the demonstration module not annotated, real modules of the corpus) builds through the
   layer; a module that is not SPIR-V is refused with CL_INVALID_VALUE and a message, not a crash; four
   applications' threads at once in one process each get what one alone gets.
5. clinfo runs unchanged with the layer loaded and lists what it adds (devices' and platforms').
6. A mock driver (tests/layer/mock_icd.c: two devices, one with fp64) shows what the real runtimes here
   cannot: a driver that reads SPIR-V gets the specialized module through clCreateProgramWithIL (a plain
   module byte for byte), and refuses a context whose devices need different modules; given binaries,
   each device gets its own module and a kernel only one of them keeps is absent from the program.
7. The mock driver plays NVIDIA's (platform "NVIDIA CUDA", compute capability 9.0 and 5.2, no IL, no fp16
   reported): each device gets PTX from LLVM's NVPTX back end for its processor (sm_86, the highest LLVM 15
   knows, for 9.0; sm_52 for 5.2), whose .entry names are exactly the kernels the device keeps, each
   parameter annotated `.ptr .global .align N`; the sm_90 device keeps the fp16 kernel (the hardware has
   half precision though the driver does not say so), the sm_52 device does not, and says why. The guarded
   and multi-target modules take their fp64 paths. SPVCOND_LAYER_DUMP writes what each device got, on every
   route; SPVCOND_LAYER_DEBUG says that the layer was loaded and each device's route."""
import difflib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import oracle
from layer_common import BITCODE, CLI, DATA, HOST, INCLUDE, LAYER, MOCK_ICD, PTX, SRC, annotate, compile_cl
from platforms import one_platform
from verdicts import check, summary

DATA_SRC = os.path.join(SRC, "data", "layer")
CORPUS = os.environ.get("SPVCOND_CORPUS", "")
BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")  # runtimes leak by design
BASE.pop("OPENCL_LAYERS", None)
WITH = dict(BASE, OPENCL_LAYERS=LAYER, SPVCOND_LAYER_DEBUG="1")  # the layer says its route on standard error

ROUTE = {"rusticl": "SPIR-V as a program binary", "pocl": "LLVM bitcode from the SPIR-V/LLVM translator"}
FP64 = "Required aspect fp64 is not supported on the device"
FP16 = "Required aspect fp16 is not supported on the device"
# The demonstration module's kernels: results on a[i] = i, and why a device lacks the others.
DEMO = {
    "rusticl": {"run": {"scale_float": "0 2 4 6", "add_one": "1 2 3 4"},
                "absent": {"scale_double": FP64, "mix_double": FP64, "scale_half": FP16}},
    "pocl": {"run": {"scale_float": "0 2 4 6", "scale_double": "0 2 4 6", "mix_double": "2 4 6 8",
                     "add_one": "1 2 3 4"},
             "absent": {"scale_half": FP16}},
}
DOUBLE = {"scale_double"}
PATH = {"rusticl": "32 32.5 33 33.5", "pocl": "64 64.5 65 65.5"}  # x / 2 + 32 (float), + 64 (fp64)
USER = {"reduce": "2016 1 2 3", "vectors": "8 10 12 14", "atomics": "0 1.00003 2 3",  # tests/data/layer/kernels.cl
        "calls_kernel": "1 4 7 10"}
REAL = ["darktable__basecurve", "ufo__reductor", "python3-silx__silx__resources__opencl__convolution"]


def host(env, platform, module, *args, kernels=()):
    p = subprocess.run([HOST, "--platform", platform, *args, module, *kernels], capture_output=True, text=True,
                       env=one_platform(env, platform), timeout=600)
    return p.returncode, p.stdout, p.stderr


def arg(kernel):
    return kernel + ":double" if kernel in DOUBLE else kernel
def routes(err):
    """The routes SPVCOND_LAYER_DEBUG says the layer took, one per device."""
    return re.findall(r"^spvcond layer: device .*\(platform .*\): route (.*)$", err, re.M)


def demo_checks(platform, out, err, how):
    want = DEMO[platform]
    check(ROUTE[platform] in routes(err) and "takes the module as" not in out,
          "%s%s: the layer says its route (%s) when asked, not in the build log" % (platform, how, ROUTE[platform]),
          err[-600:])
    names = re.search(r"program: built; kernels: (\S*) \((\d+)\)", out)
    check(names is not None and set(names.group(1).split(";")) == set(want["run"]) and
          int(names.group(2)) == len(want["run"]),
          "%s%s: the program has exactly %s" % (platform, how, sorted(want["run"])), out[-600:])
    for kernel, results in want["run"].items():
        check("kernel %s: results %s\n" % (kernel, results) in out,
              "%s%s: %s runs, results %s" % (platform, how, kernel, results), out[-600:])
    for kernel, reason in want["absent"].items():
        check("kernel %s: not created (OpenCL error -46)" % kernel in out,
              "%s%s: %s absent (CL_INVALID_KERNEL_NAME)" % (platform, how, kernel), out[-600:])
        check("spvcond: kernel %s is not available on this device: %s" % (kernel, reason) in out,
              "%s%s: the build log says why %s is absent" % (platform, how, kernel), out[-600:])


def sanitizer_runtimes():
    """The sanitizer runtimes a sanitized layer links (a program built without them loads it only when they
    are preloaded)."""
    p = subprocess.run(["ldd", LAYER], capture_output=True, text=True)
    return re.findall(r"=> (\S*lib(?:asan|ubsan)\.so\S*)", p.stdout)


def module_facts(path):
    """A SPIR-V module's capabilities and entry-point names."""
    words = struct.unpack("<%dI" % (os.path.getsize(path) // 4), open(path, "rb").read())
    caps, names, k = set(), [], 5
    while k < len(words) and words[k] >> 16:
        op, n = words[k] & 0xFFFF, words[k] >> 16
        if op == 17:
            caps.add(words[k + 1])
        elif op == 15:
            names.append(struct.pack("<%dI" % (n - 3), *words[k + 3:k + n]).split(b"\0")[0].decode())
        k += n
    return caps, names


def mock_checks(tmp, demo, demo_plain, multi):
    if not MOCK_ICD:
        print("skipped: the mock driver (not built)")
        return
    out_prefix = os.path.join(tmp, "mock")
    env = dict(WITH, OCL_ICD_VENDORS=MOCK_ICD, SPVCOND_MOCK_OUT=out_prefix, SPVCOND_MOCK_IL="1")
    rc, out, err = host(env, "spvcond mock", multi, "--create-only", kernels=["scale"])
    caps, names = module_facts(out_prefix + ".il.spv") if os.path.exists(out_prefix + ".il.spv") else (set(), [])
    check(rc == 0 and routes(err) == ["SPIR-V through clCreateProgramWithIL"] and "kernel scale: created" in out,
          "mock, IL: the multi-target module through clCreateProgramWithIL", out + err)
    check(names == ["scale"] and 10 in caps and 6246 not in caps and 6245 not in caps,
          "mock, IL: the driver got the fp64 device's variant, specialized (capabilities %s)" % sorted(caps))
    if os.path.exists(out_prefix + ".il.spv"):
        ok, text = oracle.judge(out_prefix + ".il.spv", "given by the layer")
        check(ok, "mock, IL: the module the driver got passes spirv-val", text)
    rc, out, err = host(env, "spvcond mock", demo_plain, "--create-only", kernels=["scale_float"])
    check(rc == 0 and open(out_prefix + ".il.spv", "rb").read() == open(demo_plain, "rb").read(),
          "mock, IL: a plain module goes to the driver byte for byte", out + err)
    rc, out, err = host(env, "spvcond mock", multi, "--all-devices", "--create-only", kernels=["scale"])
    check(rc == 1 and "program: not built (OpenCL error -11)" in out and out.count("need different modules") == 2,
          "mock, IL, two devices of different facts: one IL cannot serve both (CL_BUILD_PROGRAM_FAILURE, each "
          "device's build log says why)", out + err)
    rc, out, err = host(env, "spvcond mock", demo_plain, "--all-devices", "--create-only", kernels=["scale_double"])
    check(rc == 0 and "kernel scale_double: created" in out, "mock, IL, two devices: a plain module serves both",
          out + err)

    env = dict(env, SPVCOND_MOCK_IL="0")
    rc, out, err = host(env, "rusticl", demo, "--all-devices", "--create-only",
                        kernels=["scale_float", "add_one", "scale_double", "mix_double"])
    check(re.search(r"program: built; kernels: scale_float;add_one \(2\)", out) is not None and
          "kernel scale_float: created" in out and "kernel add_one: created" in out and
          "kernel scale_double: not created (OpenCL error -46)" in out and
          "kernel mix_double: not created (OpenCL error -46)" in out,
          "mock, binaries, two devices: the kernels both keep are there, those only the fp64 device keeps are not",
          out + err)
    second = out.split("build log (device 2):")[-1]
    check("spvcond: kernel scale_double is not available on this device: %s" % FP64 in second and
          "scale_double is not available" not in out.split("build log (device 2):")[0],
          "mock, binaries, two devices: the device without fp64 says why scale_double is absent, the other not",
          out)
    first, other = (module_facts("%s.%d.spv" % (out_prefix, k))[1] for k in (0, 1))
    check("scale_double" in first and "scale_double" not in other and "scale_float" in other,
          "mock, binaries: each device got its own module (%s / %s)" % (first, other))
    for k in (0, 1):
        ok, text = oracle.judge("%s.%d.spv" % (out_prefix, k), "given by the layer")
        check(ok, "mock, binaries: device %d's module passes spirv-val" % (k + 1), text)


def ptx_entries(path):
    """The .entry names of a PTX file, its .target and its kernel parameters' declarations."""
    text = open(path).read() if os.path.exists(path) else ""
    target = re.search(r"^\.target (\S+?),? ", text, re.M)
    return (re.findall(r"^\.entry (\w+)\(", text, re.M), target.group(1) if target else None,
            re.findall(r"^\s*\.param \.u64 (\.ptr[^\n]*)", text, re.M))


def received(prefix, device=0):
    """The PTX the mock driver got for a device in the last run, taken away so that the next run's checks see
    only what that run gave it ("" when it got none)."""
    path = "%s.%d.ptx" % (prefix, device)
    if not os.path.exists(path):
        return ""
    text = open(path).read()
    os.remove(path)
    return text


def mock_nvidia_checks(tmp, demo, chain, multi):
    if not MOCK_ICD or not PTX:
        print("skipped: the NVIDIA route (%s)" % ("no mock driver" if not MOCK_ICD else
                                                 "the layer was built without LLVM's NVPTX back end"))
        return
    out_prefix = os.path.join(tmp, "nv")
    dump = os.path.join(tmp, "dump")
    os.makedirs(dump, exist_ok=True)
    env = dict(WITH, OCL_ICD_VENDORS=MOCK_ICD, SPVCOND_MOCK_OUT=out_prefix, SPVCOND_MOCK_NVIDIA="1",
               SPVCOND_LAYER_DUMP=dump, SPVCOND_LAYER_DEBUG="1")
    env.pop("SPVCOND_MOCK_IL", None)
    kernels = ["scale_float", "scale_double", "mix_double", "scale_half", "add_one"]
    rc, out, err = host(env, "NVIDIA", demo, "--all-devices", "--create-only", kernels=kernels)
    check(out.startswith("device IL version: SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4\n"),
          "mock NVIDIA: the device reports SPIR-V 1.0-1.4 through the layer", out[:200])
    check(routes(err) == ["PTX from LLVM's NVPTX back end"] * 2, "mock NVIDIA: both devices take the PTX route",
          out + err)
    check("spvcond layer: device mock NVIDIA sm_52: aspects gpu fp64 int64_base_atomics int64_extended_atomics "
          "online_compiler online_linker atomic64; 10 SPIR-V capabilities; target nvptx64; compute capability 5.2"
          in err and "spvcond layer: device mock NVIDIA sm_52: kernels kept: scale_float scale_double mix_double "
          "add_one; removed: scale_half" in err,
          "SPVCOND_LAYER_DEBUG: each device's facts, and the kernels it keeps and removes", err[-900:])
    want = {0: ("sm_86", kernels), 1: ("sm_52", [k for k in kernels if k != "scale_half"])}
    for k, (target, names) in want.items():
        entries, got_target, params = ptx_entries("%s.%d.ptx" % (out_prefix, k))
        check(got_target == target, "mock NVIDIA, compute capability %s: the PTX targets %s (got %s)" % (
            "9.0" if k == 0 else "5.2", target, got_target))
        check(entries == names, "mock NVIDIA, device %d: the PTX's .entry names are the kernels it keeps (%s)" % (
            k + 1, entries))
        check(len(params) == len(names) and all(re.match(r"\.ptr \.global \.align \d+ \w+$", p) for p in params),
              "mock NVIDIA, device %d: every buffer parameter is `.ptr .global .align N`" % (k + 1), str(params[:3]))
    second = out.split("build log (device 2):")[-1]
    check("spvcond: kernel scale_half is not available on this device: %s" % FP16 in second and
          "scale_half is not available" not in out.split("build log (device 2):")[0],
          "mock NVIDIA: the sm_52 device says why scale_half is absent (no fp16 before 5.3), sm_90 keeps it", out)
    check("kernel scale_half: not created (OpenCL error -46)" in out and "kernel scale_float: created" in out,
          "mock NVIDIA, both devices: scale_half absent from the program, scale_float there", out)
    check("spvcond layer: loaded by the ICD loader" in err and
          "spvcond layer: device mock NVIDIA sm_90 (platform NVIDIA CUDA): route PTX from LLVM's NVPTX back end" in err,
          "SPVCOND_LAYER_DEBUG: the layer says it was loaded and each device's route", err[:600])
    dumped = sorted(os.listdir(dump))
    check(len([d for d in dumped if d.endswith(".specialized.spv")]) == 2 and
          len([d for d in dumped if d.endswith(".ptx")]) == 2,
          "SPVCOND_LAYER_DUMP: each device's specialized module and its PTX are written (%s)" % dumped)
    for name in dumped:
        if name.endswith(".specialized.spv"):
            ok, text = oracle.judge(os.path.join(dump, name), "the layer's module for an NVIDIA device")
            check(ok, "mock NVIDIA: %s passes spirv-val" % name, text)
        if name.endswith(".ptx"):
            check(open(os.path.join(dump, name)).read() == open("%s.%s.ptx" % (out_prefix, name[-5])).read(),
                  "SPVCOND_LAYER_DUMP: %s is what the driver got" % name)
    # The math built-ins: from NVIDIA's libdevice where it is found (a stand-in here, whose sinf is marked),
    # else libclc's; without libclc's library the device has no route, and the layer says why.
    math = os.path.join(tmp, "math.spv")
    compile_cl(os.path.join(SRC, "..", "bench", "layer_speed.cl"), math, tmp)
    fake = os.path.join(tmp, "libdevice.bc")
    with open(os.path.join(tmp, "libdevice.c"), "w") as f:
        f.write("float __nv_sinf(float x) { return x * 12345.0f; }\n"
                "float __nv_cosf(float x) { return x * 54321.0f; }\n"
                "double __nv_acos(double x) { return x * 3.0; }\n"
                "float __nv_fmodf(float x, float y) { return x * 777.0f + y; }\n"
                "double __nv_pow(double x, double y) { return x * 1234.0 + y; }\n"
                "float __nv_remainderf(float x, float y) { return x * 4321.0f + y; }\n"
                "double __nv_lgamma(double x) { return x * 2468.0; }\n"
                "double __nv_exp(double x) { return x * 3.5; }\n"
                "float __nv_ldexpf(float x, int n) { return x * 1357.0f + (float)n; }\n")
    subprocess.run(["clang-15", "-c", "-target", "nvptx64-nvidia-cuda", "-emit-llvm", "-O1",
                    os.path.join(tmp, "libdevice.c"), "-o", fake], check=True)
    for how, extra, marked in (("a libdevice", {"SPVCOND_LAYER_LIBDEVICE": fake}, True),
                               ("no libdevice", {"SPVCOND_LAYER_LIBDEVICE": "none"}, False)):
        rc, out, err = host(dict(env, **extra), "NVIDIA", math, "--create-only", kernels=["math_float"])
        text = received(out_prefix)
        check(rc == 0 and ("0f4640E400" in text) == marked and ".entry math_double(" in text,
              "mock NVIDIA, %s: sin comes from %s" % (how, "libdevice's __nv_sinf" if marked else "libclc"),
              (out + err)[-400:])
    # On vectors too (the CTS's math_brute_force runs every function on them): sin and cos of a float4 element by
    # element from libdevice, and sincos from its sin and cos, whatever its pointer's address space.
    vector_math = os.path.join(tmp, "vector_math.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "vector_math.cl"), vector_math, tmp)
    for how, extra, marked in (("a libdevice", {"SPVCOND_LAYER_LIBDEVICE": fake}, True),
                               ("no libdevice", {"SPVCOND_LAYER_LIBDEVICE": "none"}, False)):
        rc, out, err = host(dict(env, **extra), "NVIDIA", vector_math, "--create-only", kernels=["vector_trig"])
        text = received(out_prefix)
        sins, coss = text.count("0f4640E400"), text.count("0f47543100")
        check(rc == 0 and "kernel vector_trig: created" in out and
              ((sins >= 4 and coss >= 4) if marked else sins == coss == 0),
              "mock NVIDIA, %s: sin, cos and sincos of a float4 %s" %
              (how, "element by element from libdevice" if marked else "libclc's"),
              "sin markers %d, cos markers %d; %s" % (sins, coss, (out + err)[-400:]))
        rc, out, err = host(dict(env, **extra), "NVIDIA", vector_math, "--create-only", kernels=["acospi_nan"])
        text = received(out_prefix)
        scaled = "0d3FD45F306DC9C883" in text and "0d4008000000000000" in text  # 1/pi, and the stand-in's 3
        fmod = "0f44424000" in text  # the stand-in fmodf's 777
        check(rc == 0 and (scaled and fmod) == marked and (scaled or fmod) == marked,
              "mock NVIDIA, %s: double acospi %s, fmod %s" % (how, "as libdevice's acos / pi" if marked else "libclc's",
                                                               "libdevice's" if marked else "libclc's"),
              (out + err)[-400:])
        # remquo (scalar and float2, the quotient through a private pointer) from libdevice's remainder and fmod,
        # rootn from double pow, ldexp of a float2 and an int2, float tgamma from double lgamma and exp, each from
        # libdevice; double hypot stays libclc's.
        rc, out, err = host(dict(env, **extra), "NVIDIA", vector_math, "--create-only", kernels=["corrections"])
        text = received(out_prefix)
        found = {what: marker in text for what, marker in (("remquo", "0f45870800"), ("rootn", "0d4093480000000000"),
                                                           ("ldexp", "0f44A9A000"), ("tgamma", "0d40A3480000000000"))}
        check(rc == 0 and "kernel corrections: created" in out and all(v == marked for v in found.values()) and
              "__nv_hypot" not in text,
              "mock NVIDIA, %s: remquo, rootn, ldexp of vectors and float tgamma (in double, from lgamma) %s" %
              (how, "from libdevice" if marked else "libclc's"),
              "%s; %s" % (found, (out + err)[-400:]))
    # The global work offset as NVIDIA's driver hands it over: get_global_id and get_global_offset read the
    # environment registers NVIDIA's own compiler reads (%envreg3 the offset in x, %envreg0 for its groups).
    offsets = os.path.join(tmp, "offset.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "offset.cl"), offsets, tmp)
    rc, out, err = host(env, "NVIDIA", offsets, "--create-only", "--offset", "4", kernels=["offset"])
    text = received(out_prefix)
    entry = text[text.find(".entry offset("):]
    entry = entry[:entry.find("\n}")]
    check("kernel offset: enqueued at offset 4: taken" in out and "%envreg3" in entry and "%envreg0" in entry and
          "%envreg4" not in entry, "mock NVIDIA: a global work offset reaches the driver, and the PTX reads it "
          "where NVIDIA's compiler does", (out + err)[-400:])
    # Every work-item function as NVIDIA's compiler reads it (tests/data/nvidia/work_items.cl; the driver may run
    # an NDRange as several launches): the group id adds %envreg0 to %ctaid.x, the number of groups and the
    # global size read %envreg6, the work dimension %envreg9; OpenCL 2.0's linear ids and enqueued local size
    # are defined; nothing reads the launch's own %nctaid.
    items = os.path.join(tmp, "work_items.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "work_items.cl"), items, tmp, "-cl-std=CL2.0")
    rc, out, err = host(env, "NVIDIA", items, "--create-only", kernels=["group_id"])
    text = received(out_prefix)

    def entry_of(name):
        body = text[text.find(".entry %s(" % name):]
        return body[:body.find("\n}")]
    check(rc == 0 and "kernel group_id: created" in out and "%envreg0" in entry_of("group_id") and
          "%ctaid.x" in entry_of("group_id") and "%envreg6" in entry_of("num_groups") and
          "%envreg6" in entry_of("global_size") and "%ntid.x" in entry_of("global_size") and
          "%envreg9" in entry_of("work_dim") and "%envreg9" in entry_of("global_linear_id") and
          ".entry local_linear_id(" in text and ".entry enqueued_local_size(" in text and "%nctaid" not in text,
          "mock NVIDIA: every work-item function reads the registers NVIDIA's compiler reads (group ids with the "
          "driver's group offset, group counts and global sizes of the whole NDRange, the work dimension), "
          "OpenCL 2.0's linear ids and enqueued local size defined", (out + err)[-600:])
    # A dimension past get_work_dim() gives 1 for the sizes, whatever the registers hold (the CTS's
    # work_item_functions_out_of_range): the work dimension is read for get_global_size(d).
    check("%envreg9" in entry_of("global_size") and "%envreg9" in entry_of("local_size"),
          "mock NVIDIA: get_global_size and get_local_size of a dimension past get_work_dim() are 1",
          entry_of("global_size")[-1200:])
    # Asynchronous copies and prefetch of 3-component vectors, which libclc's nvptx64 library lacks, as those of
    # the 4-component type whose storage they share.
    copies = os.path.join(tmp, "vector3_copies.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "vector3_copies.cl"), copies, tmp)
    rc, out, err = host(env, "NVIDIA", copies, "--create-only", kernels=["copy3"])
    text = received(out_prefix)
    check(rc == 0 and "kernel copy3: created" in out and re.search(r"ld\.global\.v4\.u8", text) and
          re.search(r"st\.shared\.v4\.u8", text), "mock NVIDIA: async_work_group_copy, its strided form and prefetch "
          "of uchar3 build, copying 4-byte elements", (out + err)[-400:])
    rc, out, err = host(dict(env, SPVCOND_MOCK_NVIDIA="0"), "rusticl", demo, "--create-only", "--offset", "4",
                        kernels=["scale_float"])
    check("kernel scale_float: enqueued at offset 4: taken" in out, "mock, binaries: the same offset reaches the driver",
          out + err)
    hello = os.path.join(tmp, "printf.spv")
    compile_cl(os.path.join(DATA_SRC, "printf.cl"), hello, tmp)
    rc, out, err = host(env, "NVIDIA", hello, "--create-only", kernels=["hello"])
    text = received(out_prefix)
    check(rc == 0 and re.search(r"\n\.extern \.func +\(\.param \.b32 func_retval0\) vprintf\n", text) is not None and
          "printf" not in text.replace("vprintf", ""), "mock NVIDIA: printf becomes the driver's vprintf",
          (out + err)[-400:])
    # printf with vector arguments: each vector in vprintf's buffer as it is, at its alignment (a uchar3 in 4
    # bytes), as NVIDIA's own compiler lays them out for the driver's vprintf, which reads %v itself.
    vectors = os.path.join(tmp, "vector_printf.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "vector_printf.cl"), vectors, tmp)
    rc, out, err = host(env, "NVIDIA", vectors, "--create-only", kernels=["vector_printf"])
    text = received(out_prefix)
    check(rc == 0 and "kernel vector_printf: created" in out and
          re.search(r"st\.local\.v4\.f32\s+\[%rd\d+\], ", text) and re.search(r"st\.local\.v2\.u32\s+\[%rd\d+\+16\]", text) and
          re.search(r"st\.local\.u8\s+\[%rd\d+\+26\]", text) and re.search(r"st\.local\.v2\.f32\s+\[%rd\d+\+32\]", text)
          and "37, 118, 52, 104, 108, 102" in text, "mock NVIDIA: printf's vector arguments in vprintf's buffer as "
          "NVIDIA's compiler lays them out (float4 at 0, int2 at 16, uchar3 at 24, float2 at 32), the format's %v4hlf "
          "kept", (out + err)[-400:] + text[-800:])
    # printf in a kernel with a constant pointer parameter: ptxas refuses `cvta.const` in such a program, so the
    # strings vprintf reads come from copies in global memory.
    constants = os.path.join(tmp, "constant_printf.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "constant_printf.cl"), constants, tmp)
    rc, out, err = host(env, "NVIDIA", constants, "--create-only", kernels=["constant_printf"])
    text = received(out_prefix)
    check(rc == 0 and "kernel constant_printf: created" in out and re.search(r"\.param \.u64 \.ptr \.const", text) and
          "cvta.const" not in text and len(re.findall(r"\n\.global \.align 1 \.b8 \S+\[\d+\] = \{", text)) == 2,
          "mock NVIDIA: printf's format and %s strings in global memory, no cvta.const, in a kernel with a constant "
          "pointer parameter", (out + err)[-400:] + text[-1200:])
    # Double nan(code): libclc's leaves the quiet bit unset (nan(0UL) is +infinity); the layer's sets it.
    nans = os.path.join(tmp, "double_nan.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "double_nan.cl"), nans, tmp)
    rc, out, err = host(env, "NVIDIA", nans, "--create-only", kernels=["double_nan"])
    text = received(out_prefix)
    check(rc == 0 and "kernel double_nan: created" in out and str(0x7FF8000000000000) in text and
          str(0x7FF0000000000000) not in text, "mock NVIDIA: double nan(code) is a quiet NaN (0x7FF8... | code), not "
          "libclc's +infinity for nan(0UL)", (out + err)[-400:] + text[-1200:])
    # The arithmetic of NVIDIA's own OpenCL C compiler: float division as div.full.f32 unless the build asks
    # for it correctly rounded; a saturated conversion of NaN gives 0 (libclc's leaves it to the hardware).
    precision = os.path.join(tmp, "precision.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "precision.cl"), precision, tmp)
    for options, division in (("", "div.full.f32"), ("-cl-fp32-correctly-rounded-divide-sqrt", "div.rn.f32")):
        rc, out, err = host(env, "NVIDIA", precision, "--create-only", "--options", options, kernels=["divide"])
        text = received(out_prefix)
        other = "div.rn.f32" if division == "div.full.f32" else "div.full.f32"
        check(rc == 0 and division in text and other not in text and
              re.search(r"setp\.nan\.f64\s+(%p\d+).*\n(?:.*\n)*?.*selp\.b32\s+%r\d+, 0, %r\d+, \1", text),
              "mock NVIDIA, options '%s': float division as %s, convert_int_sat(NaN) 0" % (options, division),
              (out + err)[-400:])
    # A function without a name, kept out of line: the back end would write its parameters as `_param_0`.
    rc, out, err = host(env, "NVIDIA", os.path.join(DATA, "unnamed_function.spv"), "--create-only", kernels=["negate"])
    text = received(out_prefix)
    check(rc == 0 and re.search(r"\.func +\(\.param \.b32 func_retval0\) __spvcond_unnamed\(", text) and
          not re.search(r"[^\w]_param_0", text), "mock NVIDIA: an unnamed function gets a name PTX takes",
          (out + err)[-400:])
    rc, out, err = host(env, "NVIDIA", os.path.join(tmp, "kernels.spv"), "--create-only", kernels=list(USER))
    text = received(out_prefix)
    check(rc == 0 and ".shared .align 4 .b8 reduce_$_partial[256]" in text and "bar.sync" in text and
          "atom.global" in text and ".reqntid 64, 1, 1" in text,
          "mock NVIDIA: local memory, barriers, atomics and the required work-group size in the PTX", (out + err)[-400:])
    halves = os.path.join(tmp, "half.spv")
    compile_cl(os.path.join(DATA_SRC, "half.cl"), halves, tmp)
    rc, out, err = host(env, "NVIDIA", halves, "--create-only", kernels=["half_math"])
    text = received(out_prefix)
    check(rc == 0 and ".entry half_math(" in text and "cvt.f32.f16" in text and "sqrt.rn.f32" in text,
          "mock NVIDIA: half built-ins, which libclc's nvptx64 library lacks, computed in float", (out + err)[-400:])
    rc, out, err = host(dict(env, SPVCOND_LAYER_LIBCLC=os.path.join(tmp, "none.bc")), "NVIDIA", demo,
                        kernels=["scale_float"])
    check(rc == 1 and "device IL version: none" in out and "program: not created (OpenCL error -59)" in out and
          "the layer cannot make PTX: libclc's nvptx64 library %s cannot be read" % os.path.join(tmp, "none.bc")
          in err and "install libclc-15" in err,
          "mock NVIDIA without libclc's library: no IL path, the driver's own answer, and why on stderr", out + err)
    # A multi-target module whose variants differ by architecture and capabilities (the translator's
    # cl_dot4 shape): sm_90 (architecture sm60 or later, fp16) gets the half variant, sm_52 the float one.
    rc, out, err = host(env, "NVIDIA", os.path.join(DATA, "dot_two_widths.spv"), "--all-devices", "--create-only",
                        kernels=["dot4"])
    texts = [received(out_prefix, k) for k in (0, 1)]
    check(rc == 0 and "kernel dot4: created" in out and ".f16" in texts[0] and ".f16" not in texts[1] and
          ".f32" in texts[1], "mock NVIDIA: the multi-target dot4 takes the half variant on sm_90, the float one on "
          "sm_52 (the architecture and capabilities the compute capability gives)", (out + err)[-400:])
    for name, module, kernel in (("guarded-code", chain, "refine"), ("multi-target", multi, "scale")):
        rc, out, err = host(env, "NVIDIA", module, "--create-only", kernels=[kernel])
        text = received(out_prefix)
        check(rc == 0 and "kernel %s: created" % kernel in out and ".f64" in text and
              "0d4050000000000000" in text, "mock NVIDIA: the %s module takes the fp64 path (+ 64.0 in double)" % name,
              out + err + text[-300:])


def clinfo_checks():
    clinfo = shutil.which("clinfo")
    if not clinfo:
        print("skipped: clinfo (Debian package clinfo) is not installed")
        return
    preload = ":".join(sanitizer_runtimes())
    env = dict(BASE, LD_PRELOAD=preload) if preload else BASE
    plain = subprocess.run([clinfo], capture_output=True, text=True, env=env, timeout=300)
    layered = subprocess.run([clinfo], capture_output=True, text=True, env=dict(env, OPENCL_LAYERS=LAYER), timeout=300)
    check(plain.returncode == 0 and layered.returncode == 0, "clinfo runs with and without the layer",
          layered.stderr[-400:])
    il = re.findall(r"IL version\s+(\S.*)", layered.stdout)
    served = 2 if BITCODE else 1  # rusticl's device, and pocl's when the layer has the translator
    check(len([v for v in il if v.startswith("SPIR-V_1.0")]) == served,
          "clinfo with the layer: the %d devices it serves report an IL version (%s)" % (served, il),
          layered.stdout[-400:])
    check(not any(v.startswith("SPIR-V") for v in re.findall(r"IL version\s+(\S.*)", plain.stdout)),
          "clinfo without the layer: no device reports one")
    check(layered.stdout.count("cl_khr_il_program") >= served and "cl_khr_il_program" not in plain.stdout,
          "clinfo with the layer: the devices it serves list cl_khr_il_program (and only with it)")
    platforms = re.findall(r"Platform Extensions  +(\S.*)", layered.stdout)
    check(len([p for p in platforms if "cl_khr_il_program" in p]) == served,
          "clinfo with the layer: the platforms whose every device it serves list cl_khr_il_program", str(platforms))
    # Every other line is the driver's, unchanged.
    ours = re.compile(r"IL version|ILs with version|cl_khr_il_program|(Device|Platform) Extensions  |^\s+SPIR-V\s+0x")
    changed = [l[2:] for l in difflib.ndiff(plain.stdout.splitlines(), layered.stdout.splitlines())
               if l.startswith(("- ", "+ "))]
    others = [l for l in changed if not ours.search(l)]
    check(changed and not others, "clinfo: only what the layer adds changes (%d lines)" % len(changed),
          "\n".join(others[:5]))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        demo_plain, demo, chain_plain, chain = (os.path.join(tmp, n) for n in
                                                ("demo.spv", "demo.a.spv", "chain.spv", "chain.a.spv"))
        compile_cl(os.path.join(SRC, "data", "jit_demo.cl"), demo_plain, tmp)
        annotate(demo_plain, demo)
        compile_cl(os.path.join(SRC, "data", "guards", "chain.cl"), chain_plain, tmp, "-I", INCLUDE)
        annotate(chain_plain, chain)
        multi = os.path.join(DATA, "multi_target.spv")
        user_kernels = os.path.join(tmp, "kernels.spv")
        compile_cl(os.path.join(DATA_SRC, "kernels.cl"), user_kernels, tmp)
        vector_printf = os.path.join(tmp, "vector_printf.spv")
        compile_cl(os.path.join(SRC, "data", "nvidia", "vector_printf.cl"), vector_printf, tmp)
        junk = os.path.join(tmp, "junk.spv")
        with open(junk, "wb") as f:
            f.write(b"not a SPIR-V module, " * 20)
        kernels = [arg(k) for k in ("scale_float", "scale_double", "mix_double", "scale_half", "add_one")]

        if not BITCODE:  # pocl has no route then: the layer leaves it as it is, and says nothing of IL
            rc, out, err = host(WITH, "pocl", demo, kernels=["scale_float"])
            check(rc == 1 and "device IL version: none" in out and "program: not created (OpenCL error -30)" in out,
                  "pocl, the layer built without the translator: pocl is left as it is", out + err)
            print("pocl skipped: the layer was built without the SPIR-V/LLVM translator (libllvmspirvlib-15-dev)")
        for platform in ("rusticl", "pocl") if BITCODE else ("rusticl",):
            # 1. Without the layer: refused.
            for name, module in (("annotated", demo), ("guarded-code", chain), ("multi-target", multi),
                                 ("plain", demo_plain)):
                rc, out, err = host(BASE, platform, module, kernels=["scale_float"])
                check(rc == 1 and re.search(r"program: not created \(OpenCL error -(30|59)\)", out) is not None,
                      "%s without the layer: the %s module is refused" % (platform, name), out + err)
            rc, out, err = host(BASE, platform, demo, "--check-il")
            check(rc == 1 and "device IL version: none" in out and "the device takes no SPIR-V" in out,
                  "%s without the layer: a careful application finds no IL path" % platform, out + err)

            # 2. With it: the annotated module, three ways.
            for how, flags in (("", []), (" (clCreateProgramWithILKHR, compile + link, IL checked)",
                                          ["--khr", "--compile-link", "--check-il"])):
                rc, out, err = host(WITH, platform, demo, *flags, kernels=kernels)
                check(out.startswith("device IL version: SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4\n"),
                      "%s%s: the device reports SPIR-V 1.0-1.4" % (platform, how), out[:300])
                demo_checks(platform, out, err, how)
                print("%s%s:\n  %s" % (platform, how, "\n  ".join(l for l in out.splitlines() if l.startswith(
                    ("kernel", "spvcond", "program")))))

            # 3. Guarded code and a multi-target module: each device its own path.
            for name, module, kernel in (("guarded-code", chain, "refine"), ("multi-target", multi, "scale")):
                rc, out, err = host(WITH, platform, module, kernels=[kernel])
                check(rc == 0 and "kernel %s: results %s\n" % (kernel, PATH[platform]) in out,
                      "%s: the %s module takes the %s path (%s)" % (
                          platform, name, "fp64" if platform == "pocl" else "float", PATH[platform]), out + err)
                print("%s, %s: %s" % (platform, name, re.findall(r"kernel \w+: results .*", out)))

            # OpenCL C as applications write it: local memory and barriers, vector loads, atomics.
            rc, out, err = host(WITH, platform, user_kernels, kernels=list(USER))
            check(rc == 0 and all("kernel %s: results %s\n" % kr in out for kr in USER.items()),
                  "%s: local memory, vectors, atomics, a kernel calling a kernel through the layer (%s)" %
                  (platform, ", ".join(USER)),
                  out + err)

            # printf with vector arguments as OpenCL C 1.2 prints them (pocl reads a vector of four bytes or
            # less as an integer: the library passes it so, SPVCOND_LOWER_PRINTF_SMALL_VECTORS).
            rc, out, err = host(WITH, platform, vector_printf, kernels=["vector_printf"])
            check(rc == 0 and "f=0.000000,1.500000,-2.250000,10000000000.000000|hl=7,-9|c=1,ab,ff|g=0.500000,2.00000\n"
                  in out, "%s: printf with vector arguments through the layer, as OpenCL C prints them" % platform,
                  out + err)

            # 4. Plain SPIR-V (annotated in memory: what the device lacks is absent with its reason, as for the
            # annotated module), real modules, a module that is not SPIR-V, threads.
            rc, out, err = host(WITH, platform, demo_plain, kernels=kernels)
            demo_checks(platform, out, err, " (the plain module)")
            check("spvcond layer: a plain module annotated in memory: " in err,
                  "%s: SPVCOND_LAYER_DEBUG says the plain module was annotated in memory" % platform, err[-600:])
            rc, out, err = host(WITH, platform, user_kernels, kernels=list(USER))
            check(rc == 0 and "spvcond" not in out.split("build log:")[-1].split("program:")[0] and
                  all("kernel %s: results %s\n" % kr in out for kr in USER.items()),
                  "%s: a plain module whose kernels the device all keeps: all of them, the build log the "
                  "driver's alone" % platform, out + err[-600:])
            for name in REAL:
                path = os.path.join(CORPUS, name + ".spv")
                if not os.path.exists(path):
                    print("skipped: %s (not in the corpus at %s)" % (name, CORPUS))
                    continue
                for module in (path, os.path.join(tmp, name + ".a.spv")):
                    if module != path:
                        annotate(path, module)
                    rc, out, err = host(WITH, platform, module)
                    built = re.search(r"program: built; kernels: \S+ \((\d+)\)", out)
                    check(rc == 0 and built is not None and int(built.group(1)) > 0,
                          "%s: %s%s builds through the layer, %s kernels" % (
                              platform, name, " (annotated)" if module != path else "",
                              built.group(1) if built else "no"), (out + err)[-400:])
            odd = os.path.join(tmp, "odd.spv")
            with open(odd, "wb") as f:
                f.write(open(demo_plain, "rb").read()[:2163])
            rc, out, err = host(WITH, platform, odd, kernels=["scale_float"])
            check(rc == 1 and "spvcond layer: clCreateProgramWithIL: size 2163 bytes is not a multiple of 4\n" in err,
                  "%s: a module cut to 2163 bytes: refused, the message naming no word" % platform, err[-300:])
            rc, out, err = host(WITH, platform, junk, kernels=["scale_float"])
            check(rc == 1 and "program: not created (OpenCL error -30)" in out and
                  "spvcond layer: clCreateProgramWithIL: bad magic number" in err,
                  "%s: a module that is not SPIR-V: CL_INVALID_VALUE and a message" % platform, out + err)
            rc, out, err = host(WITH, platform, demo, "--threads", "4", kernels=[arg(k) for k in DEMO[platform]["run"]])
            check(rc == 0 and "threads: 4 runs at once, 0 printed otherwise than one alone, 0 failures" in out and
                  all("kernel %s: results %s\n" % kr in out for kr in DEMO[platform]["run"].items()),
                  "%s: four runs of the application on threads at once, each as one alone" % platform, out[-400:] + err[-400:])

        # Two devices in one context (pocl's pthread and basic drivers): each gets its module and its log
        # lines; a kernel is there when every device the program was built for keeps it.
        two = dict(WITH, POCL_DEVICES="pthread basic")
        for how, flags in (("", []), (", compile + link", ["--compile-link"])) if BITCODE else ():
            rc, out, err = host(two, "pocl", demo, "--all-devices", *flags,
                                kernels=["scale_float", "mix_double", "scale_half"])
            check("devices in the context: 2" in out and out.count(
                "spvcond: kernel scale_half is not available on this device: %s" % FP16) == 2,
                  "pocl, two devices%s: each device's build log says why scale_half is absent" % how, out + err)
            check(re.search(r"program: built; kernels: \S+ \(4\)", out) is not None and
                  "kernel scale_float: results 0 2 4 6\n" in out and "kernel mix_double: results 2 4 6 8\n" in out and
                  "kernel scale_half: not created (OpenCL error -46)" in out,
                  "pocl, two devices%s: the kernels both keep, and run" % how, out + err)
        clinfo_checks()
        mock_checks(tmp, demo, demo_plain, multi)
        mock_nvidia_checks(tmp, demo, chain, multi)
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
