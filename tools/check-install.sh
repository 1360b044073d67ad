#!/bin/sh
# SPDX-License-Identifier: MIT
# The install as a user gets it: `meson install --destdir` of a build, then the C example and the
# OpenCL JIT example compiled against the installed header and pkg-config file, once with the shared
# library and once with the static one, and run: the C example's output must equal the installed
# spvcond's and pass spirv-val; the JIT must run the demonstration kernels on rusticl and pocl.
#
#   sh tools/check-install.sh [BUILD]      (default build-release)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-release}
src=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest=$work/dest
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet
eval "$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    if o["name"] in ("prefix", "libdir", "bindir", "includedir", "mandir", "datadir"):
        print("%s=%s" % (o["name"], o["value"]))')"
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
case $includedir in /*) ;; *) includedir=$prefix/$includedir ;; esac
case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
case $mandir in /*) ;; *) mandir=$prefix/$mandir ;; esac
fail() { echo "FAIL $*"; exit 1; }
passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }

for f in "$bindir/spvcond" "$libdir/libspvcond.a" "$libdir/pkgconfig/spvcond.pc" "$libdir/pkgconfig/spvcond-static.pc" \
         "$includedir/spvcond/spvcond.h" "$includedir/spvcond/device_if.h" "$includedir/spvcond/has.glsl" \
         "$includedir/spvcond/spvcond-version.h" \
         "$mandir/man1/spvcond.1" "$datadir/doc/spvcond/opencl-layer.md"; do
    [ -f "$dest$f" ] || fail "installed: $f"
done
ls "$dest$libdir"/libspvcond.so.* >/dev/null 2>&1 || fail "installed: $libdir/libspvcond.so.*"
ok "installed: the tool, the shared and static libraries, the headers, spvcond.pc and spvcond-static.pc, spvcond.1, the layer's document"
man -l "$dest$mandir/man1/spvcond.1" 2>/dev/null | grep -q "spvcond annotate" || fail "man -l spvcond.1 renders"
ok "man -l renders the installed spvcond(1)"

spvcond=$dest$bindir/spvcond
"$spvcond" --version | grep -q "^spvcond " || fail "the installed spvcond runs"
# The installed tool needs the C library alone; its --validate finds the validator's module it was
# installed with (LIBDIR/spvcond, reached from the tool's own folder, here under DESTDIR).
needed=$(readelf -d "$spvcond" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vE '^lib(asan|ubsan)\.so' | sort | tr '\n' ' ')
case $needed in "libc.so.6 "|"libc.so.6 libm.so.6 ") ;; *) fail "the installed spvcond needs the C library alone (NEEDED: $needed)" ;; esac
ok "the installed spvcond needs $needed"
if [ -f "$dest$libdir/spvcond/spvcond-validator.so" ]; then
    spirv-as --target-env spv1.2 examples/demo.spvasm -o "$work/plain.spv"
    "$spvcond" annotate -q --validate "$work/plain.spv" -o "$work/plain.ann.spv" ||
        fail "the installed spvcond's --validate finds its validator under DESTDIR"
    ok "the installed spvcond's --validate opens $libdir/spvcond/spvcond-validator.so"
fi
export PKG_CONFIG_PATH="$dest$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags spvcond)
shared_libs=$(pkg-config --libs spvcond)
# The static archive, in the README's words: pkg-config --cflags --libs spvcond-static.
static_libs=$(pkg-config --libs spvcond-static)
ok "pkg-config: $cflags | $shared_libs | $static_libs"

# The C example (examples/specialize_device.c) on the bundled example, against the installed tool.
spirv-as --target-env spv1.2 examples/demo.spvasm -o "$work/demo.spv"
"$spvcond" annotate -q "$work/demo.spv" -o "$work/demo.ann.spv"
"$spvcond" specialize -q --device intel_gpu_acm_g10 "$work/demo.ann.spv" -o "$work/want.spv"
for kind in shared static; do
    eval libs=\$${kind}_libs
    cc -std=c11 -Wall -Werror $cflags examples/specialize_device.c $libs -o "$work/example-$kind" ||
        fail "$kind: the C example compiles and links against the installed library"
    needs=$(readelf -d "$work/example-$kind" | grep -c 'NEEDED.*libspvcond' || true)
    if [ $kind = shared ]; then [ "$needs" = 1 ] || fail "shared: the example needs libspvcond.so"
    else [ "$needs" = 0 ] || fail "static: the example does not need libspvcond.so"; fi
    LD_LIBRARY_PATH="$dest$libdir" "$work/example-$kind" intel_gpu_acm_g10 "$work/demo.ann.spv" "$work/got-$kind.spv" \
        >/dev/null || fail "$kind: the C example runs"
    cmp -s "$work/want.spv" "$work/got-$kind.spv" || fail "$kind: the C example writes what spvcond specialize writes"
    spirv-val --target-env opencl2.2 "$work/got-$kind.spv" || fail "$kind: its output passes spirv-val"
    ok "$kind: the C example builds, links $( [ $kind = shared ] && echo libspvcond.so || echo libspvcond.a), runs, and writes the module spvcond does (spirv-val: valid)"
done

# The CMake package: a CMake project (tests/install/) finds spvcond and builds the C example with
# spvcond::spvcond and with spvcond::spvcond_static; each must write what spvcond specialize writes.
[ -f "$dest$libdir/cmake/spvcond/spvcondConfig.cmake" ] && [ -f "$dest$libdir/cmake/spvcond/spvcondConfigVersion.cmake" ] ||
    fail "installed: $libdir/cmake/spvcond/spvcondConfig.cmake and its version file"
if command -v cmake >/dev/null; then
    for kind in shared static; do
        cmake -S tests/install -B "$work/cmake-$kind" -DCMAKE_PREFIX_PATH="$dest$prefix" -DSPVCOND_LINK=$kind \
            -DEXAMPLE_SOURCE="$src/examples/specialize_device.c" -DCMAKE_C_FLAGS="-Wall -Werror" >"$work/cmake.log" 2>&1 &&
            cmake --build "$work/cmake-$kind" >>"$work/cmake.log" 2>&1 ||
            { cat "$work/cmake.log"; fail "cmake, $kind: find_package(spvcond) and the C example build"; }
        needs=$(readelf -d "$work/cmake-$kind/example" | grep -c 'NEEDED.*libspvcond' || true)
        if [ $kind = shared ]; then [ "$needs" = 1 ] || fail "cmake, shared: the example needs libspvcond.so"
        else [ "$needs" = 0 ] || fail "cmake, static: the example does not need libspvcond.so"; fi
        LD_LIBRARY_PATH="$dest$libdir" "$work/cmake-$kind/example" intel_gpu_acm_g10 "$work/demo.ann.spv" \
            "$work/cmake-$kind.spv" >/dev/null || fail "cmake, $kind: the example runs"
        cmp -s "$work/want.spv" "$work/cmake-$kind.spv" || fail "cmake, $kind: the example writes what spvcond does"
        ok "cmake, $kind: find_package(spvcond) gives spvcond::spvcond$( [ $kind = static ] && echo _static); the C example builds, runs and writes the module spvcond does"
    done
    # A version the package is not compatible with (0.x: the same minor only) is refused.
    mkdir -p "$work/cmake-newer"
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(newer C)\nfind_package(spvcond 0.3 REQUIRED)\n' \
        >"$work/cmake-newer/CMakeLists.txt"
    if cmake -S "$work/cmake-newer" -B "$work/cmake-newer/build" -DCMAKE_PREFIX_PATH="$dest$prefix" >/dev/null 2>&1; then
        fail "cmake: find_package(spvcond 0.3) is refused by 0.2"
    fi
    ok "cmake: find_package(spvcond 0.3) is refused (0.x versions are compatible within a minor version)"
else
    echo "skipped: the CMake package's consumer test (no cmake; Debian's cmake package gives it)"
fi

# The OpenCL JIT example (examples/jit-opencl/jit.c) on the demonstration kernels, on both runtimes.
if ! pkg-config --exists OpenCL || ! command -v clang-15 >/dev/null || ! command -v llvm-spirv-15 >/dev/null; then
    echo "skip the JIT example: no OpenCL development files or no clang-15 / llvm-spirv-15"
    echo "$passed passed, 0 failed"
    exit 0
fi
clang-15 -c -target spir64 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm -O0 tests/data/jit_demo.cl \
    -o "$work/jit.bc"
llvm-spirv-15 --spirv-max-version=1.2 "$work/jit.bc" -o "$work/jit.spv"
"$spvcond" annotate -q "$work/jit.spv" -o "$work/jit.ann.spv"
for kind in shared static; do
    eval libs=\$${kind}_libs
    cc -std=c11 -D_GNU_SOURCE $cflags examples/jit-opencl/jit.c $libs $(pkg-config --libs OpenCL) -lm \
        -o "$work/jit-$kind" || fail "$kind: the JIT example compiles and links against the installed library"
    for platform in rusticl pocl; do
        out=$(cd "$work" && LD_LIBRARY_PATH="$dest$libdir" RUSTICL_ENABLE=llvmpipe "./jit-$kind" --platform $platform \
            jit.ann.spv 2>&1) || fail "$kind, $platform: the JIT example runs: $out"
        ran=$(printf '%s\n' "$out" | grep -c "supported, created, ran, results correct" || true)
        [ "$ran" -ge 1 ] || fail "$kind, $platform: kernels ran with correct results: $out"
        ok "$kind, $platform: the JIT example built against the installed library ran $ran kernels, results correct"
    done
done

# The OpenCL layer as installed, under a plain OpenCL program (tests/layer/host.c) that links the ICD loader
# alone: OPENCL_LAYERS names the installed library, which carries libspvcond within it.
layer=$dest$libdir/libspvcond-opencl-layer.so
if [ ! -f "$layer" ]; then
    echo "skip the OpenCL layer: not built (no OpenCL headers with CL/cl_layer.h)"
    echo "$passed passed, 0 failed"
    exit 0
fi
! readelf -d "$layer" | grep -q 'NEEDED.*libspvcond' || fail "the layer needs no libspvcond.so"
exports=$(nm -D --defined-only "$layer" | awk '{print $3}' | grep -v '^_' | sort | tr '\n' ' ')
[ "$exports" = "clDeinitLayer clGetLayerInfo clInitLayer clInitLayerWithProperties " ] ||
    fail "the layer exports the loaders' entries alone (clGetLayerInfo, clInitLayer, clInitLayerWithProperties, clDeinitLayer): $exports"
ok "installed: $libdir/libspvcond-opencl-layer.so, exporting the loaders' four entries alone"
cc -std=c11 tests/layer/host.c $(pkg-config --libs OpenCL) -lpthread -o "$work/host" || fail "the plain host program builds"
for platform in rusticl pocl; do
    out=$(cd "$work" && RUSTICL_ENABLE=llvmpipe OPENCL_LAYERS="$layer" ./host --platform $platform jit.ann.spv \
        scale_float add_one 2>&1) || fail "$platform: a plain OpenCL program runs the module through the installed layer: $out"
    printf '%s\n' "$out" | grep -q "kernel add_one: results 1 2 3 4" || fail "$platform: add_one's results: $out"
    ok "$platform: a plain OpenCL program ran the annotated module's kernels through the installed layer"
done
echo "$passed passed, 0 failed"
