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
   lists, with the verdict it gives them."""
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


def unpack(tar, into):
    if not os.path.isdir(into):
        os.makedirs(into + ".part", exist_ok=True)
        with tarfile.open(tar) as t:
            t.extractall(into + ".part")
        os.rename(into + ".part", into)
    return into


def build(source, build_dir, target, *defines):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-S", source, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        *defines], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build_dir, *([target] if target else [])], check=True, stdout=subprocess.DEVNULL)


def platforms(env):
    """{runtime: index} as the ICD loader numbers the platforms."""
    out = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, env=env).stdout
    found = {}
    for index, name in re.findall(r"^Platform #(\d+): (.*)$", out, re.M):
        key = "pocl" if "Portable Computing Language" in name else "rusticl" if "rusticl" in name else None
        if key:
            found[key] = int(index)
    return found


def expected():
    """docs/conformance.md's table of test_spirv_new: {test: {runtime: verdict}}."""
    text = open(EXPECTED).read()
    section = text[text.index("<!-- test_spirv_new expected -->"):]
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
    build(src, out, None, "-DOPENCL_ICD_LOADER_HEADERS_DIR=" + headers, "-DBUILD_TESTING=OFF")
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


def conformance():
    tree = os.path.join(unpack(CTS_TAR, os.path.join(WORK, "cts-src")))
    tools = SPIRV_TOOLS if os.path.exists(os.path.join(SPIRV_TOOLS, "spirv-as")) else "/usr/bin"
    out = os.path.join(WORK, "cts-build")
    build(os.path.join(tree, "src"), out, "test_spirv_new", "-DCL_INCLUDE_DIR=" + os.path.join(tree, "OpenCL-Headers"),
          "-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu", "-DOPENCL_LIBRARIES=OpenCL", "-DSPIRV_INCLUDE_DIR=/usr",
          "-DSPIRV_TOOLS_DIR=" + tools, "-DSPIRV_ASSEMBLER=" + os.path.join(tools, "spirv-as"),
          "-DSPIRV_VALIDATOR=" + os.path.join(tools, "spirv-val"))
    binary = os.path.join(out, "test_conformance", "spirv_new", "test_spirv_new")
    wanted = expected()
    index = platforms(BASE)
    for runtime in ("pocl", "rusticl"):
        if runtime not in index:
            check(False, "test_spirv_new: %s is among the platforms" % runtime)
            continue
        results = os.path.join(WORK, "spirv_new-%s.json" % runtime)
        logs = os.path.join(WORK, "spirv_new-%s-logs" % runtime)
        p = subprocess.run([sys.executable, RUNNER, binary, str(index[runtime]), "--jobs", "2", "--json", results,
                            "--logs", logs, "--", "--spirv-binaries-path", os.path.join(os.path.dirname(binary),
                                                                                           "spirv_bin")],
                           capture_output=True, text=True, env=WITH, timeout=3000)
        got = json.load(open(results)) if os.path.exists(results) else {}
        print("test_spirv_new through the layer on %s: %s" % (runtime, p.stdout.strip().splitlines()[-1]
                                                              if p.stdout.strip() else p.stderr[-500:]))
        check(len(got) == 242, "test_spirv_new on %s: every one of its 242 tests has a verdict" % runtime, p.stderr)
        killed = sorted(n for n, v in got.items() if v.startswith("killed") or v == "hung")
        check(not killed, "test_spirv_new on %s: no process killed or hung" % runtime, " ".join(killed))
        for name, verdict in sorted(got.items()):
            want = wanted.get(name, {}).get(runtime)
            ok = verdict == want if want else verdict in ("pass", "skip")
            if not ok:
                check(False, "test_spirv_new on %s: %s is %s, docs/conformance.md expects %s" %
                      (runtime, name, verdict, want or "pass or skip"), os.path.join(logs, name + ".log"))
        listed = [n for n, r in wanted.items() if r.get(runtime) and got.get(n) == r.get(runtime)]
        check(all(got.get(n) == r[runtime] for n, r in wanted.items() if r.get(runtime)),
              "test_spirv_new on %s: %d tests as listed, every other one passed or skipped" % (runtime, len(listed)))


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
