#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What validate certifies, checked against what specialize does (spec/validate.md): for every fixture
that uses SPV_INTEL_function_variants, the spirv-link multi-target modules (repaired) when
../shared/interop is at hand, and every device the module's constants tell apart (each target they name
and one other, each subset of their features and capabilities, each architecture family at and around
its thresholds and one other, every value of the SpecId booleans):

- a module validate accepts specializes for every such device, except where validate warned that the
  device gets no variant of a conditional copy (and then specialize refuses it for that reason alone);
  every output passes today's validator (tests/oracle.py);
- a module validate rejects for what no device may get (two entry points of one name, a copy with two
  true conditions, a dangling use) has a device that specialize refuses.
Usage: validate_property.py BUILD_TESTS_DIR (the built fixtures)."""
import itertools
import json
import os
import re
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
INTEROP = os.environ.get("SPVCOND_INTEROP", os.path.join(SRC, "..", "..", "shared", "interop", "spirv-link"))
FIXTURES = ["conditional_capability", "duplicate_entry_points", "eval_conditions", "fnvar_defect_b",
            "fnvar_defect_c", "fnvar_device", "fnvar_link", "fnvar_registry", "guard_device_constants", "tree_users",
            "trim", "trim_storage_class", "three_ops", "dot_two_widths"]  # or_cases' 17 SpecIds are the random suite's kind of module
OTHER_TARGET, OTHER_FAMILY = 4000, 4000
MAX_DEVICES = 4096


def subsets(items):
    return [list(c) for n in range(len(items) + 1) for c in itertools.combinations(items, n)]


def devices(module):
    """The device options that tell the module's constants apart, as spvcond specialize arguments."""
    info = json.loads(run([CLI, "info", "--json", module], check=True).stdout)
    targets, features, caps, spec_ids, arch = set(), set(), set(), [], {}
    for c in info["spec_constants"]:
        words = c["default"].split()
        if c["opcode"] == "OpSpecConstantTargetINTEL":
            targets.add(int(words[1]))
            features.update(int(x) for x in words[2:])
        elif c["opcode"] == "OpSpecConstantCapabilitiesINTEL":
            caps.update(int(x) for x in words[1:])
        elif c["opcode"] == "OpSpecConstantArchitectureINTEL":
            cat, fam, a = int(words[1]), int(words[2]), int(words[4])
            arch.setdefault((cat, fam), set()).update(v for v in (a - 1, a, a + 1) if v >= 0)
        elif c["spec_id"] is not None and c["opcode"] in ("OpSpecConstantTrue", "OpSpecConstantFalse"):
            spec_ids.append(c["spec_id"])
    target_options = [["--target", str(t)] for t in sorted(targets)] + ([["--target", str(OTHER_TARGET)]] if targets
                                                                        else [[]])
    # A device states all its features (possibly none): a fact not given is refused (spec/devices.md).
    feature_options = [["--features", ",".join(map(str, f))] for f in subsets(sorted(features))] if features \
        else [[]]
    # A device states its capabilities; one the module does not test stands for "none of them".
    cap_options = [["--capabilities", ",".join(map(str, c or [5]))] for c in subsets(sorted(caps))] if caps else [[]]
    arch_options = [["--category", str(cat), "--family", str(fam), "--arch", str(a)]
                    for (cat, fam), values in sorted(arch.items()) for a in sorted(values)]
    arch_options = arch_options + [["--category", str(OTHER_FAMILY), "--family", "1", "--arch", "0"]] if arch else [[]]
    spec_options = [["--spec", ",".join("%d=%d" % (s, v) for s, v in zip(spec_ids, bits))] if spec_ids else []
                    for bits in itertools.product((0, 1), repeat=len(spec_ids))]
    out = []
    for t, f, c, a, s in itertools.product(target_options, feature_options, cap_options, arch_options, spec_options):
        if f and not t:
            continue
        out.append(t + f + c + a + s)
    return out


