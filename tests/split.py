#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The split design (spec/split.md): spvcond split and spvcond filter.

tests/data/split/seeds.cl, compiled at test time (two kernels with and without fp64, required work-group
and sub-group sizes, a helper shared across images, exported functions): the images and what each holds,
their property and symbol files, spirv-val on every image, per-kernel mode, the same bytes twice, and the
filter's verdicts for devices with and without fp64 and sub-group size 16; the images the filter keeps for
rusticl (no fp64) and pocl (fp64) loaded and run there, results checked; every corpus image through
spirv-val. Bad input: a directory that is
not empty (refused unless --force, left as it was), a table whose property file is missing or malformed (an
error naming it, no output). And the property that makes both designs trustworthy: for every corpus module
and every built-in device, the kernels of the images the filter keeps are the kernels specialize keeps."""
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import oracle
from platforms import one_platform
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
CORPUS = os.environ.get("SPVCOND_CORPUS", "")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")
JIT = os.environ.get("SPVCOND_JIT")


def compile_cl(path, tmp):
    bc, spv = (os.path.join(tmp, os.path.basename(path) + e) for e in (".bc", ".spv"))
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                    "-emit-llvm", "-O0", path, "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", spv], check=True)
    return spv


def table_rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return lines[0], [line.split("|") for line in lines[1:] if line]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def entry_points(spv):
    return set(re.findall(r'OpEntryPoint \w+ %\S+ "([^"]*)"', run([SPIRV_DIS, spv]).stdout))


def seeds(tmp):
    spv = compile_cl(os.path.join(SRC, "data", "split", "seeds.cl"), tmp)
    out = os.path.join(tmp, "seeds")
    p = run([CLI, "split", spv, "-o", out])
    if not check(p.returncode == 0, "seeds: split", p.stderr):
        return
    header, rows = table_rows(os.path.join(out, "split.table"))
    check(header == "[Code|Properties|Symbols]", "seeds: the table's header", header)
    want = [({"plain", "also_plain", "shared_helper", "exported_scale"}, "aspects=2|AAAAAAAAAAA"),
            ({"with_double"}, "aspects=2|gAAAAAAAAAgBAAAA"),
            ({"sized"}, "reqd_work_group_size_uint64_t=2|ADAAAAAAAAAEAAAAAAAAAEAAAAAAAAAABAAAAAAAAAA"),
            ({"subgroup"}, "reqd_sub_group_size=1|16")]
    check(len(rows) == len(want), "seeds: four images (by requirements)", str(rows))
    for (code, props, syms), (names, prop_line) in zip(rows, want):
        got = set(read(os.path.join(out, syms)).decode().split())
        check(got == names, "seeds: %s holds %s" % (code, sorted(names)), str(sorted(got)))
        check(prop_line in read(os.path.join(out, props)).decode(), "seeds: %s's property file" % code)
        image = os.path.join(out, code)
        ok, text = oracle.judge(image, "split image")
        check(ok, "seeds: %s passes spirv-val" % code, text)
        dis = run([SPIRV_DIS, image]).stdout
        check(entry_points(image) == names & {"plain", "also_plain", "with_double", "sized", "subgroup"} and
              "SPV_INTEL_function_variants" not in dis and "spvcond" not in dis,
              "seeds: %s has its kernels only, nothing of the extension" % code)
        if "with_double" not in names:
            check("OpTypeFloat 64" not in dis and "Float64" not in dis, "seeds: %s has no double" % code)
    # The same bytes again; per-kernel mode.
    again = os.path.join(tmp, "again")
    run([CLI, "split", "-q", spv, "-o", again], check=True)
    check(all(read(os.path.join(out, f)) == read(os.path.join(again, f)) for f in os.listdir(out)),
          "seeds: the same input gives the same bytes")
    per = os.path.join(tmp, "per")
    run([CLI, "split", "-q", "--mode", "per-kernel", spv, "-o", per], check=True)
    _, prow = table_rows(os.path.join(per, "split.table"))
    check(len(prow) == 7, "seeds: per-kernel, one image per kernel or exported function", str(len(prow)))
    # The filter.
    for device, kept, said in (("intel_gpu_pvc", [0, 1, 2, 3], ""),
                               ("intel_gpu_acm_g10", [0, 2, 3], "Required aspect fp64 is not supported"),
                               ("nvidia_gpu_sm_80", [0, 1, 2], "Sub-group size 16 is not supported"),
                               ("amd_gpu_gfx700", [0, 1, 2, 3], "")):
        t = os.path.join(out, device + ".table")
        p = run([CLI, "filter", os.path.join(out, "split.table"), "--device", device, "-o", t])
        _, frows = table_rows(t) if p.returncode == 0 else ("", [])
        check(p.returncode == 0 and [rows.index(r) for r in frows] == kept and said in p.stderr,
              "seeds: filter for %s keeps images %s" % (device, kept), p.stderr)
    # Bad input: a directory that is not empty; tables with a missing or malformed property file.
    p = run([CLI, "split", spv, "-o", out])
    check(p.returncode == 1 and "is not empty" in p.stderr and len(os.listdir(out)) == 4 * 3 + 1 + 4,
          "a non-empty directory is refused and left as it was", p.stderr)
    p = run([CLI, "split", "-q", "--force", spv, "-o", out])
    check(p.returncode == 0 and sorted(os.listdir(out)) == sorted(os.listdir(again)), "--force replaces it")
    reqs = os.path.join(tmp, "unknown.yaml")
    with open(reqs, "w") as f:
        f.write("nowhere:\n  uses: [fp64]\n")
    nothing = os.path.join(tmp, "nothing")
    p = run([CLI, "split", "--requirements", reqs, spv, "-o", nothing])
    check(p.returncode == 1 and "'nowhere'" in p.stderr and not os.path.exists(nothing),
          "a requirements file naming an unknown function: refused, nothing written", p.stderr)
    bad = os.path.join(tmp, "bad")
    shutil.copytree(out, bad)
    os.remove(os.path.join(bad, "image_1.prop"))
    t = os.path.join(tmp, "bad.table")
    p = run([CLI, "filter", os.path.join(bad, "split.table"), "--device", "intel_gpu_pvc", "-o", t])
    check(p.returncode == 3 and "image_1.prop" in p.stderr and not os.path.exists(t),
          "a missing property file: an error naming it, no table", p.stderr)
    with open(os.path.join(bad, "image_1.prop"), "w") as f:
        f.write("[SYCL/device requirements]\naspects=2|@@@\n")
    p = run([CLI, "filter", os.path.join(bad, "split.table"), "--device", "intel_gpu_pvc", "-o", t])
    check(p.returncode == 1 and "image_1.prop:2" in p.stderr and not os.path.exists(t),
          "a malformed property file: an error naming the line, no table", p.stderr)
    # Tables: CR LF lines read as LF ones; a wrong header, a row without three fields, an empty file.
    with open(os.path.join(out, "split.table")) as f:
        lines = f.read().splitlines()
    for name, text, want in (("crlf", "\r\n".join(lines) + "\r\n", None),
                             ("header", "\n".join(["[Code|Properties]"] + lines[1:]) + "\n",
                              "header.table:1: not a file table (expected [Code|Properties|Symbols])"),
                             ("row", "\n".join(lines[:2] + ["image_9.spv"] + lines[2:]) + "\n",
                              "row.table:3: expected code|properties|symbols"),
                             ("empty", "", "empty.table: empty, not a file table")):
        src, t = os.path.join(out, name + ".table"), os.path.join(tmp, name + ".out")
        with open(src, "w", newline="") as f:
            f.write(text)
        p = run([CLI, "filter", src, "--device", "intel_gpu_acm_g10", "-o", t])
        if want is None:
            _, frows = table_rows(t) if p.returncode == 0 else ("", [])
            check(p.returncode == 0 and [rows.index(r) for r in frows] == [0, 2, 3],
                  "a table with CR LF lines: filtered as the LF one", p.stderr)
        else:
            check(p.returncode == 1 and want in p.stderr and not os.path.exists(t),
                  "a bad table (%s): said where, no output" % name, p.stderr)
        os.remove(src)
    with open(os.path.join(bad, "image_1.prop"), "w") as f:
        f.write("[SYCL/device requirements]\naspects=2|gAAAAAAAAAAA\n")  # 32 bits claimed, none there
    p = run([CLI, "filter", os.path.join(bad, "split.table"), "--device", "intel_gpu_pvc", "-o", t])
    check(p.returncode == 1 and "image_1.prop:2: the byte array's bit length does not match its data" in p.stderr
          and not os.path.exists(t), "a byte array shorter than its bit count: said so, no table", p.stderr)


RUNTIME_DEVICES = """rusticl_llvmpipe:
  aspects: [gpu, online_compiler, online_linker, queue_profiling]
  may_support_other_aspects: false
  sub-group-sizes: [8]
