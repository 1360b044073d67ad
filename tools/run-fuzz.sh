#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the libFuzzer targets with clang-15 (ASan+UBSan) and run each for SECONDS (default 60).
# Seeds come from the test fixtures and the corpus (tools/make-corpus.py); crashes land in fuzz-findings/ and make the
# script fail. Usage: sh tools/run-fuzz.sh [SECONDS] [TARGET...]
# FUZZ_RUNS=N runs N inputs per target from a fixed random seed instead: repeatable, as CI wants.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"fuzz_roundtrip fuzz_annotate fuzz_specialize fuzz_validate fuzz_text fuzz_builtin_names fuzz_driver_checks fuzz_cache_entry"}
[ -d build-fuzz ] || CC=clang-15 meson setup build-fuzz -Dfuzz=enabled -Db_sanitize=address,undefined \
    -Db_lundef=false -Dtests=disabled -Dopencl=disabled -Dreference=disabled >/dev/null
ninja -C build-fuzz >/dev/null
python3 fuzz/make_seeds.py build-fuzz/seeds "$(python3 tools/make-corpus.py --print-dir)"
mkdir -p fuzz-findings
failed=0
for t in $targets; do
    mkdir -p build-fuzz/corpus/$t
    status=0
    if [ -n "${FUZZ_RUNS:-}" ]; then limit="-runs=$FUZZ_RUNS -seed=1"; else limit="-max_total_time=$seconds"; fi
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 ./build-fuzz/fuzz/$t $limit -rss_limit_mb=2048 \
        -dict=fuzz/spirv.dict -artifact_prefix=fuzz-findings/$t- -print_final_stats=1 \
        build-fuzz/corpus/$t build-fuzz/seeds/$t > build-fuzz/$t.log 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' build-fuzz/$t.log | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' build-fuzz/$t.log | tail -1)
    if [ "$status" -ne 0 ]; then
        echo "FAIL $t: exit $status after $runs runs"
        grep -E "property broken|ERROR|SUMMARY" build-fuzz/$t.log | head -5
        failed=$((failed + 1))
    else
        echo "ok   $t: $runs runs, $cov"
    fi
done
count=$(echo $targets | wc -w)
echo "$((count - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
