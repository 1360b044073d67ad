#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layer's program cache (docs/opencl-layer.md, "The cache"), under the plain OpenCL host program.

What the layer hands each driver is kept in a folder between runs: the second run of the same module on the
same device reads it (a hit, said by SPVCOND_LAYER_DEBUG and never in the build log) and gives the driver the
same bytes with the same kernels and the same build log. Checked on pocl (LLVM bitcode), on the mock driver
playing rusticl (binaries, where each device's module can be read back) and playing NVIDIA (PTX):

- the folder: SPVCOND_LAYER_CACHE_DIR, else $XDG_CACHE_HOME/spvcond, else ~/.cache/spvcond; none written with
  SPVCOND_LAYER_CACHE_DISABLE;
- a miss on a changed module, on a changed device fact (the mock device reporting cl_khr_fp16: its fp16
  kernel is then kept), and on another build of the layer (a copy whose GNU build ID differs);
- an entry of another format version, a truncated one, one whose bytes changed, one that is not an entry,
  a FIFO or a link in an entry's place: each ignored, the program made again and correct, the entry
  replaced;
- a folder that cannot be written (a file in its place; a read-only folder, or /proc for root): no cache,
  the program built;
- six processes storing the same entry at once: all correct, one whole entry, no temporary file left;
- SPVCOND_LAYER_CACHE_MAX_SIZE: the least recently used entries go first, a hit counting as a use;
- modules the layer refuses leave nothing in the cache."""
import os
import re
import shutil
import struct
import subprocess
import tempfile

from layer_common import BITCODE, CACHE, CLI, DATA, HOST, INCLUDE, LAYER, MOCK_ICD, PTX, SRC, compile_cl
from platforms import one_platform
from verdicts import check, summary

BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0", SPVCOND_LAYER_DEBUG="1")
for v in ("OPENCL_LAYERS", "SPVCOND_LAYER_CACHE_DISABLE", "SPVCOND_LAYER_CACHE_DIR", "SPVCOND_LAYER_CACHE_MAX_SIZE",
          "XDG_CACHE_HOME"):
    BASE.pop(v, None)
ENTRY = re.compile(r"^[0-9a-f]{64}\.entry$")
DEMO_KERNELS = ["scale_float", "scale_double:double", "mix_double:double", "add_one"]


def host(env, platform, module, *args, kernels=("scale_float",), layer=LAYER):
    p = subprocess.run([HOST, "--platform", platform, *args, module, *kernels], capture_output=True, text=True,
                       env=one_platform(dict(env, OPENCL_LAYERS=layer), platform), timeout=600)
    return p.returncode, p.stdout, p.stderr

def entries(folder):
    return sorted(f for f in os.listdir(folder) if ENTRY.match(f)) if os.path.isdir(folder) else []


def hits(err):
    return len(re.findall(r"^spvcond layer: device .*: cache hit ", err, re.M))


def stores(err):
    return len(re.findall(r"^spvcond layer: device .*: cache stored ", err, re.M))


def results(out):
    """What the application saw: the program's kernels, their results, the build log."""
    return [l for l in out.splitlines() if l.startswith(("kernel ", "program:", "spvcond:", "build log"))]


def location_checks(tmp, demo):
    xdg, home = os.path.join(tmp, "xdg"), os.path.join(tmp, "home")
    rc, out, err = host(dict(BASE, XDG_CACHE_HOME=xdg, OCL_ICD_VENDORS=MOCK_ICD), "rusticl", demo, "--create-only")
    check(rc == 0 and len(entries(os.path.join(xdg, "spvcond"))) == 1,
          "the cache lies in $XDG_CACHE_HOME/spvcond by default", err[-600:])
    rc, out, err = host(dict(BASE, HOME=home, OCL_ICD_VENDORS=MOCK_ICD), "rusticl", demo, "--create-only")
    check(rc == 0 and len(entries(os.path.join(home, ".cache", "spvcond"))) == 1,
          "without XDG_CACHE_HOME, in ~/.cache/spvcond", err[-600:])
    check(oct(os.stat(os.path.join(home, ".cache", "spvcond")).st_mode & 0o777) == "0o700",
          "the folder the layer makes is its owner's alone")
    off = os.path.join(tmp, "off")
    rc, out, err = host(dict(BASE, SPVCOND_LAYER_CACHE_DIR=off, SPVCOND_LAYER_CACHE_DISABLE="1",
                             OCL_ICD_VENDORS=MOCK_ICD), "rusticl", demo, "--create-only")
    check(rc == 0 and not os.path.exists(off) and "cache: off (SPVCOND_LAYER_CACHE_DISABLE)" in err,
          "SPVCOND_LAYER_CACHE_DISABLE: nothing written, and the debug output says so", err[-600:])


def hit_checks(tmp, demo, demo_plain):
    folder = os.path.join(tmp, "pocl")
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder)
    if BITCODE:
        first = host(env, "pocl", demo, kernels=DEMO_KERNELS)
        second = host(env, "pocl", demo, kernels=DEMO_KERNELS)
        check(first[0] == 0 and stores(first[2]) == 1 and hits(first[2]) == 0 and len(entries(folder)) == 1,
              "pocl: the first run makes the bitcode and stores it", first[2][-800:])
        check(second[0] == 0 and hits(second[2]) == 1 and "LLVM bitcode made" not in second[2] and
              "module specialized" not in second[2], "pocl: the second run reads it (neither specialized nor "
              "translated again)", second[2][-800:])
        check(results(first[1]) == results(second[1]) and "kernel scale_double: results 0 2 4 6" in second[1] and
              "Required aspect fp16" in second[1],
              "pocl: the same kernels, results and build log from the cache", second[1])
        check("cache" not in second[1], "a hit is not in the build log", second[1])
        other = host(env, "pocl", demo_plain, kernels=DEMO_KERNELS)
        check(other[0] == 0 and hits(other[2]) == 0 and len(entries(folder)) == 2,
              "pocl: another module is a miss with its own entry", other[2][-600:])

    if not MOCK_ICD:
        return
    folder = os.path.join(tmp, "mock")
    prefix = os.path.join(tmp, "got")
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder, OCL_ICD_VENDORS=MOCK_ICD, SPVCOND_MOCK_OUT=prefix)
    kernels = ["scale_float", "scale_half", "add_one"]
    got = []
    for run in range(2):
        rc, out, err = host(env, "rusticl", demo, "--all-devices", "--create-only", kernels=kernels)
        got.append((rc, results(out), [open("%s.%d.spv" % (prefix, k), "rb").read() for k in (0, 1)], err))
    check(got[0][0] == got[1][0] and hits(got[1][3]) == 2 and got[0][1:3] == got[1][1:3],
          "mock rusticl, two devices: each device's module from the cache, byte for byte what was made",
          got[1][3][-800:])
    rc, out, err = host(dict(env, SPVCOND_MOCK_FP16="1"), "rusticl", demo, "--all-devices", "--create-only",
                        kernels=kernels)
    check(rc == 0 and hits(err) == 0 and stores(err) == 2 and "kernel scale_half: created" in out and
          len(entries(folder)) == 4, "mock rusticl: a changed device fact (cl_khr_fp16) is a miss, and the "
          "fp16 kernel is kept", out + err[-600:])

    if PTX:
        env = dict(env, SPVCOND_MOCK_NVIDIA="1")
        ptx = []
        for run in range(2):
            rc, out, err = host(env, "NVIDIA", demo, "--all-devices", "--create-only", kernels=kernels)
            ptx.append((rc, results(out), [open("%s.%d.ptx" % (prefix, k)).read() for k in (0, 1)], err))
        check(ptx[0][0] == ptx[1][0] and hits(ptx[1][3]) == 2 and ptx[0][1:3] == ptx[1][1:3] and
              ".entry scale_half" in ptx[1][2][0] and ".entry scale_half" not in ptx[1][2][1],
              "mock NVIDIA: the PTX of both devices from the cache, the same as made", ptx[1][3][-800:])


