#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layer against suites nobody here wrote (docs/conformance.md), from the Khronos sources in ../shared/cts
(skipped, with the reason, where a clone has no ../shared beside it):

1. The Khronos ICD loader, built from its source: the layer initialised through clInitLayerWithProperties
   (and finished through clDeinitLayer), and through clInitLayer with OCL_ICD_FORCE_LEGACY_TERMINATION; the
   annotated demonstration module builds and its kernels run on pocl and rusticl through it.
2. The OpenCL CTS's test_spirv_new (242 tests of SPIR-V modules), built from its source, through the layer on
   pocl and rusticl with a crash-and-resume runner (tests/conformance/run_cts.py): no process killed, and
   every test passes or is skipped by the CTS for what the device lacks, except those docs/conformance.md
   lists, with the verdict it gives them.
3. The CTS's test_basic in its offline SPIR-V mode (every kernel compiled here by clang-15 and llvm-spirv-15,
   tests/conformance/cl_offline_compiler.py, and given to clCreateProgramWithIL), through the layer on pocl
   and rusticl, judged in the same way against docs/conformance.md's table of test_basic.

Each suite runs through the test build's layer (the sanitizers') on one runtime: test_spirv_new on rusticl,
test_basic on pocl, so that each route's code runs under them; on the other runtime through the layer that
SPVCOND_RELEASE_LAYER names (the test command's release build: the sanitizers' allocator, preloaded, made
the runtimes' own LLVM three to five times slower, docs/testing.md "Time"), or through the test build's
too where it names none. The verdicts expected are the same either way."""
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

from layer_common import CLI, HOST, LAYER, SRC, compile_cl
from verdicts import check, summary

SHARED = os.path.normpath(os.path.join(SRC, "..", "..", "shared", "cts"))
CTS_TAR = os.path.join(SHARED, "opencl-cts-b8f8906c.tar.xz")
LOADER_TAR = os.path.join(SHARED, "OpenCL-ICD-Loader-45cdbda4.tar.xz")
WORK = os.path.join(os.environ["SPVCOND_TEST_DATA"], "conformance")
RUNNER = os.path.join(SRC, "conformance", "run_cts.py")
OFFLINE_COMPILER = os.path.join(SRC, "conformance", "cl_offline_compiler.py")
EXPECTED = os.path.join(SRC, "..", "docs", "conformance.md")
SPIRV_TOOLS = os.path.normpath(os.path.join(SRC, "..", "..", "shared", "tools", "spirv-tools-2026", "bin"))


def sanitizer_preload():
    """The test build's layer is built with the sanitizers: a program built without them loads their
    runtimes first."""
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run(["gcc", "-print-file-name=" + name], capture_output=True, text=True).stdout.strip()
        if os.path.isabs(path) and os.path.exists(path):
            libs.append(path)
    return ":".join(libs)


BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0",
            SPVCOND_LAYER_CACHE_DISABLE="1")
BASE.pop("OPENCL_LAYERS", None)
WITH = dict(BASE, OPENCL_LAYERS=LAYER)
if os.environ.get("SPVCOND_SANITIZE", "none") != "none":
    WITH["LD_PRELOAD"] = sanitizer_preload()
RELEASE = os.environ.get("SPVCOND_RELEASE_LAYER")
# (suite, runtime) run through the release build's layer when there is one.
UNSANITIZED = {("test_spirv_new", "pocl"), ("test_basic", "rusticl")}


def layer_env(suite, runtime):
    """The environment SUITE runs in on RUNTIME, and which layer it loads, in words."""
    if RELEASE and (suite, runtime) in UNSANITIZED:
        return dict(BASE, OPENCL_LAYERS=RELEASE), "the release build's layer"
    return WITH, "the test build's layer"


def unpack(tar, into):
    if not os.path.isdir(into):
        os.makedirs(into + ".part", exist_ok=True)
        with tarfile.open(tar) as t:
            t.extractall(into + ".part")
        os.rename(into + ".part", into)
    return into


def build(source, build_dir, targets, *defines, build_type="Release"):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-S", source, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=" + build_type,
                        *defines], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build_dir, *targets], check=True, stdout=subprocess.DEVNULL)


def platforms(env):
    """{runtime: index} as the ICD loader numbers the platforms."""
    out = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, env=env).stdout
    found = {}
    for index, name in re.findall(r"^Platform #(\d+): (.*)$", out, re.M):
        key = "pocl" if "Portable Computing Language" in name else "rusticl" if "rusticl" in name else None
        if key:
            found[key] = int(index)
    return found


def expected(suite):
    """docs/conformance.md's table of SUITE (test_spirv_new, test_basic): {test: {runtime: verdict}}."""
    text = open(EXPECTED).read()
    section = text[text.index("<!-- %s expected -->" % suite):]
    rows = {}
    header = None
    for line in section.splitlines()[1:]:
        if not line.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(cells[0]) <= set("-: "):
            rows[cells[0]] = {header[k]: cells[k] for k in (1, 2)}
    return rows


def loader(tmp):
    src = os.path.join(unpack(LOADER_TAR, os.path.join(WORK, "loader-src")), "OpenCL-ICD-Loader")
    headers = os.path.join(unpack(CTS_TAR, os.path.join(WORK, "cts-src")), "OpenCL-Headers")
    out = os.path.join(WORK, "loader-build")
    build(src, out, [], "-DOPENCL_ICD_LOADER_HEADERS_DIR=" + headers, "-DBUILD_TESTING=OFF")
    demo = os.path.join(tmp, "demo.spv")
    annotated = os.path.join(tmp, "demo.a.spv")
    compile_cl(os.path.join(SRC, "data", "jit_demo.cl"), demo, tmp)
    subprocess.run([CLI, "annotate", "-q", demo, "-o", annotated], check=True)
    for legacy in (False, True):
        env = dict(WITH, LD_LIBRARY_PATH=out, SPVCOND_LAYER_DEBUG="1")
        if legacy:
            env["OCL_ICD_FORCE_LEGACY_TERMINATION"] = "1"
        how = "clInitLayer (OCL_ICD_FORCE_LEGACY_TERMINATION)" if legacy else "clInitLayerWithProperties"
        for runtime, runs in (("pocl", "scale_double:double"), ("rusticl", "add_one")):
            p = subprocess.run([HOST, "--platform", runtime, annotated, "scale_float", runs], capture_output=True,
                               text=True, env=env, timeout=600)
            check(p.returncode == 0 and "kernel scale_float: results 0 2 4 6" in p.stdout and
                  "loaded by the ICD loader" in p.stderr,
                  "Khronos ICD loader, %s, %s: the layer is loaded and the kernels run" % (how, runtime),
                  p.stdout + p.stderr[-3000:])
            if not legacy:
                check("deinitialised by the ICD loader" in p.stderr,
                      "Khronos ICD loader, %s: clDeinitLayer is called at the end" % runtime, p.stderr[-2000:])


def cts_build(tree, tools):
    out = os.path.join(WORK, "cts-build")
    # Without optimization (no build type): the build a fifth shorter, the tests' time the same.
    build(os.path.join(tree, "src"), out, ["test_spirv_new", "test_basic"],
          "-DCL_INCLUDE_DIR=" + os.path.join(tree, "OpenCL-Headers"), "-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu",
          "-DOPENCL_LIBRARIES=OpenCL", "-DSPIRV_INCLUDE_DIR=/usr", "-DSPIRV_TOOLS_DIR=" + tools,
          "-DSPIRV_ASSEMBLER=" + os.path.join(tools, "spirv-as"), "-DSPIRV_VALIDATOR=" + os.path.join(tools, "spirv-val"),
          build_type="")
    return os.path.join(out, "test_conformance")


def judge(suite, binary, options, count, tests=None):
    """Runs SUITE (TESTS of it, or all) through the layer on pocl and rusticl and compares each test's verdict with
    docs/conformance.md."""
    wanted = expected(suite)
    index = platforms(BASE)
    for runtime in ("pocl", "rusticl"):
        if runtime not in index:
            check(False, "%s: %s is among the platforms" % (suite, runtime))
            continue
        results = os.path.join(WORK, "%s-%s.json" % (suite[5:], runtime))
        logs = os.path.join(WORK, "%s-%s-logs" % (suite[5:], runtime))
        env, which = layer_env(suite, runtime)
        p = subprocess.run([sys.executable, RUNNER, binary, str(index[runtime]), "--jobs", "2", "--json", results,
                            "--logs", logs, *(["--tests", ",".join(tests)] if tests else []), "--",
                            *options(runtime)], capture_output=True, text=True, env=env, timeout=3000)
        got = json.load(open(results)) if os.path.exists(results) else {}
        print("%s through %s on %s: %s" % (suite, which, runtime, p.stdout.strip().splitlines()[-1]
                                           if p.stdout.strip() else p.stderr[-500:]))
        count = len(tests) if tests else count
        check(len(got) == count, "%s on %s: every one of its %d tests run has a verdict" % (suite, runtime, count),
              p.stderr)
        killed = sorted(n for n, v in got.items() if v.startswith("killed") or v == "hung")
        check(not killed, "%s on %s: no process killed or hung" % (suite, runtime), " ".join(killed))
        for name, verdict in sorted(got.items()):
            want = wanted.get(name, {}).get(runtime)
            ok = verdict == want if want else verdict in ("pass", "skip")
            if not ok:
                check(False, "%s on %s: %s is %s, docs/conformance.md expects %s" %
                      (suite, runtime, name, verdict, want or "pass or skip"), os.path.join(logs, name + ".log"))
        listed = [n for n, r in wanted.items() if r.get(runtime) and got.get(n) == r.get(runtime)]
        check(all(got.get(n) == r[runtime] for n, r in wanted.items() if r.get(runtime) and n in got),
              "%s on %s: %d tests as listed, every other one passed or skipped" % (suite, runtime, len(listed)))


def conformance():
    tree = os.path.join(unpack(CTS_TAR, os.path.join(WORK, "cts-src")))
    tools = SPIRV_TOOLS if os.path.exists(os.path.join(SPIRV_TOOLS, "spirv-as")) else "/usr/bin"
    suites = cts_build(tree, tools)
    spirv_new = os.path.join(suites, "spirv_new", "test_spirv_new")
    judge("test_spirv_new", spirv_new, lambda runtime: ["--spirv-binaries-path",
                                                        os.path.join(os.path.dirname(spirv_new), "spirv_bin")], 242)
    # Offline SPIR-V mode: the kernels compiled once per runtime (each device's extensions), kept between runs
    # of the test in the build folder (the CTS's compilation cache, keyed by each kernel's source and options).
    judge("test_basic", os.path.join(suites, "basic", "test_basic"), lambda runtime: [
        "--compilation-mode", "spir-v", "--compilation-cache-path", cache_dir(runtime),
        # The compiler (clang, llvm-spirv) without the sanitizers' runtime the layer's process has preloaded.
        "--compilation-program", "env -u LD_PRELOAD %s %s" % (sys.executable, OFFLINE_COMPILER),
        "--spirv-validator", os.path.join(tools, "spirv-val")], 112, BASIC)


# The tests of test_basic the test command runs: those of a few kernels each (under 5 s on either runtime here),
# which cover buffers, images, samplers, constants, program-scope variables, barriers, work-item functions,
# offsets and kernels calling kernels. Each kernel is compiled and built once a runtime, about a second under the
# sanitizers: vec_type_hint (51 kernels for one attribute) and fpmath (30) are left to the whole suite's run
# (about 1,150 kernels, 25 minutes a runtime on 2 cores), by hand as docs/conformance.md says, where its
# verdicts are.
BASIC = ["arraycopy", "arrayreadwrite", "barrier", "constant", "constant_source", "createkernelsinprogram",
         "enqueued_local_size", "get_global_offset", "get_linear_ids", "global_linear_id",
         "global_work_offsets", "hostptr", "if", "image_param", "image_r8", "imagecopy", "int2fp", "fp2int",
         "intmath_int", "intmath_long", "kernel_call_kernel_function", "kernel_numeric_constants",
         "kernel_preprocessor_macros", "local_arg_def", "local_kernel_def", "local_kernel_scope", "local_linear_id",
         "loop", "mri_one", "pointer_cast", "progvar_func_scope", "progvar_prog_scope_init",
         "progvar_prog_scope_misc", "progvar_prog_scope_uninit", "readimage", "rw_image_access_qualifier",
         "simple_read_image_pitch", "simple_write_image_pitch", "wg_barrier", "work_item_functions",
         "writeimage"]


def cache_dir(runtime):
    path = os.path.join(WORK, "basic-kernels-%s" % runtime)
    os.makedirs(path, exist_ok=True)
    return path


def main():
    if not os.path.exists(CTS_TAR) or not os.path.exists(LOADER_TAR):
        print("SKIP: no Khronos sources at %s (../shared is beside the project's own checkout, not a clone)"
              % SHARED)
        return 77
    os.makedirs(WORK, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        loader(tmp)
    conformance()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
