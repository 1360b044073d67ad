#!/bin/sh
# SPDX-License-Identifier: MIT
# A folder that runs the OpenCL layer's NVIDIA checks and benchmarks on a machine with NVIDIA's OpenCL driver
# and no Debian packages (docs/opencl-layer.md "NVIDIA", docs/performance.md "NVIDIA"): the layer, the plain
# host program, bench/layer-speed, bench/layer-cost and the JIT example from BUILD (a build without sanitizers, with the layer
# and its translator), the Debian libraries they need (LLVM 15, LLVMSPIRVLib, libyaml and theirs) as .deb
# files, libclc's nvptx64 library, the test modules compiled here, the corpus plain and annotated, and the
# sources of the benchmarks' kernels, the program-semantics and image hosts and, where built, the CTS's test_spirv_new.
# Then, there: bash DIR/run.sh (tools/nvidia-run.sh).
# Usage: sh tools/nvidia-bundle.sh DIR [BUILD]   (BUILD defaults to build-release)
# With CTS_OFFLINE=1, the CTS suites of OpenCL C kernels and the compiler for them (run.sh's part offline)
# instead of the corpus: both would pass the device machine's 64 MiB.
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: sh tools/nvidia-bundle.sh DIR [BUILD]}
build=${2:-build-release}
for t in layer/libspvcond-opencl-layer.so tests/layer-host tests/layer-programs tests/layer-images bench/layer-speed bench/layer-cost examples/jit-opencl/jit-opencl; do
    [ -f "$build/$t" ] || { echo "nvidia-bundle: $build/$t is missing (meson setup $build -Dtests=enabled -Dopencl_layer=enabled -Dtranslator=enabled; ninja -C $build)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out/bin" "$out/debs" "$out/modules" "$out/bench" "$out/corpus"
cp "$build/layer/libspvcond-opencl-layer.so" "$build/tests/layer-host" "$build/bench/layer-speed" "$build/bench/layer-cost" \
    "$build/examples/jit-opencl/jit-opencl" "$build"/libspvcond.so.0.? "$out/bin/"
strip --strip-unneeded "$out"/bin/* 2>/dev/null || true
(cd "$out/debs" && apt-get download libllvm15 libllvmspirvlib15 libz3-4 libedit2 libffi8 libxml2 libicu72 \
    libyaml-0-2 libnettle8 libxxhash0 >/dev/null 2>&1)
xz -T0 -9 -c "$(pkg-config --variable=libexecdir libclc 2>/dev/null || echo /usr/lib/clc)/nvptx64--nvidiacl.bc" \
    > "$out/nvptx64--nvidiacl.bc.xz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cl() { # SOURCE OUT [clang flags]
    src=$1; dst=$2; shift 2
    clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 "$@" "$src" -o "$tmp/m.bc"
    llvm-spirv-15 --spirv-max-version=1.2 "$tmp/m.bc" -o "$dst"
}
cli=$build/cli/spvcond
cl tests/data/jit_demo.cl "$out/modules/demo.spv"
"$cli" annotate -q "$out/modules/demo.spv" -o "$out/modules/demo.a.spv"
cl tests/data/guards/chain.cl "$tmp/chain.spv" -I include
"$cli" annotate -q "$tmp/chain.spv" -o "$out/modules/chain.a.spv"
cl tests/data/layer/printf.cl "$out/modules/printf.spv"
cl tests/data/layer/half.cl "$out/modules/half.spv"
cl tests/data/layer/kernels.cl "$out/modules/kernels.spv"
cp "$build/tests/multi_target.spv" "$build/tests/dot_two_widths.spv" "$out/modules/"
cl bench/layer_speed.cl "$out/bench/layer_speed.spv"
cp bench/layer_speed.cl tests/data/jit_demo.cl "$out/bench/"
corpus=$(python3 tools/make-corpus.py --print-dir)
for f in "$corpus"/*.spv; do
    b=$(basename "$f" .spv)
    cp "$f" "$out/corpus/"
    "$cli" annotate -q "$f" -o "$out/corpus/$b.a.spv" 2>/dev/null || rm -f "$out/corpus/$b.a.spv"
done
# The benchmarks' corpus kernels with their OpenCL C source, for the driver to compile.
(cd "$tmp" && apt-get download erlang-cl hashcat-data >/dev/null 2>&1 &&
    for d in *.deb; do dpkg-deb --fsys-tarfile "$d" | tar x ./usr/share/doc/erlang-cl/examples ./usr/share/hashcat/OpenCL 2>/dev/null || true; done)
cp "$tmp/usr/share/doc/erlang-cl/examples/z2.cl" "$tmp/usr/share/doc/erlang-cl/examples/mul4x4.cl" "$out/bench/"
(cd "$tmp/usr/share" && tar cf - hashcat/OpenCL/inc_* hashcat/OpenCL/m13711-pure.cl hashcat/OpenCL/m06211-pure.cl) | xz -T0 -6 > "$out/bench/hashcat.tar.xz"
if [ "${CTS_OFFLINE:-0}" = 1 ]; then rm -rf "$out/corpus"; else
    (cd "$out" && tar cf - corpus | xz -T0 -6 > corpus.tar.xz && rm -rf corpus)
fi
# OpenCL's program semantics (tests/layer_programs.py's host and modules) and, where the conformance test built
# it (BUILD/tests/conformance/cts-build, or CTS_BUILD), the CTS's test_spirv_new with its modules.
cp "$build/tests/layer-programs" "$out/bin/"
# Image kernels checked by value (tests/layer/images_host.c), from OpenCL C and from SPIR-V, plain and annotated.
mkdir -p "$out/images"
cp "$build/tests/layer-images" "$out/bin/"
for f in images sampler_argument array_writes; do
    cp "tests/data/images/$f.cl" "$out/images/"
    cl "tests/data/images/$f.cl" "$out/images/$f.spv"
    "$cli" annotate -q "$out/images/$f.spv" -o "$out/images/$f.a.spv"
done
cp "$build/tests/spec_constants.spv" "$out/modules/"
cl tests/data/layer/link_library.cl "$out/modules/link_library.spv"
cl tests/data/layer/link_user.cl "$out/modules/link_user.spv"
cts=${CTS_BUILD:-$build/tests/conformance/cts-build}/test_conformance
if [ -x "$cts/spirv_new/test_spirv_new" ]; then
    mkdir -p "$out/cts"
    cp "$cts/spirv_new/test_spirv_new" tests/conformance/run_cts.py "$out/cts/"
    (cd "$cts/spirv_new" && tar cf - spirv_bin) | xz -T0 -6 > "$out/cts/spirv_bin.tar.xz"
fi
# The CTS suites of OpenCL C kernels that were built (test_basic, test_printf, test_bruteforce, the image suites), run there from
# OpenCL C by the driver and in the CTS's offline SPIR-V mode through the layer (run.sh's part offline), with
# the offline compiler (tests/conformance/cl_offline_compiler.py) and Debian's clang-15 and llvm-spirv-15.
offline=
for suite in basic/test_basic printf/test_printf math_brute_force/test_bruteforce images/kernel_read_write/test_image_streams \
    images/samplerlessReads/test_samplerless_reads images/kernel_image_methods/test_kernel_image_methods; do
    if [ "${CTS_OFFLINE:-0}" = 1 ] && [ -x "$cts/$suite" ]; then offline="$offline $cts/$suite"; fi
done
if [ -n "$offline" ]; then
    mkdir -p "$out/cts"
    # shellcheck disable=SC2086 # a list of paths without spaces
    cp $offline tests/conformance/run_cts.py tests/conformance/cl_offline_compiler.py "$out/cts/"
    (cd "$out/debs" && apt-get download clang-15 libclang-cpp15 llvm-spirv-15 >/dev/null 2>&1)
    # clang's OpenCL headers alone, not the whole of libclang-common-15-dev (the bundle must stay small)
    (cd / && tar cf - usr/lib/llvm-15/lib/clang/*/include/opencl-c*.h) | xz -T0 -9 > "$out/cts/opencl-headers.tar.xz"