def build_id_copy(tmp):
    """A copy of the layer whose GNU build ID differs (another build, as far as the cache can tell)."""
    p = subprocess.run(["readelf", "-n", LAYER], capture_output=True, text=True)
    m = re.search(r"Build ID: ([0-9a-f]+)", p.stdout)
    if not m:
        return None
    data = bytearray(open(LAYER, "rb").read())
    old = bytes.fromhex(m.group(1))
    at = data.find(old)
    data[at:at + len(old)] = bytes(b ^ 0xFF for b in old)
    copy = os.path.join(tmp, "other-build", os.path.basename(LAYER))
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    open(copy, "wb").write(data)
    os.chmod(copy, 0o755)
    return copy


def damage_checks(tmp, demo):
    folder = os.path.join(tmp, "damage")
    prefix = os.path.join(tmp, "damaged")
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder, OCL_ICD_VENDORS=MOCK_ICD, SPVCOND_MOCK_OUT=prefix)
    rc, out, err = host(env, "rusticl", demo, "--create-only")
    made = open(prefix + ".0.spv", "rb").read()
    (name,) = entries(folder) or ["none"]
    path = os.path.join(folder, name)
    good = open(path, "rb").read()

    other = build_id_copy(tmp)
    if other:
        rc, out, err = host(env, "rusticl", demo, "--create-only", layer=other)
        check(rc == 0 and hits(err) == 0 and stores(err) == 1 and len(entries(folder)) == 2,
              "another build of the layer (its build ID changed) is a miss", err[-600:])
        os.remove(os.path.join(folder, [e for e in entries(folder) if e != name][0]))
    else:
        print("skipped: the layer has no GNU build ID")

    def damaged(what, data, reason):
        open(path, "wb").write(data)
        os.remove(prefix + ".0.spv")
        rc, out, err = host(env, "rusticl", demo, "--create-only")
        check(rc == 0 and "kernel scale_float: created" in out and open(prefix + ".0.spv", "rb").read() == made and
              re.search(r"cache entry .* ignored, made again: .*%s" % reason, err) is not None,
              "%s: ignored (%s), the program made again" % (what, reason), err[-600:])
        check(open(path, "rb").read() == good, "%s: replaced by a whole entry" % what)

    for version in (1, 3):  # an earlier layer's (SHA-256 digest, 104-byte header), a later one's
        other_format = bytearray(good)
        other_format[8:12] = struct.pack("<I", version)
        damaged("an entry of format version %d" % version, bytes(other_format), "format %d" % version)
    damaged("a truncated entry", good[:len(good) // 2], "do not add up")
    for where, at in (("its form", -10), ("its log or kernel list", 88), ("its header", 20 + 16)):
        flipped = bytearray(good)
        flipped[at] ^= 1
        reason = "another key" if where == "its header" else "checksum"
        damaged("an entry one of whose bytes changed (%s)" % where, bytes(flipped), reason)
    damaged("a file that is not an entry", b"not an entry at all", "not an entry")
    damaged("an empty file", b"", "not an entry")
    rc, out, err = host(env, "rusticl", demo, "--create-only")
    check(hits(err) == 1, "the replaced entry is read again", err[-400:])
    for what, make in (("a FIFO", os.mkfifo), ("a link", lambda p: os.symlink(os.path.join(folder, "elsewhere"), p))):
        os.remove(path)
        make(path)
        rc, out, err = host(env, "rusticl", demo, "--create-only")
        check(rc == 0 and "kernel scale_float: created" in out and "ignored, made again" in err and
              open(path, "rb").read() == good, "%s in an entry's place: ignored (no wait), replaced" % what,
              err[-400:])

    blocked = os.path.join(tmp, "a-file")
    open(blocked, "w").write("not a folder")
    rc, out, err = host(dict(env, SPVCOND_LAYER_CACHE_DIR=blocked), "rusticl", demo, "--create-only")
    check(rc == 0 and "kernel scale_float: created" in out and "not cached: the folder cannot be made" in err,
          "a cache folder that cannot be made (a file in its place): no cache, the program built", err[-600:])
    ro = os.path.join(tmp, "read-only")
    if os.geteuid() != 0:
        os.makedirs(ro)
        os.chmod(ro, 0o500)
    else:
        ro = "/proc"  # root writes anywhere else
    rc, out, err = host(dict(env, SPVCOND_LAYER_CACHE_DIR=ro), "rusticl", demo, "--create-only")
    check(rc == 0 and "kernel scale_float: created" in out and "not cached: the folder cannot be written" in err,
          "a folder that cannot be written (%s): no cache, the program built" % ro, err[-600:])


def concurrent_checks(tmp, module):
    folder = os.path.join(tmp, "together")
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder, OPENCL_LAYERS=LAYER)
    platform = "pocl" if BITCODE else "rusticl"
    procs = [subprocess.Popen([HOST, "--platform", platform, module, "scale_float"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=one_platform(env, platform)) for _ in range(6)]
    done = [(p.wait(timeout=600), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    check(all(rc == 0 and "kernel scale_float: results 0 2 4 6" in out for rc, out, _ in done),
          "six processes at once on %s, the cache empty: every one correct" % platform,
          "\n".join(out + err[-300:] for _, out, err in done if "results 0 2 4 6" not in out))
    left = os.listdir(folder)
    check(len(entries(folder)) == 1 and len(left) == 1, "six processes storing the same entry: one entry, no "
          "temporary file left (%s)" % left)
    rc, out, err = host(env, platform, module)
    check(rc == 0 and hits(err) == 1, "the entry they stored is whole", err[-400:])


def bound_checks(tmp, modules):
    """modules: three (module, kernel)."""
    folder = os.path.join(tmp, "bound")
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder, OCL_ICD_VENDORS=MOCK_ICD)
    sizes = []
    for m, kernel in modules:
        host(env, "rusticl", m, "--create-only", kernels=[kernel])
        new = [e for e in entries(folder) if e not in [s[0] for s in sizes]]
        sizes.append((new[0], os.path.getsize(os.path.join(folder, new[0]))))
    a, b, c = sizes
    # Room for the two largest and not three; a used more recently than b, the times set a second apart.
    bound = sorted(s for _, s in sizes)[1] + sorted(s for _, s in sizes)[2]
    shutil.rmtree(folder)
    env = dict(env, SPVCOND_LAYER_CACHE_MAX_SIZE=str(bound))
    for k, (m, kernel) in enumerate(modules[:2]):
        host(env, "rusticl", m, "--create-only", kernels=[kernel])
        os.utime(os.path.join(folder, sizes[k][0]), (1000 + k, 1000 + k))
    rc, out, err = host(env, "rusticl", modules[0][0], "--create-only", kernels=[modules[0][1]])  # a: most recent
    check(hits(err) == 1, "the bound: a hit before the third store", err[-400:])
    rc, out, err = host(env, "rusticl", modules[2][0], "--create-only", kernels=[modules[2][1]])
    check(rc == 0 and entries(folder) == sorted([a[0], c[0]]) and "least recently used entries removed" in err,
          "SPVCOND_LAYER_CACHE_MAX_SIZE=%d: the least recently used entry (not the oldest stored) is removed" % bound,
          "%s\n%s" % (entries(folder), err[-600:]))
    total = sum(os.path.getsize(os.path.join(folder, e)) for e in entries(folder))
    check(total <= bound, "the folder stays within its bound (%d <= %d)" % (total, bound))
    rc, out, err = host(dict(env, SPVCOND_LAYER_CACHE_MAX_SIZE="100"), "rusticl", modules[1][0], "--create-only",
                        kernels=[modules[1][1]])
    check(rc == 0 and "not cached: its" in err and "exceed the bound of 100" in err,
          "an entry larger than the bound is not stored", err[-400:])
    rc, out, err = host(dict(env, SPVCOND_LAYER_CACHE_MAX_SIZE="lots"), "rusticl", modules[1][0], "--create-only",
                        kernels=[modules[1][1]])
    check(rc == 0 and "SPVCOND_LAYER_CACHE_MAX_SIZE=lots is not a size" in err,
          "a bound that is not a size is said, and the default kept", err[-400:])


def refused_checks(tmp):
    folder = os.path.join(tmp, "refused")
    junk = os.path.join(tmp, "junk.spv")
    with open(junk, "wb") as f:
        f.write(struct.pack("<5I", 0x07230203, 0x10000, 0, 10, 0) + b"\xff" * 64)
    env = dict(BASE, SPVCOND_LAYER_CACHE_DIR=folder, OCL_ICD_VENDORS=MOCK_ICD)
    rc, out, err = host(env, "rusticl", junk, "--create-only")
    check(rc != 0 and entries(folder) == [], "a module the layer refuses leaves nothing in the cache", out + err)


def main():
    if not CACHE:
        print("skipped: the layer was built without its cache (nettle-dev, libxxhash-dev)")
        return 77
    if not MOCK_ICD:
        print("skipped: the mock driver (not built)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        demo_plain, demo, chain_plain, chain = (os.path.join(tmp, n) for n in
                                                ("demo.spv", "demo.a.spv", "chain.spv", "chain.a.spv"))
        compile_cl(os.path.join(SRC, "data", "jit_demo.cl"), demo_plain, tmp)
        subprocess.run([CLI, "annotate", "-q", demo_plain, "-o", demo], check=True)
        compile_cl(os.path.join(SRC, "data", "guards", "chain.cl"), chain_plain, tmp, "-I", INCLUDE)
        subprocess.run([CLI, "annotate", "-q", chain_plain, "-o", chain], check=True)
        location_checks(tmp, demo)
        hit_checks(tmp, demo, demo_plain)
        damage_checks(tmp, demo)
        concurrent_checks(tmp, demo)
        bound_checks(tmp, [(demo, "scale_float"), (chain, "refine"), (os.path.join(DATA, "multi_target.spv"), "scale")])
        refused_checks(tmp)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
