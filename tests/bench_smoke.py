#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The benchmark measures what it says: one round over libclc (spirv64) gives every stage, the in-process
SPIRV-Tools references when the bench was built with them, every whole-process command, their ratios
and the floor ratio, and tools/bench_table.py makes its tables from the CSV; --floor times the floor of
reading beside our reader; --builds alternates two builds of the library.

  bench_smoke.py BENCH SPVCOND SOURCE_ROOT with-reference|without-reference"""
import csv
import os
import subprocess
import sys
import tempfile

from verdicts import check, summary

MODULE = "/usr/lib/clc/spirv64-mesa3d-.spv"
OURS = ["parse", "emit", "annotate", "specialize-acm_g10", "specialize-pvc", "validate"]
REFERENCES = ["spirv-tools-load-store", "spirv-tools-specialize", "spirv-tools-validate"]
COMMANDS = ["cp", "spvcond annotate", "spvcond specialize", "spvcond validate", "spirv-opt specialization",
            "spirv-val", "cp + sync", "spvcond annotate --sync", "spvcond specialize --sync"]
OURS_AS_COMMANDS = ["spvcond annotate", "spvcond specialize", "spvcond validate", "spvcond annotate --sync",
                    "spvcond specialize --sync"]


def main(bench, spvcond, root, reference):
    with_reference = reference == "with-reference"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.csv")
        p = subprocess.run([bench, "--runs", "1", "--inner", "1", "--csv", path, "--cli", spvcond, MODULE],
                           capture_output=True, text=True)
        check(p.returncode == 0, "bench: one round over libclc succeeds", p.stdout[-800:] + p.stderr[-800:])
        with open(path, newline="") as f:
            rows = {r["stage"]: r for r in csv.DictReader(f)}
        left = [n for n in os.listdir(tmp) if n != "results.csv"]
        check(not left, "bench leaves no work files beside its CSV", str(left))
        want = OURS + (REFERENCES if with_reference else []) + COMMANDS
        check(list(rows) == want, "every stage%s and command has a row" % (" and reference" if with_reference else ""),
              str(list(rows)))
        check(all(float(r["median_ms"]) > 0 for r in rows.values()), "every time is measured")
        compared = {"emit": "spirv-tools-load-store", "annotate": "spirv-tools-specialize",
                    "specialize-acm_g10": "spirv-tools-specialize", "validate": "spirv-tools-validate"}
        for stage, ref in compared.items():
            r = rows.get(stage, {})
            if with_reference:
                check(r.get("reference") == ref and r.get("ratio", "").endswith("x"),
                      "%s: compared in process with %s" % (stage, ref), str(r))
            else:
                check(r.get("ratio") == "", "%s: no in-process ratio without the reference" % stage, str(r))
        for command in OURS_AS_COMMANDS:
            r = rows.get(command, {})
            check(r.get("ratio", "").endswith("x") and float(r.get("cp_sync_ratio") or 0) > 0,
                  "%s: compared with %s and with cp + sync" % (command, r.get("reference")), str(r))
        table = subprocess.run([sys.executable, os.path.join(root, "tools", "bench_table.py"), path],
                               capture_output=True, text=True)
        parts = table.stdout.split("Whole processes")
        check(table.returncode == 0 and len(parts) == 2 and "| libclc spirv64-mesa3d |" in parts[1],
              "bench_table.py: the whole-process table", table.stdout[-600:] + table.stderr[-600:])
        check(("| libclc spirv64-mesa3d |" in parts[0]) == with_reference,
              "bench_table.py: the in-process table %s" % ("has libclc" if with_reference else "is empty"), parts[0])
    check_floor(bench, with_reference)
    check_builds(bench)
    return summary()


def check_floor(bench, with_reference):
    """--floor: the reading floor, our reader and annotate (and the reference) timed, in that order."""
    p = subprocess.run([bench, "--floor", "1", MODULE], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    check(p.returncode == 0 and lines and "126653 instructions" in lines[0],
          "bench --floor: one round over libclc, its instructions counted", p.stdout[-800:] + p.stderr[-800:])
    times = {}
    for line in lines[1:]:
        label, _, value = line.rpartition("  ")
        times[label.strip()] = float(value.split()[0])
    rows = ["walking the instructions (word counts only)", "+ ids checked, results and tables recorded",
            "our reader (spvcond_module_parse)", "annotate (read, annotate, emit)"]
    rows += ["SPIRV-Tools' specialization passes", "a ratio of 50 leaves"] if with_reference else []
    check(list(times) == rows and all(t > 0 for t in times.values()), "bench --floor: every row measured",
          p.stdout)
    refused = subprocess.run([bench, "--floor", "1", os.devnull], capture_output=True, text=True)
    check(refused.returncode == 2 and "--floor needs" in refused.stderr, "bench --floor: no module, refused",
          refused.stderr)
    with tempfile.NamedTemporaryFile(suffix=".spv") as bad:  # a header, then a word count of 0
        bad.write(bytes.fromhex("03022307 00000100 00000000 10000000 00000000 00000000".replace(" ", "")))
        bad.flush()
        refused = subprocess.run([bench, "--floor", "1", bad.name], capture_output=True, text=True)
    check(refused.returncode == 1 and "refused it" in refused.stderr, "bench --floor: a broken module, refused",
          refused.stderr)


def check_builds(bench):
    """--builds: the library this bench was built with, against itself, for each stage it takes."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(bench)))
    lib = os.path.join(build, "libspvcond.so")
    for stage in ("parse", "annotate", "specialize-acm_g10", "specialize-pvc"):
        p = subprocess.run([bench, "--builds", lib, lib, stage, "3", MODULE], capture_output=True, text=True)
        words = p.stdout.split()
        check(p.returncode == 0 and len(words) >= 9 and words[0] == stage + ":" and words[1:2] == ["A"] and
              float(words[2]) > 0 and float(words[5]) > 0 and words[7] == "B/A" and float(words[8]) > 0,
              "bench --builds: %s alternated between two builds" % stage, p.stdout[-400:] + p.stderr[-400:])
    p = subprocess.run([bench, "--builds", lib, lib, "annotate", "1", MODULE, "cold"], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.startswith("annotate: A ") and "caches emptied before each call" in p.stdout,
          "bench --builds cold: the caches emptied before each call", p.stdout[-400:] + p.stderr[-400:])
    refused = subprocess.run([bench, "--builds", lib, lib, "annotate", "1", MODULE, "warm"], capture_output=True,
                             text=True)
    check(refused.returncode == 2 and "usage:" in refused.stderr, "bench --builds: an unknown last word, refused",
          refused.stderr[-400:])
    refused = subprocess.run([bench, "--builds", lib, lib, "validate", "1", MODULE], capture_output=True, text=True)
    check(refused.returncode == 2 and "--builds takes" in refused.stderr, "bench --builds: a stage it does not "
          "take, refused", refused.stderr)
    refused = subprocess.run([bench, "--builds", lib, MODULE, "parse", "1", MODULE], capture_output=True, text=True)
    check(refused.returncode == 2 and "bench: " in refused.stderr, "bench --builds: a file that is no library, "
          "refused", refused.stderr)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
