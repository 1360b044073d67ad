#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark (README, Benchmark): a release build, then every stage on
#   - synthetic modules of 1 MB, 10 MB, 100 MB and 1 GB (BENCH_SIZES to change; bench/synth.c); past
#     ~100 MB the id limit leaves room for code only with filler: the 1 GB module comes twice, filled
#     with constant tables (synth-1G.spv) and with id-free stores in the code (synth-1G-stores.spv);
#     and each size again with the 1 GB module's mix (synth-*-stores.spv: ids in proportion to size,
#     stores for the rest), so that one series reaches 1 GB with the same content per MB throughout,
#   - synthetic 10 MB modules whose call fan-out is 1, 4 and 16 (the call-edge series),
#   - both libclc-15 libraries and the two largest Debian-kernel modules of the corpus (tools/make-corpus.py),
# with SPIRV-Tools timed on the same inputs in the same run, in process and as commands, and our CLI
# against cp (modules up to 30 MB; not for the fan-out series, whose point is our scaling in call
# edges); and the stores series again with the caches emptied before each call (bench --cold).
# Then the library's stages interleaved with SPIRV-Tools' in one process, on a clean heap and on one left
# in holes (bench --interleaved), and the floor of reading beside our reader (bench --floor). Writes
# bench-results/{results.csv,results-cold.csv,table.md,scaling.png,interleaved.txt,floor.txt} and prints
# the table, the scaling ratios, the interleaved times and the floor; then the tool's start-up against
# /bin/true (bench/startup.c: startup.txt).
# BENCH_RUNS (default 5) interleaved rounds per module (bench/bench.c); BENCH_PGO=1 times the build with
# profile feedback (tools/build-pgo.sh) instead of the release build.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
command -v gnuplot >/dev/null || { [ "$(id -u)" -eq 0 ] && apt-get install -y -qq gnuplot-nox >/dev/null || sudo apt-get install -y -qq gnuplot-nox >/dev/null; }
if [ "${BENCH_PGO:-0}" = 1 ]; then
    build=build-pgo   # made again each time: a profile build is not brought up to date by ninja alone
    sh tools/build-pgo.sh build-pgo -Dreference=enabled
else
    build=build-release
    [ -d build-release ] || meson setup build-release --buildtype=release -Dtests=disabled >/dev/null
    meson configure build-release -Dreference=enabled >/dev/null   # SPIRV-Tools in process (bench/reference.cpp)
    ninja -C build-release >/dev/null
fi
out=bench-results
mkdir -p "$out"
runs=${BENCH_RUNS:-5}
sizes=${BENCH_SIZES:-"1M 10M 100M 1G"}
synth=./$build/bench/spvcond-synth
series=""
stores_series=""
for s in $sizes; do
    f=$out/synth-$s.spv
    [ -f "$f" ] || $synth --size "$s" -o "$f"
    series="$series $f"
    # The 1 GB module's id budget (3.9 M, bench/synth.c) in proportion to this size.
    f=$out/synth-$s-stores.spv
    [ -f "$f" ] || $synth --size "$s" --filler stores --max-ids "$(awk -v s="$s" 'BEGIN { m = s + 0;
        if (s ~ /k$/) m /= 1e3; if (s ~ /G$/) m *= 1e3; printf "%d", 3900 * m }')" -o "$f"
    series="$series $f"
    stores_series="$stores_series $f"
done
edges=""
for fan in 1 4 16; do
    f=$out/synth-10M-fanout$fan.spv
    [ -f "$f" ] || $synth --size 10M --fanout $fan -o "$f"
    edges="$edges $f"
done
corpus=$(python3 tools/make-corpus.py --print-dir)
real="/usr/lib/clc/spirv-mesa3d-.spv /usr/lib/clc/spirv64-mesa3d-.spv $corpus/hashcat__m13711-pure.spv $corpus/hashcat__m06211-pure.spv"
bench=./$build/bench/bench
# One run for the size series and the real modules (rounds go over all of them, so every size meets the
# same phases of the machine), one for the fan-out series.
$bench --runs "$runs" --csv "$out/part1.csv" $real $series > "$out/table.md"
$bench --runs "$runs" --no-reference --csv "$out/part2.csv" $edges | tail -n +3 >> "$out/table.md"
cp "$out/part1.csv" "$out/results.csv"
tail -n +2 "$out/part2.csv" >> "$out/results.csv"
rm -f "$out/part1.csv" "$out/part2.csv"
# The stores series once more with the caches emptied before each call (--cold), so that every size is
# timed from memory, as the large ones always are (not in the table; results-cold.csv).
$bench --runs 3 --cold --no-reference --csv "$out/results-cold.csv" $stores_series > /dev/null
cat "$out/table.md"