pocl_cpu:
  aspects: [cpu, fp64, online_compiler, online_linker, queue_profiling]
  may_support_other_aspects: false
  sub-group-sizes: [8]
"""
# a[i] = i, then each kernel: a[0..3] after it runs.
RESULTS = {"plain": [1, 1.5, 2, 2.5], "also_plain": [1, 2, 3, 4], "with_double": [1, 2, 3, 4], "sized": [0, 2, 4, 6]}


def runtimes(tmp):
    """The images the filter keeps for rusticl (no fp64) and pocl (fp64), loaded and run there."""
    out = os.path.join(tmp, "seeds")
    config = os.path.join(tmp, "runtimes.yaml")
    with open(config, "w") as f:
        f.write(RUNTIME_DEVICES)
    env = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")
    for platform, device, want in (("rusticl", "rusticl_llvmpipe", {"plain", "also_plain", "sized"}),
                                   ("pocl", "pocl_cpu", {"plain", "also_plain", "sized", "with_double"})):
        t = os.path.join(out, device + ".table")
        p = run([CLI, "filter", "-q", os.path.join(out, "split.table"), "--device", device, "--device-config", config,
                 "-o", t])
        if not check(p.returncode == 0, "%s: filter" % device, p.stderr):
            continue
        ran = {}
        for code, _, _ in table_rows(t)[1]:
            p = run([JIT, "--platform", platform, "--raw", "--print", os.path.join(out, code)],
                    env=one_platform(env, platform), timeout=600)
            for name, values in re.findall(r"^  (\w+): results (.*)$", p.stdout, re.M):
                ran[name] = [float(v) for v in values.split()]
        check(set(ran) == want and all(ran[k] == RESULTS[k] for k in ran),
              "%s runs the images the filter keeps for it, results right" % platform, str(ran))
        print("%s: %s" % (platform, ", ".join("%s %s" % (k, ran[k]) for k in sorted(ran))))


def virtual(tmp):
    """Virtual functions (spec/virtual-functions.md): an image has the bodies of the sets its requirements
    cover, and stubs for the others, so that every vtable entry resolves."""
    bc, spv = os.path.join(tmp, "design.bc"), os.path.join(tmp, "design.spv")
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL2.0", "-Xclang",
                    "-cl-ext=+__cl_clang_function_pointers", "-Xclang", "-finclude-default-header", "-emit-llvm",
                    "-O0", os.path.join(SRC, "data", "virtual", "design.cl"), "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-ext=+SPV_INTEL_function_pointers", bc, "-o", spv], check=True)
    out = os.path.join(tmp, "virtual")
    p = run([CLI, "split", "--requirements", os.path.join(SRC, "data", "virtual", "design.yaml"), spv, "-o", out])
    if not check(p.returncode == 0, "virtual functions: split", p.stderr):
        return
    _, rows = table_rows(os.path.join(out, "split.table"))
    got = []
    for code, _, syms in rows:
        dis = run([SPIRV_DIS, os.path.join(out, code)]).stdout
        back = run(["llvm-spirv-15", "-r", os.path.join(out, code), "-o", os.devnull])
        got.append((sorted(read(os.path.join(out, syms)).decode().split()), '"base_bar.body"' in dis,
                    "Float64" in dis, '"base_bar"' in dis, back.returncode == 0))
    check(got == [(["construct", "use"], False, False, True, True), (["use_fp64"], True, True, True, True)],
          "virtual functions: the fp64 body only in the fp64 image, the stub in both, the translator reads both",
          str(got))


def library(tmp):
    """A module without kernels: one image per requirement group of its exported functions."""
    clc = "/usr/lib/clc/spirv64-mesa3d-.spv"
    out = os.path.join(tmp, "clc")
    p = run([CLI, "split", clc, "-o", out])
    if not check(p.returncode == 0, "libclc: split", p.stderr):
        return
    _, rows = table_rows(os.path.join(out, "split.table"))
    aspects = sorted(read(os.path.join(out, props)).decode().splitlines()[1] for _, props, _ in rows)
    check(len(rows) >= 3 and len(set(aspects)) == len(rows), "libclc: an image per requirement group of exports",
          str(aspects))
    for code, _, syms in rows:
        ok, text = oracle.judge(os.path.join(out, code), "split image")
        check(ok and read(os.path.join(out, syms)) and not entry_points(os.path.join(out, code)),
              "libclc: %s passes spirv-val, exports only" % code, text)
    print("libclc: %d images (%s)" % (len(rows), "; ".join(aspects)))


def corpus_equality(tmp):
    """For every corpus module and built-in device: the filter's kernels = specialize's."""
    devices = [d["name"] for d in json.loads(run([CLI, "devices", "--json"], check=True).stdout)]
    modules = sorted(glob.glob(os.path.join(CORPUS, "*.spv")))
    if not check(len(modules) >= 60, "the corpus is there", str(len(modules))):
        return
    mismatches, pairs, images = [], 0, 0
    for path in modules:
        out = os.path.join(tmp, "c")
        if os.path.exists(out):
            shutil.rmtree(out)
        p = run([CLI, "split", "-q", path, "-o", out])
        if not check(p.returncode == 0, "%s: split" % os.path.basename(path), p.stderr):
            continue
        _, rows = table_rows(os.path.join(out, "split.table"))
        images += len(rows)
        for code, _, _ in rows:
            ok, text = oracle.judge(os.path.join(out, code), "split image")
            check(ok, "%s: %s passes spirv-val" % (os.path.basename(path), code), text)
        kernels = {code: entry_points(os.path.join(out, code)) for code, _, _ in rows}
        ann = os.path.join(tmp, "a.spv")
        run([CLI, "annotate", "-q", path, "-o", ann], check=True)

        def compare(device, out=out, ann=ann, kernels=kernels, path=path):
            t = os.path.join(out, device + ".table")
            run([CLI, "filter", "-q", os.path.join(out, "split.table"), "--device", device, "-o", t])
            _, kept = table_rows(t)
            got = set().union(*[kernels[code] for code, _, _ in kept]) if kept else set()
            said = run([CLI, "check", "--device", device, ann]).stdout
            want = set(re.findall(r"^(\S+): supported$", said, re.M))
            return None if got == want else "%s on %s: split+filter %s, specialize %s" % (
                os.path.basename(path), device, sorted(got ^ want)[:4], len(want))

        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
            for verdict in pool.map(compare, devices):
                pairs += 1
                if verdict:
                    mismatches.append(verdict)
    check(not mismatches, "corpus: split + filter keeps what specialize keeps (%d module-device pairs, %d images)"
          % (pairs, images), "; ".join(mismatches[:5]))
    print("corpus: %d images over %d modules; %d module-device pairs compared" % (images, len(modules), pairs))


def main():
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        seeds(tmp)
        if JIT:
            runtimes(tmp)
        virtual(tmp)
        library(tmp)
        corpus_equality(tmp)
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
