#!/bin/sh
# SPDX-License-Identifier: MIT
# Build with AddressSanitizer and UndefinedBehaviorSanitizer and run every test suite; without
# arguments, then valgrind memcheck over the CLI on the real modules (tools/run-memcheck.sh), the
# corpus end to end with a release build (the default allocator, which the other builds replace), the
# install test on that build (tools/check-install.sh), the build with profile feedback against it, and
# the ABI check (tools/check-abi.sh).
set -eu
cd "$(dirname "$0")/.."
# Each step's time on standard output, for the log (docs/testing.md has the figures).
t0=$(date +%s)
took() { t1=$(date +%s); echo "run-tests: $1 took $((t1 - t0)) s"; t0=$t1; }
sh tools/setup-debian.sh
# setup-debian.sh installed the OpenCL headers and the SPIR-V/LLVM translator: the layer and its pocl route
# are required here, so that a build that lost either fails instead of skipping their tests.
[ -d build-test ] || meson setup build-test -Db_sanitize=address,undefined -Db_lundef=false -Dtests=enabled \
    -Dopencl_layer=enabled -Dtranslator=enabled -Dvulkan_layer=enabled >/dev/null
ninja -C build-test
took "the sanitized build"
if [ $# -eq 0 ]; then
    # The release build, used below (the corpus end to end, the install test), is made before the suites: the
    # conformance suite runs half of its CTS runs through its layer (tests/conformance.py says which).
    [ -d build-release ] || meson setup build-release --buildtype=release -Dtests=disabled -Dopencl_layer=enabled \
        -Dtranslator=enabled >/dev/null
    ninja -C build-release >/dev/null
    took "the release build"
    export SPVCOND_RELEASE_LAYER="$PWD/build-release/layer/libspvcond-opencl-layer.so"
fi
meson test -C build-test --print-errorlogs "$@"
took "the test suites"
# Criterion's per-suite closing lines, for the log.
grep -h "Synthesis" build-test/meson-logs/testlog.txt || true
if [ $# -eq 0 ]; then
    sh tools/run-memcheck.sh
    took "valgrind memcheck"
    # The sanitizer and valgrind builds allocate with malloc; the CLI as shipped uses the huge-page
    # heap (src/support/heap.c): run the corpus end to end with a release build of it too.
    log=$(mktemp)
    # Today's validator where ../shared/tools has one (or $SPIRV_VAL names one), as the test build does.
    val="${SPIRV_VAL:-$PWD/../shared/tools/spirv-tools-2026/bin/spirv-val}"
    [ -x "$val" ] || val="$(command -v spirv-val)"
    if ! SPVCOND_CLI="$PWD/build-release/cli/spvcond" SPIRV_DIS="$(command -v spirv-dis)" \
        SPIRV_VAL="$val" SPVCOND_CORPUS="$(python3 tools/make-corpus.py --print-dir)" SPVCOND_TEST_SRC="$PWD/tests" \
        python3 tests/e2e_corpus.py > "$log" 2>&1; then
        cat "$log"; rm -f "$log"; exit 1
    fi
    echo "release build (default allocator): e2e-corpus $(tail -n 1 "$log")"
    rm -f "$log"
    # The install as a user gets it: examples built against the installed pkg-config file, shared and static.
    took "the corpus end to end with the release build"
    sh tools/check-install.sh build-release
    took "the install test"
    # The build with profile feedback (tools/build-pgo.sh) writes what the release build writes, byte for
    # byte, for every input and command.
    # The CLI's outputs are compared: the layer, the JIT example and the benchmark's in-process reference
    # (C++, most of a build's time) are built by the release build above, not here.
    sh tools/build-pgo.sh build-pgo -Dopencl_layer=disabled -Dtranslator=disabled -Dopencl=disabled -Dreference=disabled -Dvulkan_layer=disabled
    cmp_work=$(mktemp -d)
    sh tools/compare-outputs.sh build-release/cli/spvcond build-pgo/cli/spvcond "$cmp_work"
    rm -rf "$cmp_work"
    took "the build with profile feedback and its outputs compared"
    # libyaml is optional: the library and the CLI build without it.
    [ -d build-noyaml ] || meson setup build-noyaml -Dyaml=disabled -Dtests=disabled -Dopencl_layer=disabled \
        -Dtranslator=disabled -Dopencl=disabled -Dreference=disabled -Dvulkan_layer=disabled >/dev/null
    ninja -C build-noyaml >/dev/null && echo "built without libyaml: $(build-noyaml/cli/spvcond --version)"
    # The ABI against abi/libspvcond.abi (docs/releasing.md).
    sh tools/check-abi.sh
    took "the build without libyaml and the ABI check"
fi