def one_module(name, module, tmp, totals):
    v = run([CLI, "validate", module])
    valid = v.returncode == 0
    gaps = "gets no variant of" in v.stderr
    options = devices(module)
    if not check(len(options) <= MAX_DEVICES, "%s: %d devices to try" % (name, len(options))):
        return
    refused = 0
    out = os.path.join(tmp, "out.spv")
    for opts in options:
        p = run([CLI, "specialize", "-q", *opts, module, "-o", out])
        if p.returncode != 0:
            refused += 1
            if valid:
                check(gaps and "0 true conditions" in p.stderr,
                      "%s validates, so specialize succeeds for %s (or it is a device validate warned of)"
                      % (name, " ".join(opts)), p.stderr.strip())
            continue
        ok, text = oracle.judge(out, "specialized")
        check(ok, "%s for %s: spirv-val" % (name, " ".join(opts)), text)
    if not valid and re.search(r"keeps this entry point|true conditions of OpConditionalCopyObjectINTEL|"
                               r"some specialization would remove", v.stderr):
        check(refused > 0, "%s: validate rejects it, and some device is refused" % name, v.stderr.strip())
    totals.append((name, "valid" if valid else "rejected", len(options), refused))


LINK = os.environ.get("SPIRV_LINK") or os.path.join(oracle.SHARED_TOOLS, "spirv-tools-2026", "bin", "spirv-link")
LINK_DATA = os.path.join(SRC, "data", "link")
# Multi-target modules made here with spirv-link --fnvar-* (the linker's own test shape: a base and a
# variant of the same kernel and helper, conditions from CSV files, --fnvar-capabilities): each module's
# files, and the CSV files by option.
LINKED = {
    "linked: targets apart": (["scale", "scale_double"], {"--fnvar-targets": "disjoint.csv"}),
    "linked: a feature's variant": (["scale", "scale_fma"], {"--fnvar-targets": "overlapping.csv"}),
    "linked: target and architecture": (["scale", "scale_double"], {"--fnvar-targets": "mixed_targets.csv",
                                                                     "--fnvar-architectures": "mixed_architectures.csv"}),
}


def linked_modules(tmp, totals):
    """OpenCL C compiled as a user would (clang-15, llvm-spirv-15), linked into multi-target modules by
    today's spirv-link, repaired, then held to the property like the fixtures."""
    if not os.access(LINK, os.X_OK):
        print("skipped: modules linked at test time (no spirv-link with --fnvar-* at %s)" % LINK)
        return
    for name in ("scale", "scale_fma", "scale_double"):
        bc = os.path.join(tmp, name + ".bc")
        run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
             "-emit-llvm", "-O0", os.path.join(LINK_DATA, name + ".cl"), "-o", bc], check=True)
        run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", os.path.join(tmp, name + ".spv")], check=True)
    for label, (files, csvs) in LINKED.items():
        options = []
        for option, csv in csvs.items():
            with open(os.path.join(LINK_DATA, csv)) as f, open(os.path.join(tmp, csv), "w") as g:
                g.write(f.read())
            options += [option, csv]
        multi, rep = os.path.join(tmp, "linked.spv"), os.path.join(tmp, "linked.rep.spv")
        p = run([LINK, *options, "--fnvar-capabilities", *[f + ".spv" for f in files], "-o", multi], cwd=tmp)
        if not check(p.returncode == 0, "%s: spirv-link" % label, p.stderr.strip()):
            continue
        p = run([CLI, "repair", "-q", multi, "-o", rep])
        if check(p.returncode == 0, "%s: repair" % label, p.stderr.strip()):
            one_module(label + " (repaired)", rep, tmp, totals)


def main():
    data = sys.argv[1]
    print(oracle.describe())
    totals = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in FIXTURES:
            one_module(name, os.path.join(data, name + ".spv"), tmp, totals)
        if os.path.exists(os.path.join(INTEROP, "dot4-multi.spv")):
            for name in ("targets-multi", "dot4-multi"):
                rep = os.path.join(tmp, name + ".rep.spv")
                if check(run([CLI, "repair", "-q", os.path.join(INTEROP, name + ".spv"), "-o", rep]).returncode == 0,
                         "%s: repair" % name):
                    one_module(name + " (repaired)", rep, tmp, totals)
        else:
            print("skipped: spirv-link's modules (no %s)" % INTEROP)
        linked_modules(tmp, totals)
    for name, verdict, n, refused in totals:
        print("%-44s validate: %-8s %4d devices, %4d refused by specialize" % (name, verdict, n, refused))
    print(oracle.report())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
