#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages libspvcond builds and tests with, if any is missing. Idempotent.
set -eu
packages="meson ninja-build gcc pkg-config python3 spirv-headers spirv-tools libcriterion-dev libyaml-dev libclc-15 clang-15 llvm-15 llvm-spirv-15 pocl-opencl-icd mesa-opencl-icd ocl-icd-opencl-dev opencl-headers valgrind strace g++ groff-base cmake abigail-tools libllvmspirvlib-15-dev llvm-15-dev clinfo python3-pyopencl nettle-dev libxxhash-dev libvulkan-dev mesa-vulkan-drivers glslang-tools vulkan-validationlayers"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
