#!/bin/bash
# SPDX-License-Identifier: MIT
# The OpenCL layer on NVIDIA's OpenCL driver, in a folder made by tools/nvidia-bundle.sh: the plain host
# program with and without the layer (the demonstration, guarded-code, multi-target, printf and plain
# modules, their results), the JIT example, the whole corpus through the layer, then bench/layer-speed
# (kernel times and build times against the driver compiling the same OpenCL C). Needs nvidia-smi,
# ocl-icd's libOpenCL.so.1 and NVIDIA's libnvidia-opencl.so.1; writes everything to standard output.
# Usage: bash run.sh [PART...], PART among checks images corpus speed build cost programs cts offline probe llvm19 vulkan
# (default: all but offline and llvm19;
# images: tests/layer/images_host.c from OpenCL C by the driver and from SPIR-V through the layer; cost:
# bench/layer-cost, the layer cold and warm against the driver taking the PTX it made; programs: OpenCL's
# program semantics through the layer, tests/layer_programs.py's checks; cts: the CTS's test_spirv_new
# through the layer, as tests/conformance.py runs it; offline: the CTS suites of OpenCL C kernels the bundle
# carries (test_basic, test_printf, test_bruteforce in wimpy mode, the image suites test_image_streams with
# nearest filtering, test_samplerless_reads, test_kernel_image_methods; CTS_SUITES names fewer) from OpenCL C by the driver and in the CTS's
# offline SPIR-V mode through the layer, the suites side by side, each test's verdict in $OUT/cts-SUITE.tar.xz; probe: the PTX NVIDIA's compiler makes of probe/*.cl and
# the layer of the same as SPIR-V, into $OUT/probe.tar.xz; llvm19: the bench kernels' times from the driver's
# own build against the PTX of LLVM 15's back end (the layer's) and LLVM 19's, made by nvidia-bundle.sh); vulkan: the Vulkan
# layer on NVIDIA's Vulkan driver through Debian's loader (the vulkan-layer suite's shaders, results and cost).
set -u
parts=" ${*:-checks images corpus speed build cost programs cts probe} "
want() { case "$parts" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
cd "$(dirname "$0")"
G=$PWD
T=$(mktemp -d)
for d in debs/*.deb; do dpkg -x "$d" "$T/deps"; done
xz -dc nvptx64--nvidiacl.bc.xz > "$T/nvptx64--nvidiacl.bc"
export SPVCOND_LAYER_LIBCLC=$T/nvptx64--nvidiacl.bc
[ -f corpus.tar.xz ] && tar xJf corpus.tar.xz -C "$T"
tar xJf bench/hashcat.tar.xz -C "$T"
# NVIDIA's driver as the only ICD; ocl-icd's loader ahead of the CUDA toolkit's, which loads no layers.
NV=$(find / -name 'libnvidia-opencl.so.1' -not -path '/proc/*' 2>/dev/null | head -1)
mkdir -p "$T/icd"; echo "$NV" > "$T/icd/nvidia.icd"
export OCL_ICD_VENDORS=$T/icd; unset OCL_ICD_FILENAMES
OCL=$(dirname "$(find /usr/lib /usr/lib64 -name 'libOpenCL.so.1' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$OCL:$G/bin:$T/deps/usr/lib/x86_64-linux-gnu:$T/deps/usr/lib/llvm-15/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
L=$G/bin/libspvcond-opencl-layer.so; H=$G/bin/layer-host; B=$G/bin/layer-speed
DEMO="scale_float scale_double:double mix_double scale_half add_one"
run() { local t0=$(date +%s%N); OPENCL_LAYERS=$L $H --platform NVIDIA "$@" 2>&1; echo "rc=$? wall_ms=$(( ($(date +%s%N)-t0)/1000000 ))"; }
if want checks; then
echo "== without the layer"
for m in demo.a.spv chain.a.spv multi_target.spv demo.spv; do echo "$m: $($H --platform NVIDIA modules/$m scale_float 2>&1 | grep program)"; done
echo "== demo annotated"; run modules/demo.a.spv $DEMO
echo "== demo plain"; run modules/demo.spv $DEMO
echo "== chain annotated"; run modules/chain.a.spv refine
echo "== multi-target"; run modules/multi_target.spv scale
echo "== printf"; run modules/printf.spv hello
echo "== half built-ins"; run modules/half.spv half_math
echo "== local memory, vectors, atomics"; run modules/kernels.spv reduce vectors atomics
echo "== a multi-target module chosen by architecture (dot4: half from sm60 with fp16)"
SPVCOND_LAYER_DUMP=$T OPENCL_LAYERS=$L $H --platform NVIDIA --create-only modules/dot_two_widths.spv dot4 2>&1 | grep -E "program|kernel"
grep -c "\.f16" "$T"/*.ptx
echo "== demo, clCreateProgramWithILKHR + compile/link + IL checked"; run --khr --compile-link --check-il modules/demo.a.spv $DEMO
echo "== threads"; run --threads 4 modules/demo.a.spv scale_float add_one
echo "== a global work offset (expected 4004 5004 6004 7004)"; run --offset 4 probe/offset.spv offset:int
echo "== jit-opencl, through the layer"; OPENCL_LAYERS=$L bin/jit-opencl --platform NVIDIA modules/demo.a.spv 2>&1
echo "== jit-opencl, without"; bin/jit-opencl --platform NVIDIA modules/demo.a.spv 2>&1
echo "== the layer's stage times"
for m in hashcat__m13711-pure.spv pocl-tests__examples__EinsteinToolkit__ML_BSSN_CL_RHS1.spv python3-silx__silx__resources__opencl__convolution.spv; do
    SPVCOND_LAYER_DEBUG=1 OPENCL_LAYERS=$L $H --platform NVIDIA "$T/corpus/$m" 2>&1 | grep -E "spvcond layer: device|program:"
done
fi
if want images; then
echo "== images from OpenCL C, by the driver"; bin/layer-images --platform NVIDIA --source images/images.cl images/sampler_argument.cl images/array_writes.cl 2>&1
echo "== images through the layer, plain modules"; OPENCL_LAYERS=$L bin/layer-images --platform NVIDIA --il images/images.spv images/sampler_argument.spv images/array_writes.spv 2>&1
echo "== images through the layer, annotated modules"; OPENCL_LAYERS=$L bin/layer-images --platform NVIDIA --il images/images.a.spv images/sampler_argument.a.spv images/array_writes.a.spv 2>&1
fi
if want corpus; then
ok=0; bad=0
for m in "$T"/corpus/*.spv; do
    out=$(run "$m")
    if echo "$out" | grep -q "program: built"; then
        ok=$((ok + 1)); echo "BUILT $(basename "$m") $(echo "$out" | grep -oE 'kernels: \S* \([0-9]+\)' | grep -oE '\([0-9]+\)') $(echo "$out" | grep -oE 'wall_ms=[0-9]+')"
    else
        bad=$((bad + 1)); echo "FAILED $(basename "$m"): $(echo "$out" | grep -vE '^device|^devices' | head -4 | cut -c1-300 | tr '\n' '|')"
    fi
done
echo "corpus through the layer: $ok built, $bad failed"
fi
export CUDA_CACHE_DISABLE=1
cd bench
if want speed; then
echo "== speed: bench kernels, libdevice"; OPENCL_LAYERS=$L $B --rounds 15 layer_speed.cl layer_speed.spv triad math_float math_double
echo "== speed: bench kernels, libclc's math only"; SPVCOND_LAYER_LIBDEVICE=none OPENCL_LAYERS=$L $B --rounds 15 layer_speed.cl layer_speed.spv triad math_float math_double
echo "== speed: z2"; OPENCL_LAYERS=$L $B --rounds 15 z2.cl "$T/corpus/erlang-cl__examples__z2.spv" z2
echo "== speed: mul4x4"; OPENCL_LAYERS=$L $B --rounds 15 mul4x4.cl "$T/corpus/erlang-cl__examples__mul4x4.spv" mul4x4
fi
if want build; then
echo "== build: the demonstration module"; OPENCL_LAYERS=$L $B --rounds 9 jit_demo.cl ../modules/demo.a.spv
cd "$T/hashcat/OpenCL"
# hashcat's options for these modules, as the corpus compiled them (tests/corpus/MANIFEST.tsv).
opts="-D KERNEL_STATIC -I$T/hashcat/OpenCL -D INCLUDE_PATH=. -D XM2S(x)=#x -D M2S(x)=XM2S(x) -D LOCAL_MEM_TYPE=2 -D VENDOR_ID=64 -D CUDA_ARCH=0 -D HAS_VPERM=0 -D HAS_VADD3=0 -D HAS_VBFE=0 -D HAS_BFE=0 -D HAS_LOP3=0 -D HAS_MOV64=0 -D HAS_PRMT=0 -D VECT_SIZE=1 -D DEVICE_TYPE=2 -D DGST_R0=0 -D DGST_R1=1 -D DGST_R2=2 -D DGST_R3=3 -D DGST_ELEM=16 -D KERN_TYPE=0 -D ATTACK_EXEC=11 -D ATTACK_KERN=0 -D ATTACK_MODE=0"
for h in ${HASHCAT:-m13711 m06211}; do
    echo "== build: hashcat $h"
    OPENCL_LAYERS=$L $B --rounds 3 --options "$opts" $h-pure.cl "$T/corpus/hashcat__$h-pure.spv"
done
fi
if want cost; then
    echo "== cost: the layer cold and warm against the driver taking the PTX the layer made"
    OPENCL_LAYERS=$L "$G/bin/layer-cost" --platform NVIDIA --rounds 9 "$G/modules/demo.spv" "$G/modules/demo.a.spv" \
        "$T/corpus/pocl-tests__tests__kernel__test_convert_type_16.spv" \
        "$T/corpus/pocl-tests__tests__kernel__test_convert_type_16.a.spv"
    OPENCL_LAYERS=$L "$G/bin/layer-cost" --platform NVIDIA --rounds "${COST_ROUNDS:-3}" \
        "$T/corpus/hashcat__m13711-pure.spv" "$T/corpus/hashcat__m13711-pure.a.spv"
fi
if want llvm19 && [ -d ../llvm19 ]; then
for m in layer_speed.cl:layer_speed:"triad math_float math_double" z2.cl:erlang-cl__examples__z2:z2 mul4x4.cl:erlang-cl__examples__mul4x4:mul4x4; do
    src=${m%%:*}; rest=${m#*:}; b=${rest%%:*}; kernels=${rest#*:}
    for back in llvm15 llvm19 opt19; do
        echo "== llvm19: $b, the driver's own build against $back's PTX"
        # shellcheck disable=SC2086 # a list of kernel names
        $B --rounds 15 --binary "../llvm19/$b.$back.ptx" "$src" "$b.spv" $kernels
    done
done
fi
cd "$G"
if want programs; then
P=$G/bin/layer-programs
echo "== program semantics through the layer"
OPENCL_LAYERS=$L $P --platform NVIDIA stale modules/demo.spv scale_float 2>&1 | grep -E "^(ok|FAIL|stale)"
OPENCL_LAYERS=$L $P --platform NVIDIA spec modules/spec_constants.spv 2>&1 | grep -vE "^spvcond layer"
OPENCL_LAYERS=$L $P --platform NVIDIA queries modules/demo.spv scale_float 2>&1 | grep -vE "^spvcond layer"
OPENCL_LAYERS=$L $P --platform NVIDIA link modules/link_library.spv modules/link_user.spv twice_plus_one 2>&1 | grep -vE "^spvcond layer"
fi
if want cts && [ -x cts/test_spirv_new ]; then
echo "== test_spirv_new through the layer"
tar xJf cts/spirv_bin.tar.xz -C cts
OPENCL_LAYERS=$L SPVCOND_LAYER_CACHE_DISABLE=1 python3 cts/run_cts.py cts/test_spirv_new 0 --jobs 8 --json "$T/cts-nvidia.json" \
    --logs "$T/cts-logs" -- --spirv-binaries-path "$G/cts/spirv_bin" | grep -v ": pass$"
[ -n "${OUT:-}" ] && cp "$T/cts-nvidia.json" "$OUT/" && tar cJf "$OUT/cts-nvidia-logs.tar.xz" -C "$T" cts-logs
echo "== test_spirv_new without the layer"
python3 cts/run_cts.py cts/test_spirv_new 0 --jobs 8 -- --spirv-binaries-path "$G/cts/spirv_bin" | tail -1
fi
if want offline; then
# clang-15 and llvm-spirv-15 from the bundle's Debian packages (clang finds its OpenCL headers beside itself).
export CLANG=$T/deps/usr/lib/llvm-15/bin/clang LLVM_SPIRV=$T/deps/usr/bin/llvm-spirv-15
tar xJf cts/opencl-headers.tar.xz -C "$T/deps"
# Each suite from OpenCL C by the driver and in SPIR-V through the layer, side by side (each run with CTS_JOBS
# processes); each suite's verdicts, seconds and the output of every test that did not pass in $OUT/cts-SUITE.tar.xz
# (driver.json, layer.json, ...), its summary printed when both runs end.
both() {
    suite=$1 R=$T/cts-$1
    mkdir -p "$R/kernels"
    case $suite in test_bruteforce) args=-w ;; test_image_streams) args=CL_FILTER_NEAREST ;; *) args= ;; esac
    # CTS_DEADLINE: seconds each run of a suite may take (the tests left then are "not run")
    limit=; [ -n "${CTS_DEADLINE:-}" ] && limit="--deadline $CTS_DEADLINE"
    # CTS_TESTS_SUITE: the tests of SUITE to run, separated by commas (default: all)
    eval "tests=\${CTS_TESTS_$suite:-}"
    python3 cts/run_cts.py "cts/$suite" 0 --jobs "${CTS_JOBS:-8}" $limit --json "$R/driver.json" \
        --times "$R/driver-times.json" --logs "$R/logs-driver" ${tests:+--tests "$tests"} -- $args \
        > "$R/driver.txt" 2>&1 &
    OPENCL_LAYERS=$L SPVCOND_LAYER_CACHE_DISABLE=1 python3 cts/run_cts.py "cts/$suite" 0 --jobs "${CTS_JOBS:-8}" $limit \
        --json "$R/layer.json" --times "$R/layer-times.json" --logs "$R/logs-layer" ${tests:+--tests "$tests"} \
        -- $args --compilation-mode spir-v --compilation-cache-path "$R/kernels" \
        --compilation-program "python3 $G/cts/cl_offline_compiler.py" --disable-spirv-validation > "$R/layer.txt" 2>&1
    wait
    for way in driver layer; do
        echo "== $suite, $way: $(tail -1 "$R/$way.txt")"
        grep -vE ": pass \(|passed, " "$R/$way.txt"
    done
    rm -rf "$R/kernels"
    [ -n "${OUT:-}" ] && tar cJf "$OUT/cts-$suite.tar.xz" -C "$T" "cts-$suite"
}
for suite in ${CTS_SUITES:-test_basic test_printf test_bruteforce test_image_streams test_samplerless_reads test_kernel_image_methods}; do
    [ -x "cts/$suite" ] && both "$suite" > "$T/both-$suite.txt" 2>&1 &
done
wait
cat "$T"/both-*.txt 2>/dev/null
fi
if want probe; then
echo "== probe: NVIDIA's compiler and the layer on images, the offset, vector printf, precision"
P=$T/probe; mkdir -p "$P"
for f in probe/*.cl; do
    b=$(basename "$f" .cl); std=CL1.2; case $b in images_read_write | work_items) std=CL3.0 ;; esac
    bin/opencl-binary --platform NVIDIA --options "-cl-std=$std" "$f" "$P/$b.driver.ptx" > "$P/$b.driver.log" 2>&1
    echo "$b from OpenCL C: rc=$?"
    [ -f "probe/$b.spv" ] || continue
    mkdir -p "$P/$b.layer"
    SPVCOND_LAYER_DUMP=$P/$b.layer OPENCL_LAYERS=$L $H --platform NVIDIA --create-only "probe/$b.spv" > "$P/$b.layer.log" 2>&1
    echo "$b through the layer: rc=$? $(grep -m1 program "$P/$b.layer.log")"
done
echo "== offset through the layer: get_global_offset(1), group ids, global size at offset 4"; run --offset 4 probe/offset.spv offset_y:int group_id:int global_size:int
echo "== vector printf from OpenCL C, by the driver"; bin/opencl-binary --platform NVIDIA --run vector_printf probe/vector_printf.cl "$P/vp.ptx" 2>&1
echo "== vector printf through the layer"; run probe/vector_printf.spv vector_printf
echo "== printf in a kernel with a constant pointer (expected x=3 s=constant)"; run probe/constant_printf.spv constant_printf:int
echo "== double nan(0UL) from OpenCL C, by the driver (expected nan)"
bin/opencl-binary --platform NVIDIA --run double_nan probe/double_nan.cl "$P/double_nan.ptx" 2>&1
echo "== double nan(0UL) through the layer"; run probe/double_nan.spv double_nan
echo "== sin, cos, tan, sincos of float4 (huge arguments) and double2, from OpenCL C, by the driver"
bin/opencl-binary --platform NVIDIA --run vector_trig probe/vector_math.cl "$P/vector_trig.ptx" 2>&1
bin/opencl-binary --platform NVIDIA --run acospi_nan probe/vector_math.cl "$P/acospi_nan.ptx" 2>&1
bin/opencl-binary --platform NVIDIA --run corrections probe/vector_math.cl "$P/corrections.ptx" 2>&1
echo "== the same through the layer (element by element from libdevice)"; run probe/vector_math.spv vector_trig acospi_nan corrections
echo "== the same through the layer with libclc's math alone"
SPVCOND_LAYER_LIBDEVICE=none OPENCL_LAYERS=$L $H --platform NVIDIA probe/vector_math.spv vector_trig 2>&1; echo "rc=$?"
for k in subnormals huge_trig; do
    echo "== $k from OpenCL C, by the driver"; bin/opencl-binary --platform NVIDIA --run $k probe/subnormals.cl "$P/$k.ptx" 2>&1
    echo "== $k through the layer"; run probe/subnormals.spv $k
done
[ -n "${OUT:-}" ] && tar cJf "$OUT/probe.tar.xz" -C "$P" .
fi
if want vulkan && [ -d vulkan ]; then
echo "== Vulkan: NVIDIA's driver through Debian's loader (1.3.239), the layer on the vulkan-layer suite's shaders"
# The loader and GL dispatch libraries unpacked into / (the device machine's own advice), the driver's manifest
# named where the loader does not find one.
for d in gl/*.deb; do dpkg -x "$d" /; done; ldconfig
ls /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null
[ -n "$(ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* 2>/dev/null)" ] ||
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
ls /dev/nvidia* /dev/dri 2>&1 | tr '\n' ' '; echo
V="env VK_LAYER_PATH=$G/vulkan VK_INSTANCE_LAYERS=VK_LAYER_SPVCOND_specialize SPVCOND_LAYER_DEBUG=1"
ALL="scale_float scale_double scale_half scale_int64 scale_subgroup load_half"
echo "-- without the layer, the merged plain module, nothing enabled"; bin/vulkan-compute vulkan/all.spv scale_float 2>&1
for f in "" "--enable shaderFloat64 --enable storageBuffer16BitAccess" "--enable shaderFloat16 --enable shaderInt64" \
    "--enable shaderFloat64 --enable shaderFloat16 --enable shaderInt64 --enable storageBuffer16BitAccess"; do
    echo "-- through the layer, the annotated module: $f"
    $V bin/vulkan-compute $f vulkan/all.a.spv $ALL 2>&1
    echo "-- chained into the pipelines: $f"
    $V bin/vulkan-compute $f --chained vulkan/all.a.spv $ALL 2>&1 | grep -v "^spvcond"
    echo "-- shader objects (vkCreateShadersEXT): $f"
    $V bin/vulkan-compute $f --shader-objects vulkan/all.a.spv $ALL 2>&1 | grep -v "^spvcond"
done
echo "-- shader objects without the layer, the plain merged module, everything enabled"
bin/vulkan-compute --enable shaderFloat64 --enable shaderFloat16 --enable shaderInt64 --enable storageBuffer16BitAccess \
    --shader-objects vulkan/all.spv $ALL 2>&1
echo "-- guarded code (refine.comp: x/2 + 32 float, + 16 half, + 64 double)"
for f in "" "--enable shaderFloat16" "--enable shaderFloat64 --enable shaderFloat16"; do
    $V bin/vulkan-compute $f vulkan/refine.a.spv refine 2>&1 | grep -v "^spvcond"
done
echo "-- each shader alone, without the layer (one module per feature set)"
for n in scale_float:"" scale_double:"--enable shaderFloat64" scale_half:"--enable shaderFloat16" \
    scale_int64:"--enable shaderInt64" scale_subgroup:"" load_half:"--enable storageBuffer16BitAccess"; do
    bin/vulkan-compute ${n#*:} vulkan/${n%%:*}.spv ${n%%:*} 2>&1 | tail -1
done
echo "-- vkCreateShaderModule, 2001 times: the driver alone (plain merged), the layer (plain, annotated)"
bin/vulkan-compute --enable shaderFloat64 --enable shaderFloat16 --time-modules 2001 vulkan/all.spv scale_float 2>&1 | grep vkCreate
env VK_LAYER_PATH=$G/vulkan VK_INSTANCE_LAYERS=VK_LAYER_SPVCOND_specialize bin/vulkan-compute --enable shaderFloat64 --enable shaderFloat16 --time-modules 2001 vulkan/all.spv scale_float 2>&1 | grep vkCreate
env VK_LAYER_PATH=$G/vulkan VK_INSTANCE_LAYERS=VK_LAYER_SPVCOND_specialize bin/vulkan-compute --enable shaderFloat64 --enable shaderFloat16 --time-modules 2001 vulkan/all.a.spv scale_float 2>&1 | grep vkCreate
fi
rm -rf "$T"
echo "nvidia-run: done"
