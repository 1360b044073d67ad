#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI check (docs/releasing.md): the library built from this tree against abi/libspvcond.abi, the ABI of
# the soname it carries as last released (or as this soname's first release will have it), with Debian's
# abigail-tools. Passes when nothing changed or the change only adds (new functions, new symbol-map
# node); fails on a change an existing caller would see (a function removed or its type changed, a type
# grown or reshaped, an enumerator renumbered). Such a change needs a new soname (meson.build) and then
# a new baseline: sh tools/check-abi.sh --update, and NEWS.md says what broke.
# Usage: sh tools/check-abi.sh [--update] [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
update=0
[ "${1:-}" = --update ] && { update=1; shift; }
build=${1:-build-abi}
baseline=abi/libspvcond.abi
if ! command -v abidiff >/dev/null || ! command -v abidw >/dev/null; then
    echo "check-abi: abidw/abidiff not found (Debian's abigail-tools package)" >&2
    exit 1
fi
# Types come from the debug information: a build with -g (debugoptimized), the public headers only.
[ -d "$build" ] || meson setup "$build" --buildtype=debugoptimized -Dtests=disabled -Dyaml=enabled >/dev/null
version=$(sed -n "s/^  version: '\(.*\)',$/\1/p" meson.build)
ninja -C "$build" "libspvcond.so.$version" >/dev/null
lib="$build/libspvcond.so.$version"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
abidw --headers-dir include/spvcond --drop-private-types --no-corpus-path --no-comp-dir-path \
    --out-file "$work/new.abi" "$lib"
if [ $update = 1 ]; then
    mkdir -p abi
    cp "$work/new.abi" "$baseline"
    echo "check-abi: $baseline written from $lib ($(grep -c '<function-decl ' "$baseline") functions)"
    exit 0
fi
[ -f "$baseline" ] || { echo "check-abi: no $baseline (sh tools/check-abi.sh --update)" >&2; exit 1; }
old_soname=$(sed -n 's/.*soname=.\([^"'"'"']*\).*/\1/p' "$baseline" | head -1)
new_soname=$(sed -n 's/.*soname=.\([^"'"'"']*\).*/\1/p' "$work/new.abi" | head -1)
# Sized structs (those whose first member is `size_t size`) grow at the end through their size, which the
# policy allows: a member added after the last one is no change an existing caller sees.
sized=$(awk '/^typedef struct [a-z_]+ \{/ { name = $3; getline; if ($0 ~ /^ *size_t size;/) print name }' \
    include/spvcond/spvcond.h | paste -sd'|')
printf '[suppress_type]\n  type_kind = struct\n  name_regexp = ^(%s)$\n  has_data_member_inserted_at = end\n' \
    "$sized" >"$work/sized.suppr"
set +e
abidiff --no-added-syms --suppressions "$work/sized.suppr" "$baseline" "$work/new.abi" >"$work/report.txt" 2>&1
status=$?
set -e
cat "$work/report.txt"
# abidiff's status is a bit field: 1 error, 2 usage error, 4 the ABI changed, 8 incompatibly.
if [ $((status & 3)) -ne 0 ]; then
    echo "check-abi: abidiff failed (status $status)" >&2
    exit 1
fi
# With additions filtered out (--no-added-syms), any change left is one an existing caller can see: a
# function removed, or a type it uses changed (abidiff calls only removals incompatible).
if [ $((status & 12)) -ne 0 ]; then
    if [ "$old_soname" = "$new_soname" ]; then
        echo "check-abi: FAIL: a change existing callers see, under the same soname ($new_soname); see docs/releasing.md" >&2
        exit 1
    fi
    echo "check-abi: FAIL: the soname changed ($old_soname -> $new_soname): regenerate $baseline (--update)" >&2
    exit 1
fi
echo "check-abi: ok: no change existing callers of $new_soname see, against $baseline ($(grep -c '<function-decl ' "$baseline") functions; additions allowed)"
