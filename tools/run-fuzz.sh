#!/bin/sh
# Build the libFuzzer targets with clang-15 (ASan+UBSan) and run each for SECONDS (default 60).
# Seeds come from the test fixtures and the shared corpus; crashes land in fuzz-findings/.
# Usage: sh tools/run-fuzz.sh [SECONDS] [TARGET...]
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"fuzz_roundtrip fuzz_annotate fuzz_specialize fuzz_validate fuzz_text"}
[ -d build-fuzz ] || CC=clang-15 meson setup build-fuzz -Dfuzz=enabled -Db_sanitize=address,undefined \
    -Db_lundef=false -Dtests=disabled -Dopencl=disabled >/dev/null
ninja -C build-fuzz >/dev/null
python3 fuzz/make_seeds.py build-fuzz/seeds
mkdir -p fuzz-findings
for t in $targets; do
    mkdir -p build-fuzz/corpus/$t
    echo "== $t for ${seconds}s"
    ASAN_OPTIONS=detect_leaks=1 ./build-fuzz/fuzz/$t -max_total_time="$seconds" -rss_limit_mb=2048 \
        -dict=fuzz/spirv.dict -artifact_prefix=fuzz-findings/$t- -print_final_stats=1 \
        build-fuzz/corpus/$t build-fuzz/seeds/$t 2>&1 | grep -E "stat::number_of_executed_units|stat::peak_rss|cov:|ERROR|SUMMARY" | tail -4
done
