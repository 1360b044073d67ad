#!/bin/sh
# SPDX-License-Identifier: MIT
# The two designs side by side (docs/performance.md, spec/split.md): split + filter against annotate +
# specialize, whole processes of the release build, for libclc, hashcat, darktable and the corpus.
# Usage: sh tools/compare-split.sh [DEVICE]   (default intel_gpu_acm_g10)
set -eu
cd "$(dirname "$0")/.."
device=${1:-intel_gpu_acm_g10}
[ -d build-release ] || meson setup build-release --buildtype=release >/dev/null
ninja -C build-release cli/spvcond >/dev/null
S=build-release/cli/spvcond
corpus=$(python3 tools/make-corpus.py --print-dir)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }
measure() {
    name=$1; shift
    images=0; ibytes=0; abytes=0; tsplit=0; tann=0
    for f in "$@"; do
        rm -rf "$tmp/d"
        t0=$(now); $S split -q "$f" -o "$tmp/d"
        $S filter -q "$tmp/d/split.table" --device "$device" -o "$tmp/d/f.table"; t1=$(now)
        $S annotate -q "$f" -o "$tmp/a.spv"
        $S specialize -q --device "$device" "$tmp/a.spv" -o "$tmp/s.spv"; t2=$(now)
        images=$((images + $(wc -l < "$tmp/d/split.table") - 1))
        ibytes=$((ibytes + $(cat "$tmp"/d/image_*.spv 2>/dev/null | wc -c)))
        abytes=$((abytes + $(wc -c < "$tmp/a.spv")))
        tsplit=$((tsplit + (t1 - t0) / 1000)); tann=$((tann + (t2 - t1) / 1000))
    done
    echo "| $name | $images | $ibytes | $abytes | $((tsplit / 1000)) ms | $((tann / 1000)) ms |"
}
echo "| input | images | bytes of the images | bytes of the annotated module | split + filter | annotate + specialize |"
echo "|---|---|---|---|---|---|"
measure "libclc spirv64" /usr/lib/clc/spirv64-mesa3d-.spv
measure "libclc spirv" /usr/lib/clc/spirv-mesa3d-.spv
measure "hashcat" "$corpus"/hashcat__*.spv
measure "darktable" "$corpus"/darktable__*.spv
measure "corpus" "$corpus"/*.spv
