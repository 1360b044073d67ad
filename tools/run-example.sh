#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up, build, and run the main job on the bundled example: annotate -> validate -> check ->
# specialize for a device without fp64 -> spirv-val.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup-debian.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
S=./build/cli/spvcond
E=build/examples
set -x
$S annotate $E/demo.spv -o $E/demo.annotated.spv --props $E/demo.prop
$S validate $E/demo.annotated.spv
$S reqs $E/demo.annotated.spv
$S check --device intel_gpu_acm_g10 $E/demo.annotated.spv
$S specialize --device intel_gpu_acm_g10 $E/demo.annotated.spv -o $E/demo.acm_g10.spv
spirv-val --target-env opencl2.2 $E/demo.acm_g10.spv
$S info $E/demo.acm_g10.spv
