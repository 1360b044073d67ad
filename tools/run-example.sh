#!/bin/sh
# Set up, build, and run spvcond on the bundled example module.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build
./build/tools/spvcond info build/examples/demo.spv
