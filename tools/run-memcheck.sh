#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind memcheck over the CLI: every real module (the corpus, libclc-15) through annotate,
# info, validate, check, reqs and specialize for two devices, and every hostile regression input
# (tests/data/fuzz) through annotate, validate, specialize and info, each input's command lines in one
# process (cli/batch.c). Any memcheck error or leak fails the run; the CLI's own exit status (refusing
# hostile input is expected) does not.
# valgrind cannot run ASan binaries, so this uses a build without sanitizers: build-memcheck, with the
# C library's allocator (valgrind watches malloc, not the huge-page mappings of src/support/heap.c).
# Usage: sh tools/run-memcheck.sh [JOBS]   (default: the number of cores)
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
[ -d build-memcheck ] || meson setup build-memcheck --buildtype=debugoptimized -Dtests=disabled -Ddefault_allocator=libc \
    -Dopencl=disabled -Dfuzz=disabled -Dreference=disabled >/dev/null
ninja -C build-memcheck >/dev/null
jobs=${1:-$(nproc)}
corpus=$(python3 tools/make-corpus.py --print-dir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures="$work/failures"
: > "$failures"

# Each input's command lines run in one process under memcheck: spvcond-batch (cli/batch.c: the tool's own
# objects but main, running one command line after another), as valgrind's start costs about a second a
# process. req FILE ARG... appends one command line to FILE (its output and messages to /dev/null: what
# counts is memcheck's verdict, not the tool's). A job whose process memcheck reports on (exit 97, a leak
# of any of its commands included) is recorded with its command lines; the tool itself (main.c) is run
# under memcheck too, on the demonstration module.
commands=0
req() {
    f=$1
    shift
    printf '%s\0' /dev/null /dev/null $(($# + 1)) spvcond "$@" >> "$f"
    commands=$((commands + 1))
}
{
    echo 'vg() {'
    echo "    valgrind --quiet --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \\"
    echo "        --log-file='$work/vg.%p' \"\$@\" >/dev/null 2>&1"
    echo '}'
    echo "vg '$PWD/build-memcheck/cli/spvcond-batch' < \"\$1\""
    echo "[ \$? -ne 97 ] || { echo \"spvcond-batch, the command lines of \$1:\"; xargs -0 echo < \"\$1\"; } >> '$failures'"
} > "$work/batch.sh"

# One job per input; what reads annotate's output follows it in the same job.
mkdir "$work/jobs"
n=0
for m in "$corpus"/*.spv /usr/lib/clc/*.spv; do
    [ -f "$m" ] || continue
    n=$((n + 1))
    a="$work/$n.ann.spv"
    r="$work/jobs/$n.req"
    req "$r" annotate "$m" -o "$a"
    req "$r" info "$m"
    req "$r" validate "$a"
    req "$r" check --device intel_gpu_acm_g10 "$a"
    req "$r" reqs --json "$a"
    req "$r" specialize --device intel_gpu_acm_g10 "$a" -o "$a.acm"
    req "$r" specialize --device intel_gpu_pvc "$a" -o "$a.pvc"
done
for f in tests/data/fuzz/fuzz_annotate/* tests/data/fuzz/fuzz_validate/* tests/data/fuzz/fuzz_specialize/*; do
    n=$((n + 1))
    r="$work/jobs/$n.req"
    req "$r" annotate "$PWD/$f" -o "$work/$n.out"
    req "$r" validate "$PWD/$f"
    req "$r" specialize --device intel_gpu_acm_g10 "$PWD/$f" -o "$work/$n.spec"
    req "$r" info "$PWD/$f"
done

started=$(date +%s)
ls "$work"/jobs/*.req | xargs -P "$jobs" -n 1 sh "$work/batch.sh"
demo="$work/demo.spv"
spirv-as --target-env spv1.2 examples/demo.spvasm -o "$demo"
for run in "annotate -q $demo -o $demo.a" "specialize -q --device intel_gpu_acm_g10 $demo.a -o $demo.s" "--version"; do
    valgrind --quiet --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        --log-file="$work/vg.tool.%p" build-memcheck/cli/spvcond $run >/dev/null 2>&1 ||
        [ $? -ne 97 ] || echo "spvcond $run" >> "$failures"
done
runs=$(ls "$work" | grep -c '^vg\.' || true)
if [ -s "$failures" ]; then
    cat "$failures"
    for f in "$work"/vg.*; do
        if [ -s "$f" ]; then echo "== $f"; head -40 "$f"; fi
    done
    echo "memcheck: $(wc -l < "$failures") failing run(s) of $runs"
    exit 1
fi
echo "memcheck: $commands command lines of spvcond over $n inputs in $runs processes, and the tool itself 3 times, no error and no leak ($(($(date +%s) - started)) s)"

# The OpenCL layer inside a plain OpenCL program (tests/layer/host.c) on both runtimes: the drivers leak
# by design, so what counts is an error or a leak of the layer's own (tools/layer_leaks.py: the first
# frame is the layer's code or the library's).
layer=$PWD/build-memcheck/layer/libspvcond-opencl-layer.so
if [ -f "$layer" ] && command -v clang-15 >/dev/null && command -v llvm-spirv-15 >/dev/null; then
    started=$(date +%s)
    cc -std=c11 tests/layer/host.c -lOpenCL -lpthread -o "$work/host"
    clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 tests/data/jit_demo.cl \
        -o "$work/demo.bc"
    llvm-spirv-15 --spirv-max-version=1.2 "$work/demo.bc" -o "$work/demo.spv"
    build-memcheck/cli/spvcond annotate -q "$work/demo.spv" -o "$work/demo.a.spv"
    # Three chains side by side (rusticl, pocl, NVIDIA's route on the mock driver), each run in turn within
    # its chain: a runtime's first run stores its cache entry, its second (compile + link) reads it back.
    # The layer's cache in a folder of its own.
    export SPVCOND_LAYER_CACHE_DIR="$work/cache"
    # NVIDIA's route, on the mock driver playing NVIDIA's (two devices, compute capability 9.0 and 5.2): the
    # translation, PTX, printf and half built-ins, each device's module.
    cc -std=c11 -shared -fPIC tests/layer/mock_icd.c -o "$work/libmock-icd.so"
    mkdir -p "$work/icd"
    echo "$work/libmock-icd.so" > "$work/icd/mock.icd"
    for module in tests/data/layer/printf.cl tests/data/layer/half.cl; do
        name=$(basename "$module" .cl)
        clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 "$module" \
            -o "$work/$name.bc"
        llvm-spirv-15 --spirv-max-version=1.2 "$work/$name.bc" -o "$work/$name.spv"
    done
    # layer_run LOG WHAT [NAME=VALUE...] COMMAND...: one run under memcheck (vg_layer LOG); a failure's report
    # lands in $work/layer.failed (the layer's own errors and leaks: tools/layer_leaks.py).
    layer_run() {
        log=$1 what=$2
        shift 2
        env "$@" >/dev/null 2>&1 || true
        python3 tools/layer_leaks.py "$log" libspvcond-opencl-layer /layer/ /src/ > "$log.ours" ||
            { cat "$log.ours"; echo "memcheck: the OpenCL layer $what: errors or leaks of its own"; } >> "$work/layer.failed"
        echo run >> "$work/layer.runs"
    }
    vg_layer() {
        echo valgrind --leak-check=full --fullpath-after= --num-callers=30 --log-file="$1"
    }
    for platform in rusticl pocl; do
        for how in "" --compile-link; do
            log="$work/layer.$platform$how.vg"
            layer_run "$log" "on $platform $how" RUSTICL_ENABLE=llvmpipe OPENCL_LAYERS="$layer" $(vg_layer "$log") \
                "$work/host" --platform $platform $how "$work/demo.a.spv" scale_float add_one
        done &
    done
    for run in "demo.a.spv scale_float scale_half" "printf.spv hello" "half.spv half_math"; do
        set -- $run
        log="$work/layer.nvidia.$1.vg"
        layer_run "$log" "NVIDIA's route ($1)" OCL_ICD_VENDORS="$work/icd" SPVCOND_MOCK_NVIDIA=1 OPENCL_LAYERS="$layer" \
            $(vg_layer "$log") "$work/host" --platform NVIDIA --all-devices --create-only "$work/$@"
    done &
    wait
    [ ! -s "$work/layer.failed" ] || { cat "$work/layer.failed"; exit 1; }
    layer_runs=$(wc -l < "$work/layer.runs")
    ls "$work"/cache/*.entry >/dev/null 2>&1 || { echo "memcheck: the layer stored nothing in its cache"; exit 1; }
    unset SPVCOND_LAYER_CACHE_DIR
    echo "memcheck: the OpenCL layer in a plain OpenCL program, $layer_runs runs (rusticl, pocl; build, compile + link, the second from the cache; NVIDIA's route on the mock driver), no error and no leak of its own ($(($(date +%s) - started)) s)"
else
    echo "memcheck: the OpenCL layer skipped (not built, or no clang-15 / llvm-spirv-15)"
fi
