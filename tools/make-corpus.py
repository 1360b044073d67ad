#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The real-module corpus, rebuilt from Debian packages as tests/corpus/MANIFEST.tsv records it.

Every module of the corpus is OpenCL C that a Debian bookworm package ships, compiled with

    clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 SRC EXTRA...
    llvm-spirv-15 --spirv-max-version=1.2

from the cache folder (relative paths in the flags start there). This script downloads the packages
the manifest names (`apt-get download`, the manifest's version when the archive still has it), unpacks
them (`dpkg -x`), compiles every module and checks it: with the manifest's package version, the bytes
must be the manifest's (sha256); with another version, the kernel, function and call counts are
compared and a difference is reported, not fatal. A build is reused while the manifest is unchanged.

Where the tests find the corpus (--print-dir, --link): $SPVCOND_CORPUS when set, else
../shared/corpus/modules beside the source tree when present (a faster cache), else the cache this
script builds (--cache; by default the one the test build, build-test, makes, so that the scripts
run after tools/run-tests.sh find it).

Exit codes: 0 done, 1 a module could not be made or does not match, 2 bad usage.
"""
import argparse
import concurrent.futures
import filecmp
import glob
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "tests", "corpus", "MANIFEST.tsv")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "modules")
CLANG = ["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
         "-emit-llvm", "-O0"]
TRANSLATE = ["llvm-spirv-15", "--spirv-max-version=1.2"]
# `meson test` gives every test a random MALLOC_PERTURB_ (glibc then fills freed memory with that byte).
# Debian's llvm-spirv-15 reads freed memory translating pocl's convert_type kernels and crashes when the
# byte is 1, 2 or 3 (5 modules refused once in CI). The corpus is the compilers' output, not a test of
# them: they run without it.
COMPILER_ENV = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
STAMP = ".manifest-sha256"

# SPIR-V opcodes the counts are made of (the SPIR-V specification's numbers, not this project's
# generated names, so that this script runs before anything is built).
OP_ENTRY_POINT, OP_FUNCTION, OP_FUNCTION_CALL = 15, 54, 57


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    header, rows = lines[0], lines[1:]
    need = ["file", "package", "source", "sha256", "kernels", "functions", "calls", "extra_flags"]
    missing = [c for c in need if c not in header]
    if missing:
        raise SystemExit("%s: no column %s" % (path, ", ".join(missing)))
    modules = []
    for n, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise SystemExit("%s:%d: %d columns, the header has %d" % (path, n, len(row), len(header)))
        m = dict(zip(header, row))
        m["package_name"], _, m["package_version"] = m["package"].partition(" ")
        modules.append(m)
    return modules


def counts(data):
    """(kernels, functions, calls) of a SPIR-V module: OpEntryPoint, OpFunction, OpFunctionCall."""
    if len(data) < 20 or len(data) % 4:
        return None
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    if words[0] != 0x07230203:
        return None
    found = {OP_ENTRY_POINT: 0, OP_FUNCTION: 0, OP_FUNCTION_CALL: 0}
    i = 5
    while i < len(words):
        size, op = words[i] >> 16, words[i] & 0xFFFF
        if size == 0:
            return None
        if op in found:
            found[op] += 1
        i += size
    return found[OP_ENTRY_POINT], found[OP_FUNCTION], found[OP_FUNCTION_CALL]


def manifest_counts(m):
    return int(m["kernels"]), int(m["functions"]), int(m["calls"])


def has_modules(path):
    return bool(path) and os.path.isdir(path) and bool(glob.glob(os.path.join(path, "*.spv")))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def download(packages, debs):
    """Every package into `debs`, the manifest's version when the archive has it. Returns
    {name: version actually downloaded}."""
    os.makedirs(debs, exist_ok=True)
    got = {}
    for name, version in sorted(packages.items()):
        have = glob.glob(os.path.join(debs, name + "_*.deb"))
        if not have:
            for spec in (name + "=" + version, name):
                r = subprocess.run(["apt-get", "download", "-q", spec], cwd=debs, capture_output=True, text=True)
                have = glob.glob(os.path.join(debs, name + "_*.deb"))
                if r.returncode == 0 and have:
                    break
            if not have:
                raise SystemExit("apt-get download %s failed: %s" % (name, r.stderr.strip()[-400:]))
        v = subprocess.run(["dpkg-deb", "-f", have[0], "Version"], capture_output=True, text=True, check=True)
        got[name] = v.stdout.strip()
    return got


def compile_module(m, root, out_dir):
    """Compile one module into out_dir; returns an error message or None."""
    src = os.path.join(root, m["source"].lstrip("/"))
    if not os.path.exists(src):
        return "%s: no %s in the package" % (m["file"], m["source"])
    # Paths in the flags name the packages' files as installed (/usr/...) or as unpacked one package
    # a folder (pkgs/NAME/usr/...): both are found in `root`. Relative ones start from the cache.
    flags = [re.sub(r"^(-include|-I)?(pkgs/[^/]+)?/usr/", lambda g: (g.group(1) or "") + root + "/usr/", f)
             for f in m["extra_flags"].split()]
    with tempfile.TemporaryDirectory() as tmp:
        bc = os.path.join(tmp, "m.bc")
        spv = os.path.join(tmp, "m.spv")
        for cmd in (CLANG + [src, "-o", bc] + flags, TRANSLATE + [bc, "-o", spv]):
            r = subprocess.run(cmd, cwd=os.path.dirname(root), capture_output=True, text=True, env=COMPILER_ENV)
            if r.returncode != 0:
                return "%s: %s failed: %s" % (m["file"], cmd[0], r.stderr.strip()[-400:])
        shutil.move(spv, os.path.join(out_dir, m["file"]))
    return None


def check_module(m, path, version):
    """(error, warning) for a built module against the manifest."""
    with open(path, "rb") as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() == m["sha256"]:
        return None, None
    found, expected = counts(data), manifest_counts(m)
    same_counts = found == expected
    what = "%s: kernels/functions/calls %s, the manifest says %s" % (m["file"], found, expected)
    if version != m["package_version"]:
        note = "%s %s (manifest: %s)" % (m["package_name"], version, m["package_version"])
        return None, (what + "; built from " + note) if not same_counts else None
    if not same_counts:
        return what + " from the manifest's package version", None
    return None, "%s: same counts, other bytes (the compilers changed?)" % m["file"]


def build(cache, manifest_path, jobs):
    """Make (or reuse) cache/modules; returns its path."""
    modules = read_manifest(manifest_path)
    with open(manifest_path, "rb") as f:
        stamp = hashlib.sha256(f.read()).hexdigest()
    out_dir = os.path.join(cache, "modules")
    stamp_path = os.path.join(out_dir, STAMP)
    if os.path.exists(stamp_path) and open(stamp_path).read().strip() == stamp and \
            all(os.path.exists(os.path.join(out_dir, m["file"])) for m in modules):
        return out_dir
    for tool in ("apt-get", "dpkg", "dpkg-deb", CLANG[0], TRANSLATE[0]):
        if shutil.which(tool) is None:
            raise SystemExit("cannot build the corpus: %s is not installed (sh tools/setup-debian.sh)" % tool)
    packages = {m["package_name"]: m["package_version"] for m in modules}
    log("corpus: downloading %d Debian packages into %s" % (len(packages), cache))
    versions = download(packages, os.path.join(cache, "debs"))
    root = os.path.join(cache, "root")
    shutil.rmtree(root, ignore_errors=True)
    for deb in sorted(glob.glob(os.path.join(cache, "debs", "*.deb"))):
        subprocess.run(["dpkg", "-x", deb, root], check=True)
    # pyFAI's and silx's kernels include "for_eclipse.h", a header for an IDE's parser that neither
    # package ships; the manifest's -Iwrappers/pyfai_inc gives them an empty one.
    os.makedirs(os.path.join(cache, "wrappers", "pyfai_inc"), exist_ok=True)
    open(os.path.join(cache, "wrappers", "pyfai_inc", "for_eclipse.h"), "w").close()
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    log("corpus: compiling %d modules" % len(modules))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        errors = [e for e in pool.map(lambda m: compile_module(m, root, out_dir), modules) if e]
    for m in modules:
        if os.path.exists(os.path.join(out_dir, m["file"])):
            error, warning = check_module(m, os.path.join(out_dir, m["file"]), versions[m["package_name"]])
            errors += [error] if error else []
            if warning:
                log("corpus: warning: " + warning)
    if errors:
        for e in errors:
            log("corpus: " + e)
        raise SystemExit("corpus: %d of %d modules could not be made as the manifest says"
                         % (len(errors), len(modules)))
    shutil.rmtree(root)
    with open(stamp_path, "w") as f:
        f.write(stamp + "\n")
    log("corpus: %d modules in %s" % (len(modules), out_dir))
    return out_dir


def resolve(args):
    env = os.environ.get("SPVCOND_CORPUS")
    if env and not args.fresh:
        if not has_modules(env):
            raise SystemExit("SPVCOND_CORPUS=%s holds no .spv module" % env)
        return os.path.abspath(env)
    if has_modules(SHARED) and not args.fresh:
        return SHARED
    return build(args.cache, args.manifest, args.jobs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", default=os.path.join(ROOT, "build-test", "corpus"),
                   help="where to download, unpack and compile (default: build-test/corpus in the source tree)")
    p.add_argument("--manifest", default=MANIFEST)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--fresh", action="store_true",
                   help="build into the cache even where $SPVCOND_CORPUS or ../shared has a corpus")
    p.add_argument("--print-dir", action="store_true", help="print the folder of modules the tests use")
    p.add_argument("--link", metavar="PATH", help="make PATH a symbolic link to that folder")
    p.add_argument("--compare", metavar="DIR", help="also require every module to equal DIR's byte for byte")
    args = p.parse_args()
    args.cache = os.path.abspath(args.cache)
    out = resolve(args)
    if args.compare:
        def same(name):
            theirs = os.path.join(args.compare, name)
            return os.path.exists(theirs) and filecmp.cmp(theirs, os.path.join(out, name), shallow=False)
        differ = [m["file"] for m in read_manifest(args.manifest) if not same(m["file"])]
        if differ:
            raise SystemExit("corpus: %d modules differ from %s: %s" % (len(differ), args.compare, " ".join(differ)))
        log("corpus: every module equals %s's" % args.compare)
    if args.link:
        tmp = args.link + ".tmp"
        if os.path.lexists(tmp):
            os.remove(tmp)
        os.symlink(out, tmp)
        os.replace(tmp, args.link)
    if args.print_dir:
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