# Scaling: milliseconds per MB over the size series and per call edge over the fan-out series. Series:
# stores, every size with the 1 GB module's mix (the same content per MB from 1 MB to 1 GB); code,
# code alone (as far as the id limit allows: to 100 MB); mixed, code then the 1 GB module of stores;
# tables, code then the 1 GB module of constant tables.
echo
stores='^synth-[0-9]+[kMG]-stores[.]spv$'
code='^synth-[0-9]+[kM][.]spv$'
mixed='^synth-[0-9]+[kM][.]spv$|^synth-1G-stores[.]spv$'
tables='^synth-[0-9]+[kMG][.]spv$'
# Each over the medians, then over each stage's fastest round: this machine's disturbances only ever
# slow a run down (specializing the 1 GB module took 1.0 to 4.7 s in three runs a minute apart).
for series in stores code mixed tables stores-fastest code-fastest mixed-fastest; do
    eval re=\$${series%-fastest}
    col=5
    [ "$series" = "${series%-fastest}" ] || col=14
    awk -F, -v re="$re" -v c="$col" -v name="size ($series)" 'NR > 1 && $15 == "stage" && $1 ~ re { r = $c / ($2 / 1e6); k = $4;
            if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r }
         END { for (k in lo) printf "%-14s %-20s ms/MB %.2f .. %.2f  (max/min %.2f)\n", name, k, lo[k], hi[k], hi[k] / lo[k] }' \
        "$out/results.csv" | sort
done
awk -F, 'NR > 1 && $15 == "stage" { r = $5 / ($2 / 1e6); k = $4; if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r }
         END { for (k in lo) printf "size (stores, cold) %-20s ms/MB %.2f .. %.2f  (max/min %.2f)\n", k, lo[k], hi[k], hi[k] / lo[k] }' \
    "$out/results-cold.csv" | sort
# The mixed series against its 1 MB module: each size's ms/MB over the 1 MB one's (max/min above also
# counts a large module that is cheaper per MB than the small one).
awk -F, -v re="$mixed" 'NR > 1 && $15 == "stage" && $1 ~ re { r = $5 / ($2 / 1e6); k = $4; n[k]++; m[k, n[k]] = r; if ($1 == "synth-1M.spv") one[k] = r }
     END { for (k in n) if (one[k] > 0) { lo = hi = 1; for (j = 1; j <= n[k]; j++) { x = m[k, j] / one[k]; if (x < lo) lo = x; if (x > hi) hi = x }
           printf "size (mixed) / 1 MB %-20s %.2f .. %.2f\n", k, lo, hi } }' "$out/results.csv" | sort
awk -F, 'NR > 1 && $15 == "stage" && $1 ~ /fanout/ { r = $5 / ($2 / 1e6); k = $4;
            if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r }
         END { for (k in lo) printf "fan-out 1..16 %-20s ms/MB %.2f .. %.2f  (max/min %.2f)\n", k, lo[k], hi[k], hi[k] / lo[k] }' \
    "$out/results.csv" | sort

# Memory: the worst peak RSS beyond the constant (the stage's RSS on a minimal module plus one 2 MB
# huge page) per byte of input, over all inputs.
awk -F, 'NR > 1 && $15 == "stage" { k = $4; if (!(k in hi) || $13 > hi[k]) { hi[k] = $13; at[k] = $1 } }
         END { for (k in hi) printf "memory %-20s (peak RSS - constant) / input at most %.2f (%s)\n", k, hi[k], at[k] }' \
    "$out/results.csv" | sort

