#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The benchmark's tables from bench-results/results.csv (tools/run-bench.sh, bench/bench.c writes it).

  bench_table.py [--summary | --throughput] [results.csv]

Default: the like-for-like tables, for the inputs compared with SPIRV-Tools: in process (both given the
words in memory) and as whole processes (both reading and writing files, against cp and cp + sync).
--summary: the README's table, one row per stage and input, in process and whole process side by side.
--throughput: MB/s per stage for every input, and peak RSS per byte of input over the stages, whole
and beyond the constant (negative: 0)."""
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


def read(path):
    rows, order = {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if "fanout" in row["module"]:
                continue
            if row["module"] not in rows:
                rows[row["module"]] = {}
                order.append(row["module"])
            rows[row["module"]][row["stage"]] = row
    return rows, order


def ms(row):
    return f"{float(row['median_ms']):.2f}"


def ratio(row):
    return f"{float(row['ratio'].rstrip('x')):.1f}×" if row["ratio"] else "–"


def like_for_like(rows, order):
    compared = [m for m in order if "spirv-tools-specialize" in rows[m]]
    processes = [m for m in order if "spvcond annotate" in rows[m]]
    print("In process, both given the module's words in memory (SPIRV-Tools' optimizer with spirv-opt's passes "
          "and no validation; its validator), ms:\n")
    print("| input | MB | annotate | specialize (acm_g10) | SPIRV-Tools specialization passes | annotate × "
          "| specialize × | validate | SPIRV-Tools validator | × |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for m in compared:
        s = rows[m]
        print(f"| {LABELS.get(m, m)} | {int(s['parse']['bytes']) / 1e6:.2f} | {ms(s['annotate'])} "
              f"| {ms(s['specialize-acm_g10'])} | {ms(s['spirv-tools-specialize'])} | {ratio(s['annotate'])} "
              f"| {ratio(s['specialize-acm_g10'])} | {ms(s['validate'])} | {ms(s['spirv-tools-validate'])} "
              f"| {ratio(s['validate'])} |")
    print("\nWhole processes, each reading its input file and writing its output file, ms (× : spirv-opt's "
          "time over ours; /floor: ours over `cp` + `sync`):\n")
    print("| input | `spvcond annotate` | `spvcond specialize` | `spirv-opt` (same passes) | annotate × "
          "| specialize × | `cp` | `cp` + `sync` | annotate / floor | specialize / floor "
          "| with `--sync`: annotate, specialize / floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for m in processes:
        s = rows[m]
        a, sp = s["spvcond annotate"], s["spvcond specialize"]
        print(f"| {LABELS.get(m, m)} | {ms(a)} | {ms(sp)} | {ms(s['spirv-opt specialization'])} | {ratio(a)} "
              f"| {ratio(sp)} | {ms(s['cp'])} | {ms(s['cp + sync'])} | {float(a['cp_sync_ratio']):.2f} "
              f"| {float(sp['cp_sync_ratio']):.2f} | {float(s['spvcond annotate --sync']['cp_sync_ratio']):.2f}, "
              f"{float(s['spvcond specialize --sync']['cp_sync_ratio']):.2f} |")


def summary(rows, order):
    print("| input | stage | in process: ours ms | SPIRV-Tools ms | × | whole process: `spvcond` ms | `spirv-opt` / "
          "`spirv-val` ms | × | ours / (`cp` + `sync`) |")
    print("|---|---|---|---|---|---|---|---|---|")
    pairs = [("annotate", "spvcond annotate"), ("specialize-acm_g10", "spvcond specialize"),
             ("validate", "spvcond validate")]
    for m in order:
        s = rows[m]
        if "spirv-tools-specialize" not in s or "spvcond annotate" not in s:
            continue
        for k, (stage, command) in enumerate(pairs):
            ours, cli = s[stage], s[command]
            floor = f"{float(cli['cp_sync_ratio']):.2f}" if command != "spvcond validate" else "–"
            name = LABELS.get(m, m) + f" ({int(ours['bytes']) / 1e6:.1f} MB)" if k == 0 else ""
            print(f"| {name} | {stage.split('-')[0]} | {ms(ours)} | {float(ours['reference_ms']):.0f} | {ratio(ours)} "
                  f"| {ms(cli)} | {float(cli['reference_ms']):.0f} | {ratio(cli)} | {floor} |")


def cell(row, decimals):
    text = f"{float(row['mb_per_s']):.0f}"
    if row["ratio"]:
        text += f" ({float(row['ratio'].rstrip('x')):.{decimals}f}×)"
    return text


def throughput(rows, order):
    print("| input | MB | read+index MB/s | read+emit MB/s (×) | annotate MB/s (×) "
          "| specialize acm_g10 / pvc MB/s (×) | validate MB/s (×) | peak RSS / input "
          "| (peak RSS − constant) / input |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m in order:
        s = {k: r for k, r in rows[m].items() if r["kind"] == "stage"}
        size = int(s["parse"]["bytes"])
        whole = [int(r["peak_rss_kb"]) * 1024 / size for r in s.values()]
        beyond = [max(0.0, float(r["rss_beyond_constant_per_input"])) for r in s.values()]
        print(f"| {LABELS.get(m, m)} | {size / 1e6:.2f} | {cell(s['parse'], 0)} | {cell(s['emit'], 0)} "
              f"| {cell(s['annotate'], 1)} | {cell(s['specialize-acm_g10'], 1)} / {cell(s['specialize-pvc'], 1)} "
              f"| {cell(s['validate'], 0)} | {min(whole):.1f}–{max(whole):.1f} "
              f"| {min(beyond):.2f}–{max(beyond):.2f} |")


def main(args):
    mode = {"--throughput": throughput, "--summary": summary}
    chosen = [mode[a] for a in args if a in mode]
    args = [a for a in args if a not in mode]
    rows, order = read(args[0] if args else "bench-results/results.csv")
    (chosen[0] if chosen else like_for_like)(rows, order)


if __name__ == "__main__":
    main(sys.argv[1:])
