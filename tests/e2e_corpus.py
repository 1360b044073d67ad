#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End to end on real modules: annotate, validate with our checker, then specialize for several assignments, then spirv-val.

For the assignment "fp64 false, every other requirement true" the functions kept must be exactly
those an independent computation (from spirv-dis text, not from libspvcond) says survive: the ones
reachable from a kernel or exported function that does not use double, plus the ones no root
reaches. Where no kept function uses double, no Float64 capability and no 64-bit float type remain.
Every annotated module is one the translator's consumer can take (translator_shapes.py), and specialized
with every condition true (the defaults) gives back the module annotated, byte for byte; repair leaves
every annotated module as it is (spec/repair.md).
"""
import glob
import json
import os
import re
import sys
import tempfile

import oracle
import translator_shapes
import verdicts

CLI = os.environ["SPVCOND_CLI"]
DIS = os.environ["SPIRV_DIS"]


def run(args, check=True):
    p = verdicts.run(args)  # the tool's commands through the batch runner where the build has one
    if check and p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr[:800]))
    return p


def disassemble(path):
    return run([DIS, "--raw-id", "--no-header", "--no-indent", path]).stdout.splitlines()


def analyse(lines):
    """Functions, calls, roots and which functions use double, from disassembly text."""
    result_type = {}
    double_types = set()
    type_lines = []
    functions = {}      # id -> list of body lines
    order = []
    current = None
    roots = set()
    exported = set()
    for line in lines:
        m = re.match(r"(%\d+) = (Op\w+)(.*)", line)
        ops = re.findall(r"%\d+", line)
        if m:
            rid, op, rest = m.groups()
            if op == "OpTypeFloat" and rest.split()[0] == "64":
                double_types.add(rid)
            elif op.startswith("OpType"):
                type_lines.append((rid, re.findall(r"%\d+", rest)))
            elif op not in ("OpLabel", "OpExtInstImport", "OpString", "OpDecorationGroup") and ops[1:]:
                result_type[rid] = ops[1]
            if op == "OpFunction":
                current = rid
                functions[rid] = []
                order.append(rid)
        if current is not None:
            functions[current].append(line)
            if "OpFunctionEnd" in line:
                current = None
        if line.startswith("OpEntryPoint"):
            roots.add(ops[0])
        if "LinkageAttributes" in line and line.rstrip().endswith("Export"):
            exported.add(ops[0])
    # Types containing double, to a fixpoint (struct members, pointers, vectors, function types).
    changed = True
    while changed:
        changed = False
        for rid, refs in type_lines:
            if rid not in double_types and any(r in double_types for r in refs):
                double_types.add(rid)
                changed = True
    uses = {}
    calls = {}
    for f, body in functions.items():
        ids = set(re.findall(r"%\d+", " ".join(body)))
        uses[f] = any(i in double_types or result_type.get(i) in double_types for i in ids)
        calls[f] = set(re.findall(r"OpFunctionCall %\d+ (%\d+)", " ".join(body)))
    for f in exported:
        if f in functions and len(functions[f]) > 2 and any("OpLabel" in l for l in functions[f]):
            roots.add(f)
    # Functions with a body that no kernel or export reaches are roots of their own (spec/annotate.md).
    reached = set()
    for r in roots:
        reached |= reachable(r, calls)
    roots |= {f for f in functions if f not in reached and any("OpLabel" in l for l in functions[f])}
    return functions, calls, roots, uses


def reachable(start, calls):
    seen, todo = set(), [start]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(calls.get(f, ()))
    return seen


def expected_without_fp64(functions, calls, roots, uses):
    reach = {r: reachable(r, calls) for r in roots}
    root_uses = {r: any(uses[f] for f in reach[r]) for r in roots}
    kept = set()
    reached = set()
    for r in roots:
        reached |= reach[r]
        if not root_uses[r]:
            kept |= reach[r]
    return kept | (set(functions) - reached)




def supports(device, leaf):
    """The rule of spec/devices.md, written again here from the text of that rule."""
    kind, _, rest = leaf[len("spvcond."):].partition(".")
    if kind == "aspect":
        return rest in device["aspects"] or device["may_support_other_aspects"]
    if kind == "reqd_sub_group_size":
        if not device["sub_group_sizes"]:
            return device["may_support_other_aspects"]
        return int(rest) in device["sub_group_sizes"]
    if kind == "reqd_work_group_size":
        x, y, z = (int(v) for v in rest.split("."))
        return device["max_work_group_size"] == 0 or x * y * z <= device["max_work_group_size"]
    raise ValueError(leaf)


DEVICES = None


def device_sweep(annotated, leaves, tmp):
    """Every built-in device: group devices by the values they give, specialize once per group with
    --device, validate; and check that `spvcond check` computes the same values."""
    global DEVICES
    if DEVICES is None:
        DEVICES = json.loads(run([CLI, "devices", "--json"]).stdout)
    failures = []
    groups = {}
    for d in DEVICES:
        key = tuple(sorted((sid, supports(d, name)) for name, sid in leaves.items()))
        groups.setdefault(key, []).append(d["name"])
    for key, names in groups.items():
        rep = names[0]
        got = json.loads(run([CLI, "check", "--json", "--device", rep, annotated]).stdout)
        values = tuple(sorted((v["spec_id"], v["value"]) for v in got["spec_values"]))
        if values != key:
            failures.append("device %s: spvcond check gives %s, expected %s" % (rep, values, key))
        out = os.path.join(tmp, "d.spv")
        p = run([CLI, "specialize", "-q", "--device", rep, annotated, "-o", out], check=False)
        if p.returncode != 0:
            failures.append("device %s: specialize failed: %s" % (rep, p.stderr[:400]))
            continue
        ok, text = oracle.judge(out, "specialized")
        if not ok:
            failures.append("device %s: spirv-val: %s" % (rep, text[:400]))
    return failures, len(groups)


def check(path, tmp):
    failures = []
    annotated = os.path.join(tmp, "a.spv")
    run([CLI, "annotate", "-q", path, "-o", annotated])
    p = run([CLI, "validate", annotated], check=False)
    if p.returncode != 0:
        failures.append("spvcond validate: %s" % p.stderr[:500])
    failures += ["translator's consumer: " + f for f in translator_shapes.problems(annotated)[:3]]
    ok, text = oracle.judge(annotated, "annotated")
    if not ok:
        failures.append("annotated: spirv-val: %s" % text[:500])
    ok, text = oracle.translated_like(path, annotated)
    if not ok:
        failures.append("annotated: the translator's consumer: %s" % text[:500])
    repaired = os.path.join(tmp, "r.spv")  # consistent already: repair changes nothing
    run([CLI, "repair", "-q", annotated, "-o", repaired])
    if open(repaired, "rb").read() != open(annotated, "rb").read():
        failures.append("repair changed the annotated module")
    back = os.path.join(tmp, "back.spv")  # every condition true: the module annotated, byte for byte
    run([CLI, "specialize", "-q", annotated, "-o", back])
    if open(back, "rb").read() != open(path, "rb").read():
        failures.append("specialized with every condition true, the module differs from the one annotated")
    info = json.loads(run([CLI, "info", "--json", annotated]).stdout)
    leaves = {s["name"]: s["spec_id"] for s in info["spec_constants"]
              if s["spec_id"] is not None and (s["name"] or "").startswith("spvcond.")}
    assignments = [("all-true", {})]
    for name, sid in sorted(leaves.items()):
        assignments.append((name + "=false", {sid: 0}))
    if leaves:
        assignments.append(("all-false", {sid: 0 for sid in leaves.values()}))
    sweep_failures, _ = device_sweep(annotated, leaves, tmp)
    failures.extend(sweep_failures)
    functions, calls, roots, uses = analyse(disassemble(path))
    for label, values in assignments:
        out = os.path.join(tmp, "s.spv")
        args = [CLI, "specialize", "-q", "--strict", annotated, "-o", out]
        if values:
            args[2:2] = ["--spec", ",".join("%d=%d" % kv for kv in sorted(values.items()))]
        p = run(args, check=False)
        if p.returncode != 0:
            failures.append("%s: specialize failed: %s" % (label, p.stderr[:500]))
            continue
        ok, text = oracle.judge(out, "specialized")
        if not ok:
            failures.append("%s: spirv-val: %s" % (label, text[:500]))
        if label == "spvcond.aspect.fp64=false" or (label == "all-true" and "spvcond.aspect.fp64" not in leaves):
            if label == "all-true":
                continue
            lines = disassemble(out)
            kept = set(re.findall(r"^(%\d+) = OpFunction ", "\n".join(lines), re.M))
            want = expected_without_fp64(functions, calls, roots, uses)
            if kept != want:
                failures.append("fp64=false: kept %d functions, expected %d (extra %s, missing %s)"
                                % (len(kept), len(want), sorted(kept - want)[:5], sorted(want - kept)[:5]))
            if not any(uses[f] for f in want):
                text = "\n".join(lines)
                if "OpCapability Float64" in text or "OpTypeFloat 64" in text:
                    failures.append("fp64=false: Float64 or a 64-bit float type remains")
    return failures, len(assignments), len(leaves)


def main():
    corpus = sorted(glob.glob(os.path.join(os.environ["SPVCOND_CORPUS"], "*.spv")))
    modules = corpus + sorted(glob.glob("/usr/lib/clc/*.spv"))
    if len(corpus) < 60:
        print("corpus missing: %d modules in %s" % (len(corpus), os.environ["SPVCOND_CORPUS"]))
        return 1
    passed = failed = 0
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        for path in modules:
            try:
                failures, n, leaves = check(path, tmp)
            except RuntimeError as e:
                failures, n, leaves = [str(e)], 0, 0
            if failures:
                failed += 1
                print("FAIL %s" % os.path.basename(path))
                for f in failures:
                    print("  " + f)
            else:
                passed += 1
                print("ok   %s (%d requirements, %d assignments, %d devices)" % (os.path.basename(path), leaves, n,
                                                                          len(DEVICES or [])))
    if not verdicts.close_runners():
        failed += 1
    print(oracle.report())
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