fi
# What NVIDIA's compiler makes of images, the global offset, vector printf and precision (run.sh's part probe):
# tools/opencl-binary built against the system's OpenCL, the OpenCL C, and the same compiled to SPIR-V.
mkdir -p "$out/probe"
cc -std=c11 -O2 tools/opencl-binary.c -o "$out/bin/opencl-binary" -lOpenCL
for f in tests/data/nvidia/*.cl tests/data/images/*.cl; do
    cp "$f" "$out/probe/"
    cl "$f" "$out/probe/$(basename "$f" .cl).spv" -cl-std=CL2.0 2>/dev/null || true
done
# LLVM 19's NVPTX back end beside LLVM 15's (run.sh's part llvm19; docs/opencl-layer.md, "Another LLVM's back
# end"): the benchmarks' modules as the layer hands them to its back end (SPVCOND_LAYER_NVPTX_IR, on the mock
# NVIDIA driver's compute capability 9.0 device), lowered by the layer's LLVM 15 (sm_86, the newest it knows)
# and by llc-19 for sm_90, with and without opt-19 -O3 first. Where llc-19 and the mock driver are here.
cp "$corpus/erlang-cl__examples__z2.spv" "$corpus/erlang-cl__examples__mul4x4.spv" "$out/bench/"
if command -v llc-19 >/dev/null && command -v opt-19 >/dev/null && [ -f "$build/tests/libmock-icd.so" ]; then
    mkdir -p "$out/llvm19" "$tmp/icd"
    echo "$PWD/$build/tests/libmock-icd.so" > "$tmp/icd/mock.icd"
    for m in layer_speed:triad erlang-cl__examples__z2:z2 erlang-cl__examples__mul4x4:mul4x4; do
        b=${m%%:*}
        OCL_ICD_VENDORS=$tmp/icd SPVCOND_MOCK_NVIDIA=1 SPVCOND_MOCK_OUT="$tmp/$b" SPVCOND_LAYER_CACHE_DISABLE=1 \
            SPVCOND_LAYER_NVPTX_IR="$tmp/$b.bc" OPENCL_LAYERS="$PWD/$build/layer/libspvcond-opencl-layer.so" \
            "$build/tests/layer-host" --platform NVIDIA --create-only "$out/bench/$b.spv" "${m#*:}" >/dev/null
        cp "$tmp/$b.0.ptx" "$out/llvm19/$b.llvm15.ptx"
        llc-19 -O3 -mtriple=nvptx64-nvidia-nvcl -mcpu=sm_90 -mattr=+ptx78 "$tmp/$b.bc" -o "$out/llvm19/$b.llvm19.ptx" 2>/dev/null
        opt-19 -O3 "$tmp/$b.bc" 2>/dev/null | llc-19 -O3 -mtriple=nvptx64-nvidia-nvcl -mcpu=sm_90 -mattr=+ptx78 \
            -o "$out/llvm19/$b.opt19.ptx" 2>/dev/null
    done
fi
# The Vulkan layer on NVIDIA's Vulkan driver (run.sh's part vulkan; docs/vulkan-layer.md): the layer and its
# manifest, the plain Vulkan program, the GLSL shaders of the vulkan-layer suite compiled, merged and annotated,
# each alone too (what an application compiles per feature set), and Debian's Vulkan loader and GL dispatch
# libraries (the device machine has the driver and no loader). Where BUILD has the Vulkan layer.
if [ -f "$build/layer/vulkan/libVkLayer_spvcond_specialize.so" ] && [ -f "$build/tests/vulkan-compute" ] &&
    command -v glslangValidator >/dev/null && command -v spirv-link >/dev/null; then
    mkdir -p "$out/vulkan" "$out/gl"
    cp "$build/layer/vulkan/libVkLayer_spvcond_specialize.so" "$build/layer/vulkan/VkLayer_spvcond_specialize.json" \
        "$out/vulkan/"
    cp "$build/tests/vulkan-compute" "$out/bin/"
    shaders="scale_float scale_double scale_half scale_int64 scale_subgroup load_half"
    for n in $shaders refine; do
        glslangValidator -V --target-env vulkan1.1 -I"$PWD/include" -e $n --source-entrypoint main \
            "tests/data/vulkan/$n.comp" -o "$out/vulkan/$n.spv" >/dev/null
    done
    spirv-link $(for n in $shaders; do echo "$out/vulkan/$n.spv"; done) -o "$out/vulkan/all.spv"
    "$cli" annotate -q "$out/vulkan/all.spv" -o "$out/vulkan/all.a.spv"
    "$cli" annotate -q "$out/vulkan/refine.spv" -o "$out/vulkan/refine.a.spv"
    (cd "$out/gl" && apt-get download libvulkan1 libglvnd0 libglx0 libgl1 libegl1 libopengl0 >/dev/null 2>&1)
fi
cp tools/nvidia-run.sh "$out/run.sh"
echo "nvidia-bundle: $out ($(du -sh "$out" | cut -f1)); there: bash $out/run.sh > log 2>&1"
