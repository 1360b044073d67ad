#!/bin/sh
# Build with AddressSanitizer and UndefinedBehaviorSanitizer and run every test suite; without
# arguments, then valgrind memcheck over the CLI on the real modules (tools/run-memcheck.sh).
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
[ -d build-test ] || meson setup build-test -Db_sanitize=address,undefined -Db_lundef=false -Dtests=enabled >/dev/null
ninja -C build-test
meson test -C build-test --print-errorlogs "$@"
# Criterion's per-suite closing lines, for the log.
grep -h "Synthesis" build-test/meson-logs/testlog.txt || true
[ $# -gt 0 ] || sh tools/run-memcheck.sh