# The plot: time per stage against module size, log-log: the stores series as lines (the same mix
# from 1 MB to 1 GB), the code series as points of the same colour, spirv-opt on what it could take.
for stage in parse emit annotate specialize-acm_g10 validate; do
    for series in stores code; do
        eval re=\$$series
        awk -F, -v s="$stage" -v re="$re" 'NR > 1 && $15 == "stage" && $4 == s && $1 ~ re { print $2 / 1e6, $5 }' \
            "$out/results.csv" | sort -g > "$out/$stage-$series.dat"
    done
done
awk -F, 'NR > 1 && $4 == "spirv-tools-specialize" { print $2 / 1e6, $5 }' "$out/results.csv" | sort -g > "$out/spirv-opt.dat"
gnuplot <<EOF
set terminal pngcairo size 900,600 noenhanced
set output "$out/scaling.png"
set title "libspvcond stages against module size ($(date +%Y-%m-%d), $(nproc) cores)"
set logscale xy
set xlabel "module size (MB). Lines: the 1 GB module's mix at every size; circles: code alone (to 100 MB)"
set ylabel "median time (ms)"
set key bottom right
set grid
plot "$out/parse-stores.dat" with linespoints lc 1 title "read + index", \
     "$out/emit-stores.dat" with linespoints lc 2 title "read + emit (no edits)", \
     "$out/annotate-stores.dat" with linespoints lc 3 title "annotate", \
     "$out/specialize-acm_g10-stores.dat" with linespoints lc 4 title "specialize", \
     "$out/validate-stores.dat" with linespoints lc 7 title "validate", \
     "$out/parse-code.dat" with points lc 1 pointtype 6 notitle, \
     "$out/emit-code.dat" with points lc 2 pointtype 6 notitle, \
     "$out/annotate-code.dat" with points lc 3 pointtype 6 notitle, \
     "$out/specialize-acm_g10-code.dat" with points lc 4 pointtype 6 notitle, \
     "$out/validate-code.dat" with points lc 7 pointtype 6 notitle, \
     "$out/spirv-opt.dat" with points pointtype 7 lc rgb "black" title "SPIRV-Tools, the specialization passes in process", \
     x * 1.0 with lines dashtype 2 lc rgb "gray" title "1 GB/s"
EOF
rm -f "$out"/*.dat
# The library beside another heap-heavy library in one process (docs/performance.md, "A heap another library
# used"): annotate and specialize alternated with SPIRV-Tools' optimizer, on a clean heap with one context,
# and on a heap left in holes with a context per round. Each line: ours, SPIRV-Tools', the median ratio.
libclc64=/usr/lib/clc/spirv64-mesa3d-.spv
for stage in annotate specialize-acm_g10; do
    for how in "" holes; do
        echo "$stage ${how:-clean}: $($bench --interleaved $stage 15 $libclc64 $how)"
    done
done | tee "$out/interleaved.txt"
# The floor of reading (docs/performance.md, "What limits it"): what any reader that refuses an undefined
# id does, beside our reader, annotate and SPIRV-Tools, on libclc and the larger hashcat module.
for module in $libclc64 $corpus/hashcat__m06211-pure.spv; do
    $bench --floor 15 "$module"
done | tee "$out/floor.txt"
# Start-up (docs/performance.md, "Start-up"): whole processes against /bin/true and a program of the C
# library alone, taken in turn: spvcond --version and annotate of the bundled example.
startup_tmp=$(mktemp -d)
printf 'int main(void) { return 0; }\n' > "$startup_tmp/libc_only.c"
cc -O2 "$startup_tmp/libc_only.c" -o "$startup_tmp/libc-only"
spirv-as --target-env spv1.2 examples/demo.spvasm -o "$startup_tmp/demo.spv"
./$build/bench/spvcond-startup 101 /bin/true -- "$startup_tmp/libc-only" -- ./$build/cli/spvcond --version -- \
    ./$build/cli/spvcond annotate -q "$startup_tmp/demo.spv" -o "$startup_tmp/demo.a.spv" | tee "$out/startup.txt"
rm -rf "$startup_tmp"
echo "wrote $out/results.csv, $out/table.md, $out/scaling.png, $out/interleaved.txt, $out/floor.txt, $out/startup.txt"
