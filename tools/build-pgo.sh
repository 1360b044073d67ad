#!/bin/sh
# SPDX-License-Identifier: MIT
# A release build optimised with GCC's profile feedback (meson's b_pgo): built once to record
# where the library's time goes, trained on synthetic modules, then built again with that profile.
# The training inputs are spvcond-synth's (bench/synth.c), written at build time: no module the
# benchmark times (libclc, the corpus) takes part, and nothing is downloaded. What the training does
# not run (the OpenCL layer, error paths) is compiled as without a profile (-fprofile-partial-training),
# not for size. Outputs are the plain build's, byte for byte (docs/performance.md, "Profile feedback",
# has the check and the figures).
# Usage: sh tools/build-pgo.sh [BUILDDIR [MESON OPTIONS...]]   (BUILDDIR: build-pgo, replaced whole; the
# options go to meson setup, but c_args and cpp_args, which the second build sets)
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build-pgo}
[ $# -gt 0 ] && shift
if ! "${CC:-cc}" --version 2>/dev/null | grep -q 'Free Software Foundation'; then
    echo "build-pgo.sh: needs GCC as the C compiler (its profile format and -fprofile-partial-training)" >&2
    exit 2
fi
if [ -e "$dir" ] && [ ! -d "$dir/meson-private" ]; then
    echo "build-pgo.sh: $dir exists and is no meson build folder; not replacing it" >&2
    exit 2
fi
rm -rf "$dir"
meson setup "$dir" --buildtype=release -Db_pgo=generate -Dtests=disabled "$@" >/dev/null
ninja -C "$dir" >/dev/null
train=$(mktemp -d)
trap 'rm -rf "$train"' EXIT
S=$dir/cli/spvcond
synth=$dir/bench/spvcond-synth
# Shapes: the default (kernels over helpers in layers, fp64/fp16/atomics/images in some); a library
# (every helper exported, no kernel); a deep, narrow call graph; a wide one; a module with constant
# tables; one whose code is mostly stores.
i=0
for shape in "--size 3M" "--size 3M --library" "--size 1M --depth 8 --fanout 1" "--size 1M --fanout 16" \
    "--size 2M --max-ids 40000" "--size 2M --filler stores --max-ids 60000"; do
    i=$((i + 1))
    # shellcheck disable=SC2086 # the shape is several options
    $synth $shape --seed $i -o "$train/m$i.spv" >/dev/null 2>&1
done
# The modules side by side (GCC's run-time merges each process's counters into the profile under a lock).
for f in "$train"/m*.spv; do
  (
    a=${f%.spv}.annotated.spv
    for _ in 1 2 3; do
        $S annotate -q "$f" -o "$a"
        $S validate "$a" >/dev/null
        for device in intel_gpu_acm_g10 intel_gpu_pvc nvidia_gpu_sm_90; do
            $S specialize -q --device $device "$a" -o "${f%.spv}.out.spv"
        done
        $S info "$a" >/dev/null
        $S check --device intel_gpu_acm_g10 "$a" >/dev/null
        $S reqs "$a" >/dev/null
    done
    $S split -q --force "$f" -o "${f%.spv}.split"
  ) &
done
wait
meson configure "$dir" -Db_pgo=use -Dc_args=-fprofile-partial-training -Dcpp_args=-fprofile-partial-training >/dev/null
ninja -C "$dir" >/dev/null
echo "built $dir with profile feedback (trained on $(ls "$train"/m?.spv | wc -l) synthetic modules)"
