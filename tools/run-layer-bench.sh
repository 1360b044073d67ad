#!/bin/sh
# SPDX-License-Identifier: MIT
# What the OpenCL layer costs per route (docs/performance.md, "The layer's cost"): bench/layer-cost on
# rusticl (its program binary) and pocl (LLVM bitcode), for the demonstration module and the three largest
# modules of the corpus, each plain and annotated: the driver alone against the layer cold and warm,
# alternated round by round. The drivers' own caches are off, so that each build does the same work.
# Usage: sh tools/run-layer-bench.sh [BUILD]   (BUILD: a build with the layer, its translator and validator,
# without sanitizers; default build-release, made when missing). LAYER_BENCH_ROUNDS (default 9) rounds,
# LAYER_BENCH_PLATFORMS (default "rusticl Portable", names or parts of names of platforms). Prints the tables.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-release}
if [ ! -f "$build/bench/layer-cost" ]; then
    [ -d "$build" ] || meson setup "$build" --buildtype=release -Dtests=disabled >/dev/null
    meson configure "$build" -Dopencl_layer=enabled -Dtranslator=enabled -Dvalidator=enabled >/dev/null
    ninja -C "$build" >/dev/null
fi
layer=$(ls "$build"/layer/libspvcond-opencl-layer.so)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 tests/data/jit_demo.cl \
    -o "$tmp/demo.bc"
llvm-spirv-15 --spirv-max-version=1.2 "$tmp/demo.bc" -o "$tmp/demo.spv"
corpus=$(python3 tools/make-corpus.py --print-dir)
modules="$tmp/demo.spv"
for f in $(ls -S "$corpus"/*.spv | head -3); do
    cp "$f" "$tmp/"
    modules="$modules $tmp/$(basename "$f")"
done
all=""
for m in $modules; do
    "$build/cli/spvcond" annotate -q "$m" -o "${m%.spv}.annotated.spv"
    all="$all $m ${m%.spv}.annotated.spv"
done
for platform in ${LAYER_BENCH_PLATFORMS:-rusticl Portable}; do
    echo "## $platform"
    echo
    OPENCL_LAYERS=$layer RUSTICL_ENABLE=llvmpipe POCL_KERNEL_CACHE=0 MESA_SHADER_CACHE_DISABLE=true \
        CUDA_CACHE_DISABLE=1 "$build/bench/layer-cost" --platform "$platform" --rounds "${LAYER_BENCH_ROUNDS:-9}" $all
    echo
done
