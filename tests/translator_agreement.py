#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a device's facts mean (spec/devices.md, "Facts not given"), on fixtures of the shapes of the
translator's own function-variants tests (test/extensions/INTEL/SPV_INTEL_function_variants:
addsubmul_asm.spt, cl_dot4.spt), run with the device options of every one of their runs:

- under --unspecified any, spvcond keeps the variant the translator's test expects, and the one the
  translator itself keeps when it is at hand (../shared/tools), run after run;
- under the default (error), a run that leaves out a fact a constant needs is refused, naming it, and a
  run that gives them all keeps that same variant;
- under unknown, whatever it writes passes today's validator; the table shows each mode's choice.
Usage: translator_agreement.py BUILD_TESTS_DIR (the built fixtures)."""
import os
import struct
import subprocess
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]

# Each run: the translator's options (--fnvar-X V), and the variant its test expects.
THREE_OPS = [
    ("c1 f1 a1 t4 f7,8", "add"), ("t4 f7,8", "add"), ("t4 f7,8,9", "add"), ("c1 f1 a2 t4 f7,8,9,10", "add"),
    ("c1 f1 a1 t4 f7,8,9,10", "sub"), ("c1 f1 t4 f7,8,9,10", "sub"), ("c1 t4 f7,8,9,10", "sub"),
    ("t4 f7,8,9,10", "sub"), ("t4", "sub"), ("", "sub"),
    ("c1 f21 a0 t5 f2,3,4,5,6", "mul"), ("c1 f21 a0 t6 f2,3,4,5,6", "mul"),
]
DOT = [
    ("c2 f3 a1 t7", "float"), ("c2 f3 a3 t8 f1,2,3,4", "float"), ("c2 f3 a4 t7 p4,5,6,11,39", "float"),
    ("c2 f3 a4 t7", "half"), ("c2 f3 t7", "half"), ("c2 f3 a5 t8 f1,2,3,4", "half"),
    ("c2 f3 a4 t7 p4,5,6,8,9,11,39", "half"),
]
NAMES = {"c": "category", "f": "family", "a": "arch", "t": "target", "p": "capabilities"}


def options(spec):
    """'c1 f1 a1 t4 f7,8' -> (spvcond's options, the translator's). The second f is the features."""
    ours, theirs, seen_target = [], [], False
    for tok in spec.split():
        key, value = tok[0], tok[1:]
        name = NAMES[key]
        if key == "t":
            seen_target = True
        if key == "f" and seen_target:
            name = "features"
        ours += ["--" + name, value]
        theirs += ["--fnvar-" + ("arch" if name == "arch" else name), value]
    return ours, theirs


def words(path):
    data = open(path, "rb").read()
    return struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])


def instructions(path):
    w = words(path)
    p = 5
    while p < len(w) and w[p] >> 16:
        yield w[p] & 0xffff, w[p:p + (w[p] >> 16)]
        p += w[p] >> 16


def variant(path):
    """Which variant a specialized module runs: for three_ops, the operation of the function whose call
    result apply's OpCopyObject takes (add, sub, mul); for dot_two_widths, the float width of its one
    dot4 kernel (float, half), or a description of what is wrong."""
    calls, copies, entry_points, widths, body_ops, current = {}, [], 0, set(), {}, None
    for op, w in instructions(path):
        if op == 54:  # OpFunction
            current = w[2]
            body_ops[current] = set()
        elif current is not None:
            body_ops[current].add(op)
        if op == 57:  # OpFunctionCall
            calls[w[2]] = w[3]
        elif op == 83:  # OpCopyObject
            copies.append(w[3])
        elif op == 15:  # OpEntryPoint
            entry_points += 1
        elif op == 22:  # OpTypeFloat
            widths.add(w[2])
    if copies:
        ops = body_ops.get(calls.get(copies[0]), set())
        return "add" if 129 in ops else "sub" if 131 in ops else "mul" if 133 in ops else "?"
    if entry_points != 1:
        return "%d kernels" % entry_points
    return "half" if widths == {16} else "float" if widths == {32} else "widths %s" % sorted(widths)


def translator_variant(module, theirs, out, tmp):
    if oracle.TRANSLATOR is None:
        return None
    p = run([oracle.TRANSLATOR, "-r", "--spirv-ext=+SPV_INTEL_function_variants,+SPV_INTEL_inline_assembly",
             "--fnvar-spec-enable", "--fnvar-spv-out", out, *theirs, module, "-o", os.path.join(tmp, "t.bc")])
    return variant(out) if p.returncode == 0 else "refused"


def one_fixture(name, module, runs, tmp, table):
    out = os.path.join(tmp, "out.spv")
    for spec, expected in runs:
        ours, theirs = options(spec)
        row = [name, spec or "(none)", expected]
        # any: the translator's reading.
        p = run([CLI, "specialize", "-q", "--unspecified", "any", *ours, module, "-o", out])
        got = variant(out) if p.returncode == 0 else "refused"
        check(got == expected, "%s [%s] --unspecified any keeps %s" % (name, spec, expected), got + p.stderr)
        if p.returncode == 0:
            ok, text = oracle.judge(out, "specialized")
            check(ok, "%s [%s] any: spirv-val" % (name, spec), text)
        row.append(got)
        theirs_got = translator_variant(module, theirs, os.path.join(tmp, "t.spv"), tmp)
        if theirs_got is not None:
            check(theirs_got == got, "%s [%s]: the translator keeps %s, spvcond --unspecified any %s"
                  % (name, spec, theirs_got, got))
        row.append(theirs_got or "-")
        # error (the default) and unknown.
        for mode in ("error", "unknown"):
            p = run([CLI, "specialize", "-q", *(["--unspecified", mode] if mode != "error" else []), *ours, module,
                     "-o", out])
            if p.returncode == 0:
                got_mode = variant(out)
                ok, text = oracle.judge(out, "specialized")
                check(ok, "%s [%s] %s: spirv-val" % (name, spec, mode), text)
            elif "which nobody gave" in p.stderr or "is missing" in p.stderr:
                got_mode = "refused: " + ("a fact" if "which nobody gave" in p.stderr else "part of arch")
            else:
                got_mode = "refused"
            if mode == "error" and p.returncode == 0:
                check(got_mode == expected, "%s [%s] error mode, every fact given: keeps %s" % (name, spec, expected),
                      got_mode)
            if mode == "error" and p.returncode != 0:
                check(p.returncode == 2 and ("which nobody gave" in p.stderr or "is missing" in p.stderr),
                      "%s [%s]: a fact left out is refused with its name, exit 2" % (name, spec), p.stderr)
            row.append(got_mode)
        table.append(row)


def main():
    data = sys.argv[1]
    print(oracle.describe())
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        one_fixture("three_ops", os.path.join(data, "three_ops.spv"), THREE_OPS, tmp, table)
        one_fixture("dot_two_widths", os.path.join(data, "dot_two_widths.spv"), DOT, tmp, table)
        # A built-in device gives every fact itself: --device alone specializes the multi-target module.
        out = os.path.join(tmp, "device.spv")
        for device, expected in (("nvidia_gpu_sm_80", "half"), ("nvidia_gpu_sm_52", "float"),
                                 ("intel_gpu_pvc", "0 kernels")):
            p = run([CLI, "specialize", "-q", "--device", device, os.path.join(data, "dot_two_widths.spv"), "-o", out])
            if check(p.returncode == 0, "--device %s alone specializes dot_two_widths" % device, p.stderr):
                check(variant(out) == expected, "--device %s gets %s" % (device, expected), variant(out))
                ok, text = oracle.judge(out, "specialized")
                check(ok, "--device %s: spirv-val" % device, text)
    print("| fixture | device (translator's run) | its test expects | spvcond any | translator | spvcond error "
          "| spvcond unknown |")
    print("|---|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(row) + " |")
    agree = sum(1 for r in table if r[3] == r[4])
    if oracle.TRANSLATOR:
        print("translator agreement under --unspecified any: %d of %d runs" % (agree, len(table)))
    else:
        print("skipped: the translator (../shared/tools absent); checked against its tests' expectations only")
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
