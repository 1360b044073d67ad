#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README's benchmark table from bench-results/results.csv (tools/run-bench.sh writes it):
one row per input, MB/s per stage with the ratio against the reference command in brackets, and
peak RSS per byte of input over the six stages, whole and beyond the constant (negative: 0)."""
import csv
import sys

LABELS = {
    "spirv64-mesa3d-.spv": "libclc spirv64-mesa3d",
    "spirv-mesa3d-.spv": "libclc spirv-mesa3d",
    "hashcat__m13711-pure.spv": "hashcat m13711 (`-O0`)",
    "hashcat__m06211-pure.spv": "hashcat m06211 (`-O0`)",
    "synth-1M.spv": "synthetic 1 MB",
    "synth-10M.spv": "synthetic 10 MB",
    "synth-100M.spv": "synthetic 100 MB",
    "synth-1G.spv": "synthetic 1 GB, constant tables",
    "synth-1G-stores.spv": "synthetic 1 GB, stores",
    "synth-1M-stores.spv": "synthetic 1 MB, the 1 GB module's mix",
    "synth-10M-stores.spv": "synthetic 10 MB, the same mix",
    "synth-100M-stores.spv": "synthetic 100 MB, the same mix",
}


def cell(row, decimals):
    text = f"{float(row['mb_per_s']):.0f}"
    if row["ratio"]:
        text += f" ({float(row['ratio'].rstrip('x')):.{decimals}f}×)"
    return text


def main(path):
    rows = {}
    order = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if "fanout" in row["module"]:
                continue
            if row["module"] not in rows:
                rows[row["module"]] = {}
                order.append(row["module"])
            rows[row["module"]][row["stage"]] = row
    print("| input | MB | read+index MB/s (×) | read+emit MB/s (×) | annotate MB/s (×) "
          "| specialize acm_g10 / pvc MB/s (×) | validate MB/s (× spirv-val) | peak RSS / input "
          "| (peak RSS − constant) / input |")
    print("|---|---|---|---|---|---|---|---|---|")
    for module in order:
        s = rows[module]
        size = int(s["parse"]["bytes"])
        whole = [int(r["peak_rss_kb"]) * 1024 / size for r in s.values()]
        beyond = [max(0.0, float(r["rss_beyond_constant_per_input"])) for r in s.values()]
        print(f"| {LABELS.get(module, module)} | {size / 1e6:.2f} | {cell(s['parse'], 0)} | {cell(s['emit'], 0)} "
              f"| {cell(s['annotate'], 1)} | {cell(s['specialize-acm_g10'], 1)} / {cell(s['specialize-pvc'], 1)} "
              f"| {cell(s['validate'], 0)} | {min(whole):.1f}–{max(whole):.1f} "
              f"| {min(beyond):.2f}–{max(beyond):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench-results/results.csv")
