#!/bin/sh
# SPDX-License-Identifier: MIT
# Everything the tool writes, for every input we have: run two builds of spvcond over the corpus, libclc
# and every fixture of tests/data, and compare their outputs byte for byte (modules, tables, reports,
# standard output and error, exit codes), every --help text, the manual page written from them, and the
# usage errors. A change of structure must leave them identical.
# Usage: sh tools/compare-outputs.sh OLD_SPVCOND NEW_SPVCOND [WORKDIR]
set -u
old=$(realpath "$1"); new=$(realpath "$2")
cd "$(dirname "$0")/.."
work=${3:-$(mktemp -d)}
mkdir -p "$work/inputs"
corpus=$(python3 tools/make-corpus.py --print-dir)
spirv_as=${SPIRV_AS:-spirv-as}

# The inputs: real modules, and the fixtures assembled once for both runs.
for f in "$corpus"/*.spv /usr/lib/clc/*.spv; do
    [ -f "$f" ] && cp "$f" "$work/inputs/$(basename "$f")"
done
find tests/data -name '*.spvasm' | sort | while read -r f; do
    name=$(echo "$f" | sed 's|^tests/data/||; s|/|_|g; s|\.spvasm$|.spv|')
    python3 tests/fnvar_asm.py "$spirv_as" "$f" "$work/inputs/$name" 2>/dev/null || true
done

# One run of every command over every input; each command's output files, standard output, standard
# error and exit status land in OUT/<input>/<step>.
run_all() {
    S=$1; out=$2
    rm -rf "$out"; mkdir -p "$out"
    for f in "$work"/inputs/*.spv; do
        d=$out/$(basename "$f" .spv); mkdir -p "$d"
        step() { name=$1; shift; "$@" > "$d/$name.out" 2> "$d/$name.err"; echo $? > "$d/$name.rc"; }
        step annotate "$S" annotate "$f" -o "$d/annotated.spv"
        a=$d/annotated.spv; [ -f "$a" ] || a=$f
        step info "$S" info --json "$f"
        step info-text "$S" info "$a"
        step reqs "$S" reqs --json "$a"
        step validate "$S" validate "$f"
        step validate-annotated "$S" validate "$a"
        step repair "$S" repair "$f" -o "$d/repaired.spv"
        for dev in intel_gpu_pvc intel_gpu_acm_g10 x86_64; do
            step "specialize-$dev" "$S" specialize --device "$dev" "$a" -o "$d/specialized-$dev.spv"
            step "check-$dev" "$S" check --json --device "$dev" "$a"
        done
        step specialize-false "$S" specialize --unspecified any "$a" -o "$d/specialized-any.spv"
        step split "$S" split -q "$f" -o "$d/split"
        [ -f "$d/split/split.table" ] &&
            step filter "$S" filter -q "$d/split/split.table" --device intel_gpu_pvc -o "$d/filter.table"
    done
    usage "$S" "$out/usage"
    # The file table names the folder it was written to: the same for both runs.
    find "$out" -name '*.table' -exec sed -i "s|$out|OUT|g" {} +
    find "$out" -name '*.err' -exec sed -i "s|$out|OUT|g" {} +
}
# The texts and refusals of the command line, once per tool: each command's --help, the manual page
# written from them, and a usage error of every kind each command can meet.
usage() {
    S=$1; d=$2; mkdir -p "$d"
    m=$work/inputs/$(ls "$work/inputs" | head -1)
    n=0
    u() { n=$((n + 1)); echo "$*" > "$d/$n.args"; "$S" "$@" > "$d/$n.out" 2> "$d/$n.err"; echo $? > "$d/$n.rc"; }
    u; u --help; u -h; u --version; u bogus
    for c in annotate check devices filter info repair reqs specialize split validate; do
        u "$c" --help; u "$c" -h; u "$c" --bogus; u "$c" -o; u "$c" --hel
    done
    u annotate "$m"; u annotate "$m" "$m" -o /dev/null; u annotate --spec-id-base x "$m" -o /dev/null
    u annotate --requirements; u annotate --spec-id=1 "$m" -o /dev/null
    u specialize "$m"; u specialize --props p "$m" -o /dev/null; u specialize --spec 1 "$m" -o /dev/null
    u specialize --unspecified maybe "$m" -o /dev/null; u specialize "$m" "$m" -o /dev/null
    u specialize --target nope "$m" -o /dev/null; u specialize --device nope "$m" -o /dev/null
    u specialize --spec-file /nonexistent "$m" -o /dev/null; u specialize -q "$m" -o /dev/null
    u check "$m"; u check --device x86_64; u check --device nope "$m"; u check --json --device=x86_64 "$m" k1 k2
    u filter --device x86_64 t; u filter -o t t; u filter --device x86_64 -o - ; u filter --device x86_64 -o - a b
    u split "$m"; u split --mode nope "$m" -o "$d/s"; u split "$m" "$m" -o "$d/s"
    u devices extra; u devices --table nope; u devices --registry --table dpcpp; u devices --registry --json
    u reqs --json --props "$m"; u reqs "$m" "$m"; u reqs --binary nope "$m"
    u info "$m" "$m"; u validate "$m" "$m"; u repair "$m"; u repair "$m" "$m" -o /dev/null
    python3 tools/gen_manpage.py "$S" docs/spvcond.1.in "$d/spvcond.1" > "$d/manual.out" 2>&1
    sed -i "s|$out|OUT|g; s|$work|WORK|g" "$d"/*.err "$d"/*.args
}
# The two tools side by side (each run is one process after another).
run_all "$old" "$work/old" &
run_all "$new" "$work/new" &
wait
if diff -r "$work/old" "$work/new" > "$work/diff.txt"; then
    echo "identical: $(find "$work/old" -type f | wc -l) files over $(ls "$work/inputs" | wc -l) inputs"
else
    echo "DIFFERENT (see $work/diff.txt):"; head -20 "$work/diff.txt"; exit 1
fi
