/* SPDX-License-Identifier: MIT */
/* The built-in devices (spec/devices.md): DPC++'s targets, with their aspects as the hardware has them.
 * Two tables share the generic, NVIDIA and AMD entries: the default one, whose Intel GPU entries
 * follow Intel's Linux driver (compute-runtime: each platform's capability table, and what its OpenCL
 * device reports for every platform), and DPC++'s DeviceConfigFile.td as of intel/llvm 89110f9e
 * (mid-2024, dpcpp.md section 2), whose Intel entries list only esimd, fp16, fp64 and atomic64
 * ("dpcpp:" before a name). Each aspect of an entry says where it comes from. */
#include "devices/devices.h"
#include "support/sized.h"

#include "registry/architectures.h"
#include "registry/aspects.h"

#include <string.h>

/* Short names of the aspects the rows below use (registry/aspect_table.h has their numbers). */
enum {
    GPU = SPVCOND_ASPECT_GPU, FP16 = SPVCOND_ASPECT_FP16, FP64 = SPVCOND_ASPECT_FP64, IMAGE = SPVCOND_ASPECT_IMAGE,
    ONLINE_COMPILER = SPVCOND_ASPECT_ONLINE_COMPILER, ONLINE_LINKER = SPVCOND_ASPECT_ONLINE_LINKER,
    QUEUE_PROFILING = SPVCOND_ASPECT_QUEUE_PROFILING, USM_DEVICE = SPVCOND_ASPECT_USM_DEVICE_ALLOCATIONS,
    USM_HOST = SPVCOND_ASPECT_USM_HOST_ALLOCATIONS, USM_SHARED = SPVCOND_ASPECT_USM_SHARED_ALLOCATIONS,
    USM_SYSTEM = SPVCOND_ASPECT_USM_SYSTEM_ALLOCATIONS, PCI_ADDRESS = SPVCOND_ASPECT_EXT_INTEL_PCI_ADDRESS,
    MAX_MEM_BANDWIDTH = SPVCOND_ASPECT_EXT_INTEL_MAX_MEM_BANDWIDTH,
    USM_ATOMIC_HOST = SPVCOND_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS,
    USM_ATOMIC_SHARED = SPVCOND_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS, ATOMIC64 = SPVCOND_ASPECT_ATOMIC64,
    UUID = SPVCOND_ASPECT_EXT_INTEL_DEVICE_INFO_UUID, NATIVE_ASSERT = SPVCOND_ASPECT_EXT_ONEAPI_NATIVE_ASSERT,
    CUDA_ASYNC_BARRIER = SPVCOND_ASPECT_EXT_ONEAPI_CUDA_ASYNC_BARRIER,
    FREE_MEMORY = SPVCOND_ASPECT_EXT_INTEL_FREE_MEMORY, DEVICE_ID = SPVCOND_ASPECT_EXT_INTEL_DEVICE_ID,
    MEMORY_CLOCK_RATE = SPVCOND_ASPECT_EXT_INTEL_MEMORY_CLOCK_RATE,
    MEMORY_BUS_WIDTH = SPVCOND_ASPECT_EXT_INTEL_MEMORY_BUS_WIDTH,
    LEGACY_IMAGE = SPVCOND_ASPECT_EXT_INTEL_LEGACY_IMAGE,
    BINDLESS_IMAGES = SPVCOND_ASPECT_EXT_ONEAPI_BINDLESS_IMAGES,
    BINDLESS_SHARED_USM = SPVCOND_ASPECT_EXT_ONEAPI_BINDLESS_IMAGES_SHARED_USM,
    BINDLESS_1D_USM = SPVCOND_ASPECT_EXT_ONEAPI_BINDLESS_IMAGES_1D_USM,
    BINDLESS_2D_USM = SPVCOND_ASPECT_EXT_ONEAPI_BINDLESS_IMAGES_2D_USM,
    EXTERNAL_MEMORY_IMPORT = SPVCOND_ASPECT_EXT_ONEAPI_EXTERNAL_MEMORY_IMPORT,
    EXTERNAL_SEMAPHORE_IMPORT = SPVCOND_ASPECT_EXT_ONEAPI_EXTERNAL_SEMAPHORE_IMPORT,
    MIPMAP = SPVCOND_ASPECT_EXT_ONEAPI_MIPMAP, MIPMAP_ANISOTROPY = SPVCOND_ASPECT_EXT_ONEAPI_MIPMAP_ANISOTROPY,
    MIPMAP_LEVEL_REFERENCE = SPVCOND_ASPECT_EXT_ONEAPI_MIPMAP_LEVEL_REFERENCE,
    ESIMD = SPVCOND_ASPECT_EXT_INTEL_ESIMD, BALLOT_GROUP = SPVCOND_ASPECT_EXT_ONEAPI_BALLOT_GROUP,
    FIXED_SIZE_GROUP = SPVCOND_ASPECT_EXT_ONEAPI_FIXED_SIZE_GROUP,
    OPPORTUNISTIC_GROUP = SPVCOND_ASPECT_EXT_ONEAPI_OPPORTUNISTIC_GROUP, GRAPH = SPVCOND_ASPECT_EXT_ONEAPI_GRAPH,
    LIMITED_GRAPH = SPVCOND_ASPECT_EXT_ONEAPI_LIMITED_GRAPH, CUBEMAP = SPVCOND_ASPECT_EXT_ONEAPI_CUBEMAP,
    CUBEMAP_SEAMLESS = SPVCOND_ASPECT_EXT_ONEAPI_CUBEMAP_SEAMLESS_FILTERING,
    CUDA_CLUSTER_GROUP = SPVCOND_ASPECT_EXT_ONEAPI_CUDA_CLUSTER_GROUP,
};

#define ALL_USM USM_DEVICE, USM_HOST, USM_SHARED, USM_SYSTEM, USM_ATOMIC_HOST, USM_ATOMIC_SHARED
#define CUDA_MIN ALL_USM, GPU, FP64, ONLINE_COMPILER, ONLINE_LINKER, QUEUE_PROFILING, PCI_ADDRESS, \
    MAX_MEM_BANDWIDTH, MEMORY_BUS_WIDTH, UUID, NATIVE_ASSERT, FREE_MEMORY, DEVICE_ID, MEMORY_CLOCK_RATE, \
    BALLOT_GROUP, FIXED_SIZE_GROUP, OPPORTUNISTIC_GROUP, GRAPH, LIMITED_GRAPH
#define CUDA_BINDLESS BINDLESS_IMAGES, BINDLESS_SHARED_USM, BINDLESS_1D_USM, BINDLESS_2D_USM, \
    EXTERNAL_MEMORY_IMPORT, EXTERNAL_SEMAPHORE_IMPORT, MIPMAP, MIPMAP_ANISOTROPY, MIPMAP_LEVEL_REFERENCE, CUBEMAP, \
    CUBEMAP_SEAMLESS
#define HIP_MIN_BUT_FREE_MEMORY GPU, FP64, ONLINE_COMPILER, ONLINE_LINKER, QUEUE_PROFILING, PCI_ADDRESS, \
    MAX_MEM_BANDWIDTH, DEVICE_ID, MEMORY_CLOCK_RATE, MEMORY_BUS_WIDTH
#define HIP_MIN HIP_MIN_BUT_FREE_MEMORY, FREE_MEMORY

static const uint32_t intel_fp64[] = {ESIMD, FP16, FP64, ATOMIC64};
static const uint32_t intel_no_fp64[] = {ESIMD, FP16, ATOMIC64};

/* What compute-runtime's OpenCL device reports on every platform (DRIVER), with OpenCL 2.1 features
 * (USM: cl_intel_unified_shared_memory), images (IMAGES) as the platform's capability table says. */
#define DRIVER GPU, ONLINE_COMPILER, ONLINE_LINKER, QUEUE_PROFILING, ESIMD, FP16
#define USM USM_DEVICE, USM_HOST, USM_SHARED
#define IMAGES IMAGE, LEGACY_IMAGE
static const uint32_t hw_pvc[] = {DRIVER, USM, USM_SYSTEM, FP64, ATOMIC64};
static const uint32_t hw_fp64[] = {DRIVER, USM, IMAGES, FP64, ATOMIC64};
static const uint32_t hw_no_fp64[] = {DRIVER, USM, IMAGES, ATOMIC64};
static const uint32_t hw_no_fp64_no_atomic64[] = {DRIVER, IMAGES};        /* ehl: no OpenCL 2.1 features */
static const uint32_t hw_fp64_no_atomic64[] = {DRIVER, IMAGES, FP64};     /* glk, apl: the same */
static const uint32_t cuda_sm50[] = {CUDA_MIN, CUDA_BINDLESS};
static const uint32_t cuda_sm53[] = {CUDA_MIN, CUDA_BINDLESS, FP16};
static const uint32_t cuda_sm60[] = {CUDA_MIN, CUDA_BINDLESS, FP16, ATOMIC64};
static const uint32_t cuda_sm80[] = {CUDA_MIN, CUDA_BINDLESS, FP16, ATOMIC64, CUDA_ASYNC_BARRIER};
static const uint32_t cuda_sm90[] = {CUDA_MIN, CUDA_BINDLESS, FP16, ATOMIC64, CUDA_ASYNC_BARRIER, CUDA_CLUSTER_GROUP};
static const uint32_t hip_graph[] = {HIP_MIN, ALL_USM, UUID, GRAPH, LIMITED_GRAPH};
static const uint32_t hip_graph_assert[] = {HIP_MIN, ALL_USM, UUID, GRAPH, LIMITED_GRAPH, NATIVE_ASSERT};
static const uint32_t hip_usm[] = {HIP_MIN, ALL_USM};
static const uint32_t hip_usm_no_free_memory[] = {HIP_MIN_BUT_FREE_MEMORY, ALL_USM};
static const uint32_t hip_min[] = {HIP_MIN};

static const uint32_t sg_8_16_32[] = {8, 16, 32};
static const uint32_t sg_16_32[] = {16, 32};
static const uint32_t sg_32[] = {32};
static const uint32_t sg_64[] = {64};
static const uint32_t sg_32_64[] = {32, 64};
static const uint32_t sg_16[] = {16};

#define N(a) a, sizeof(a) / sizeof(a[0])
#define NONE NULL, 0

/* Groups of targets that share one entry. Names are separated by blanks. `source`: the compute-runtime
 * file whose capability table gives the entry's fp64, atomic64, image and USM facts (NULL: DPC++'s). */
struct group {
    const char *names;
    const uint32_t *aspects;
    size_t aspect_count;
    const uint32_t *sub_group_sizes;
    size_t sub_group_size_count;
    bool may_support_other_aspects;
    const char *source;
};

static const struct group generic[] = {
    {"x86_64 spir64 spir64_gen spir64_x86_64 spir64_fpga", NONE, NONE, true, NULL},
};

static const struct group dpcpp_intel[] = {
    {"intel_gpu_pvc intel_gpu_pvc_vg", N(intel_fp64), N(sg_16_32), false, NULL},
    {"intel_gpu_arl_h intel_gpu_mtl_h intel_gpu_mtl_u intel_gpu_cml intel_gpu_aml intel_gpu_whl intel_gpu_glk "
     "intel_gpu_apl intel_gpu_cfl intel_gpu_kbl intel_gpu_skl intel_gpu_bdw", N(intel_fp64), N(sg_8_16_32), false, NULL},
    {"intel_gpu_acm_g10 intel_gpu_acm_g11 intel_gpu_acm_g12 intel_gpu_dg1 intel_gpu_adl_n intel_gpu_adl_p "
     "intel_gpu_adl_s intel_gpu_rkl intel_gpu_tgllp intel_gpu_ehl intel_gpu_icllp", N(intel_no_fp64), N(sg_8_16_32),
     false, NULL},
};

#define CR "compute-runtime shared/source/"
static const struct group hardware_intel[] = {
    {"intel_gpu_pvc intel_gpu_pvc_vg", N(hw_pvc), N(sg_16_32), false, CR "xe_hpc_core/hw_info_pvc.cpp"},
    {"intel_gpu_arl_h", N(hw_fp64), N(sg_8_16_32), false, CR "xe_hpg_core/hw_info_arl.cpp"},
    {"intel_gpu_mtl_h intel_gpu_mtl_u", N(hw_fp64), N(sg_8_16_32), false, CR "xe_hpg_core/hw_info_mtl.cpp"},
    {"intel_gpu_cml intel_gpu_whl intel_gpu_cfl", N(hw_fp64), N(sg_8_16_32), false, CR "gen9/hw_info_cfl.cpp"},
    {"intel_gpu_aml intel_gpu_kbl", N(hw_fp64), N(sg_8_16_32), false, CR "gen9/hw_info_kbl.cpp"},
    {"intel_gpu_glk", N(hw_fp64_no_atomic64), N(sg_8_16_32), false, CR "gen9/hw_info_glk.cpp"},
    {"intel_gpu_apl", N(hw_fp64_no_atomic64), N(sg_8_16_32), false, CR "gen9/hw_info_bxt.cpp"},
    {"intel_gpu_skl", N(hw_fp64), N(sg_8_16_32), false, CR "gen9/hw_info_skl.cpp"},
    {"intel_gpu_bdw", N(hw_fp64), N(sg_8_16_32), false, CR "gen8/hw_info_bdw.cpp"},
    {"intel_gpu_acm_g10 intel_gpu_acm_g11 intel_gpu_acm_g12", N(hw_no_fp64), N(sg_8_16_32), false,
     CR "xe_hpg_core/hw_info_dg2.cpp"},
    {"intel_gpu_dg1", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_dg1.cpp"},
    {"intel_gpu_adl_n", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_adln.cpp"},
    {"intel_gpu_adl_p", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_adlp.cpp"},
    {"intel_gpu_adl_s", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_adls.cpp"},
    {"intel_gpu_rkl", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_rkl.cpp"},
    {"intel_gpu_tgllp", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen12lp/hw_info_tgllp.cpp"},
    {"intel_gpu_ehl", N(hw_no_fp64_no_atomic64), N(sg_8_16_32), false, CR "gen11/hw_info_ehl.cpp"},
    {"intel_gpu_icllp", N(hw_no_fp64), N(sg_8_16_32), false, CR "gen11/hw_info_icllp.cpp"},
};
#define CR_DEVICE "compute-runtime opencl/source/cl_device/cl_device_caps.cpp"

/* NVIDIA GPUs as DPC++'s table has them; DPC++ marks them "may support other aspects", the hardware
 * table does not: CUDA's compute capabilities fix what each has. */
#define NVIDIA_ROWS(others)                                                                                      \
    {"nvidia_gpu_sm_50 nvidia_gpu_sm_52", N(cuda_sm50), N(sg_32), others, NULL},                                \
    {"nvidia_gpu_sm_53", N(cuda_sm53), N(sg_32), others, NULL},                                                 \
    {"nvidia_gpu_sm_60 nvidia_gpu_sm_61 nvidia_gpu_sm_62 nvidia_gpu_sm_70 nvidia_gpu_sm_72 nvidia_gpu_sm_75",   \
     N(cuda_sm60), N(sg_32), others, NULL},                                                                     \
    {"nvidia_gpu_sm_80 nvidia_gpu_sm_86 nvidia_gpu_sm_87 nvidia_gpu_sm_89", N(cuda_sm80), N(sg_32), others, NULL}, \
    {"nvidia_gpu_sm_90 nvidia_gpu_sm_90a", N(cuda_sm90), N(sg_32), others, NULL}
static const struct group nvidia_dpcpp[] = {NVIDIA_ROWS(true)};
static const struct group nvidia_hardware[] = {NVIDIA_ROWS(false)};

/* AMD GPUs as DPC++'s table has them (no fp16, no atomic64; gfx941, gfx942, gfx1200, gfx1201 without
 * aspects or sub-group sizes), */
static const struct group amd_dpcpp[] = {
    {"amd_gpu_gfx908 amd_gpu_gfx940", N(hip_graph), N(sg_64), false, NULL},
    {"amd_gpu_gfx90a", N(hip_graph_assert), N(sg_64), false, NULL},
    {"amd_gpu_gfx1030 amd_gpu_gfx1100", N(hip_graph), N(sg_32_64), false, NULL},
    {"amd_gpu_gfx906 amd_gpu_gfx90c", N(hip_usm), N(sg_64), false, NULL},
    {"amd_gpu_gfx1010 amd_gpu_gfx1011 amd_gpu_gfx1012 amd_gpu_gfx1013 amd_gpu_gfx1032 amd_gpu_gfx1033 "
     "amd_gpu_gfx1034 amd_gpu_gfx1035 amd_gpu_gfx1036 amd_gpu_gfx1101 amd_gpu_gfx1102 amd_gpu_gfx1103 "
     "amd_gpu_gfx1150 amd_gpu_gfx1151", N(hip_usm), N(sg_32_64), false, NULL},
    {"amd_gpu_gfx1031", N(hip_usm_no_free_memory), N(sg_32_64), false, NULL},
    {"amd_gpu_gfx700 amd_gpu_gfx701 amd_gpu_gfx702 amd_gpu_gfx801 amd_gpu_gfx802 amd_gpu_gfx803 amd_gpu_gfx805 "
     "amd_gpu_gfx810", N(hip_min), N(sg_16), false, NULL},
    {"amd_gpu_gfx900 amd_gpu_gfx902 amd_gpu_gfx904 amd_gpu_gfx909", N(hip_min), N(sg_64), false, NULL},
    {"amd_gpu_gfx941 amd_gpu_gfx942 amd_gpu_gfx1200 amd_gpu_gfx1201", NONE, NONE, false, NULL},
};

/* and as the hardware is: fp16 from gfx8 on (half arithmetic instructions) and atomic64 everywhere
 * (64-bit global atomics), as AMD's LLVM backend generates code for each processor (AMD_LLVM below,
 * measured with Debian's llc-15); gfx941 and gfx942 are gfx940's architecture (CDNA 3, the registry gives
 * them its value) and get its entry; gfx1200 and gfx1201 (RDNA 4) get the RDNA entries' aspects and both
 * wave sizes (AMDGPUUsage's processor table: wavefrontsize64). */
static const uint32_t hip_graph_hw[] = {HIP_MIN, ALL_USM, UUID, GRAPH, LIMITED_GRAPH, FP16, ATOMIC64};
static const uint32_t hip_graph_assert_hw[] = {HIP_MIN, ALL_USM, UUID, GRAPH, LIMITED_GRAPH, NATIVE_ASSERT, FP16,
                                               ATOMIC64};
static const uint32_t hip_usm_hw[] = {HIP_MIN, ALL_USM, FP16, ATOMIC64};
static const uint32_t hip_usm_no_free_memory_hw[] = {HIP_MIN_BUT_FREE_MEMORY, ALL_USM, FP16, ATOMIC64};
static const uint32_t hip_min_hw[] = {HIP_MIN, FP16, ATOMIC64};
static const uint32_t hip_min_gfx7_hw[] = {HIP_MIN, ATOMIC64};
#define AMD_LLVM "AMD's LLVM backend (llvm/lib/Target/AMDGPU), Debian llc-15 -mcpu=<processor>: "
#define AMDGPU_USAGE "LLVM AMDGPUUsage, processor table: gfx1200, gfx1201 have target feature wavefrontsize64"
static const struct group amd_hardware[] = {
    {"amd_gpu_gfx908 amd_gpu_gfx940 amd_gpu_gfx941 amd_gpu_gfx942", N(hip_graph_hw), N(sg_64), false, AMD_LLVM},
    {"amd_gpu_gfx90a", N(hip_graph_assert_hw), N(sg_64), false, AMD_LLVM},
    {"amd_gpu_gfx1030 amd_gpu_gfx1100", N(hip_graph_hw), N(sg_32_64), false, AMD_LLVM},
    {"amd_gpu_gfx906 amd_gpu_gfx90c", N(hip_usm_hw), N(sg_64), false, AMD_LLVM},
    {"amd_gpu_gfx1010 amd_gpu_gfx1011 amd_gpu_gfx1012 amd_gpu_gfx1013 amd_gpu_gfx1032 amd_gpu_gfx1033 "
     "amd_gpu_gfx1034 amd_gpu_gfx1035 amd_gpu_gfx1036 amd_gpu_gfx1101 amd_gpu_gfx1102 amd_gpu_gfx1103 "
     "amd_gpu_gfx1150 amd_gpu_gfx1151", N(hip_usm_hw), N(sg_32_64), false, AMD_LLVM},
    {"amd_gpu_gfx1200 amd_gpu_gfx1201", N(hip_usm_hw), N(sg_32_64), false, AMDGPU_USAGE},
    {"amd_gpu_gfx1031", N(hip_usm_no_free_memory_hw), N(sg_32_64), false, AMD_LLVM},
    {"amd_gpu_gfx700 amd_gpu_gfx701 amd_gpu_gfx702", N(hip_min_gfx7_hw), N(sg_16), false, AMD_LLVM},
    {"amd_gpu_gfx801 amd_gpu_gfx802 amd_gpu_gfx803 amd_gpu_gfx805 amd_gpu_gfx810", N(hip_min_hw), N(sg_16), false,
     AMD_LLVM},
    {"amd_gpu_gfx900 amd_gpu_gfx902 amd_gpu_gfx904 amd_gpu_gfx909", N(hip_min_hw), N(sg_64), false, AMD_LLVM},
};

#define COUNT(a) (sizeof(a) / sizeof(a[0]))

/* The SPIR-V capabilities of a GPU for OpSpecConstantCapabilitiesINTEL (spec/devices.md): what the
 * OpenCL SPIR-V environment requires of every full-profile device (Addresses, Linkage, Kernel, Vector16,
 * Float16Buffer, Int64, Int16, Int8), and those its aspects give: Float16 (fp16), Float64 (fp64),
 * Int64Atomics (atomic64), ImageBasic, LiteralSampler, Sampled1D, SampledBuffer (image). */
enum { CAP_FP16 = 1, CAP_FP64 = 2, CAP_ATOMIC64 = 4, CAP_IMAGE = 8 };
#define BASE_CAPS 4, 5, 6, 7, 8, 11, 22, 39
#define P0 BASE_CAPS /* row m: the base, then what the aspects in mask m give, in order */
static const uint32_t caps_packed[16][15] = {
    {P0},          {P0, 9},          {P0, 10},          {P0, 9, 10},
    {P0, 12},      {P0, 9, 12},      {P0, 10, 12},      {P0, 9, 10, 12},
    {P0, 13, 20, 43, 46},      {P0, 9, 13, 20, 43, 46},      {P0, 10, 13, 20, 43, 46},      {P0, 9, 10, 13, 20, 43, 46},
    {P0, 12, 13, 20, 43, 46},  {P0, 9, 12, 13, 20, 43, 46},  {P0, 10, 12, 13, 20, 43, 46},  {P0, 9, 10, 12, 13, 20, 43, 46},
};

/* A table: the generic targets, the Intel GPUs (as the hardware is, or as DPC++ lists them), NVIDIA, AMD. */
#define PARTS 4
struct table {
    const struct group *part[PARTS];
    size_t count[PARTS];
};

static const struct table hardware = {{generic, hardware_intel, nvidia_hardware, amd_hardware},
                                      {COUNT(generic), COUNT(hardware_intel), COUNT(nvidia_hardware),
                                       COUNT(amd_hardware)}};
static const struct table dpcpp = {{generic, dpcpp_intel, nvidia_dpcpp, amd_dpcpp},
                                   {COUNT(generic), COUNT(dpcpp_intel), COUNT(nvidia_dpcpp), COUNT(amd_dpcpp)}};

#define DPCPP_PREFIX "dpcpp:"

/* The n-th word of a blank-separated list, copied into buf; false past the end. */
static bool
nth_name(const char *list, size_t n, char *buf, size_t size)
{
    const char *p = list;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return false;
        size_t len = strcspn(p, " ");
        if (n-- == 0) {
            if (len >= size)
                return false;
            memcpy(buf, p, len);
            buf[len] = 0;
            return true;
        }
        p += len;
    }
}

/* The index-th device of a table: its group, its name in buf. */
static const struct group *
nth_device(const struct table *t, size_t index, char *buf, size_t size)
{
    for (int k = 0; k < PARTS; k++)
        for (size_t g = 0; g < t->count[k]; g++)
            for (size_t n = 0; nth_name(t->part[k][g].names, n, buf, size); n++)
                if (index-- == 0)
                    return &t->part[k][g];
    return NULL;
}

size_t
spvcond_builtin_device_count(void)
{
    char buf[64];
    size_t count = 0;
    while (nth_device(&hardware, count, buf, sizeof(buf)))
        count++;
    return count;
}

/* The name goes into the caller's buffer: the table stores names as shared lists, not one string each. */
const char *
spvcond_builtin_device_name(size_t index, char *buf, size_t size)
{
    return nth_device(&hardware, index, buf, size) ? buf : NULL;
}

/* A device's name without "dpcpp:", which says it is from DPC++'s table. */
static const char *
bare_name(const char *name)
{
    return strncmp(name, DPCPP_PREFIX, strlen(DPCPP_PREFIX)) == 0 ? name + strlen(DPCPP_PREFIX) : name;
}

/* The group of a device by name ("dpcpp:NAME": DPC++'s table). */
static const struct group *
find_group(const char *name)
{
    const char *bare = bare_name(name);
    const struct table *t = bare != name ? &dpcpp : &hardware;
    char buf[64];
    const struct group *g;
    for (size_t i = 0; (g = nth_device(t, i, buf, sizeof(buf))) != NULL; i++)
        if (strcmp(buf, bare) == 0)
            return g;
    return NULL;
}

static size_t
caps_count(unsigned mask)
{
    return 8 + (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + 4 * (mask >> 3 & 1);
}

/* The registry target and the capabilities (spec/devices.md "Built-in devices"): GPUs by vendor, the
 * x86_64 CPU targets with their target alone (features and capabilities depend on the processor). */
static void
fill_function_variants_facts(const char *bare, const struct group *g, spvcond_device_info *out)
{
    static const struct {
        const char *prefix;
        uint32_t target;
    } vendors[] = {{"intel_gpu_", 0 /* unknown: the registry names no Intel GPU ISA */}, {"nvidia_gpu_", 8 /* nvptx64 */},
                   {"amd_gpu_", 9 /* amdgcn */}};
    if (strcmp(bare, "x86_64") == 0 || strcmp(bare, "spir64_x86_64") == 0) {
        out->has_target = true;
        out->target = 4; /* x86_64 */
        out->has_category = true;
        out->category = SPVCOND_ARCH_CATEGORY_CPU; /* a CPU, of a family no DPC++ target name says */
        return;
    }
    if (strcmp(bare, "spir64_fpga") == 0) { /* an FPGA: none of the registry's categories */
        out->has_category = true;
        out->category = 0;
        return;
    }
    if (strcmp(bare, "spir64_gen") == 0) { /* an Intel GPU, which one decided later (ocloc -device) */
        out->has_target = true;
        out->target = 0;
        out->has_family = true;
        out->category = SPVCOND_ARCH_CATEGORY_GPU;
        out->family = 1;
        return;
    }
    for (size_t v = 0; v < COUNT(vendors); v++) {
        if (strncmp(bare, vendors[v].prefix, strlen(vendors[v].prefix)) != 0)
            continue;
        unsigned mask = 0;
        for (size_t k = 0; k < g->aspect_count; k++)
            mask |= g->aspects[k] == FP16 ? CAP_FP16 : g->aspects[k] == FP64 ? CAP_FP64
                    : g->aspects[k] == ATOMIC64 ? CAP_ATOMIC64 : g->aspects[k] == IMAGE ? CAP_IMAGE : 0;
        out->has_target = true;
        out->target = vendors[v].target;
        out->has_features = true; /* the registry lists no features of these targets */
        out->has_capabilities = true;
        out->capabilities = caps_packed[mask];
        out->capability_count = caps_count(mask);
        return;
    }
}

bool
spvcond_builtin_device_find(const char *name, spvcond_device_info *out)
{
    const struct group *g = name && out ? find_group(name) : NULL;
    if (!g)
        return false;
    spvcond_device_info full = SPVCOND_SIZED(spvcond_device_info);
    full.aspects = g->aspects;
    full.aspect_count = g->aspect_count;
    full.sub_group_sizes = g->sub_group_sizes;
    full.sub_group_size_count = g->sub_group_size_count;
    full.may_support_other_aspects = g->may_support_other_aspects;
    fill_function_variants_facts(bare_name(name), g, &full);
    struct spvcond_architecture a; /* a GPU target's name is its architecture's */
    if (spvcond_architecture_by_name(bare_name(name), &a)) {
        full.has_architecture = true;
        full.category = a.category;
        full.family = a.family;
        full.architecture = a.architecture;
    }
    return SPVCOND_SIZED_OUT(out, &full, spvcond_device_info);
}

const char *
spvcond_builtin_device_aspect_source(const char *name, uint32_t aspect)
{
    const struct group *g = name ? find_group(name) : NULL;
    bool listed = false;
    for (size_t k = 0; g && k < g->aspect_count; k++)
        listed |= g->aspects[k] == aspect;
    if (!listed)
        return NULL;
    static const char dpcpp_td[] = "DPC++ llvm/include/llvm/SYCLLowerIR/DeviceConfigFile.td (intel/llvm 89110f9e)";
    if (strncmp(bare_name(name), "nvidia_gpu_", 11) == 0) /* DPC++'s CUDA entries, by compute capability */
        return aspect == FP16 ? "CUDA C++ Programming Guide, arithmetic instructions: half precision from "
                                "compute capability 5.3 (DPC++ DeviceConfigFile.td lists it from sm_53)"
               : aspect == ATOMIC64 ? "CUDA C++ Programming Guide, atomicAdd() on 64-bit floating point from "
                                      "compute capability 6.0 (DPC++ DeviceConfigFile.td lists atomic64 from sm_60)"
                                    : dpcpp_td;
    const char *bare = bare_name(name);
    if (g->source && strncmp(bare, "amd_gpu_", 8) == 0) {
        if (aspect == FP16)
            return AMD_LLVM "half arithmetic in v_mul_f16 / v_pk_mul_f16 (gfx8 on; gfx7 converts to float)";
        if (aspect == ATOMIC64)
            return AMD_LLVM "64-bit global atomics (global_atomic_add_x2, flat_atomic_add_x2, "
                            "global_atomic_add_u64) on every processor";
        if (strcmp(g->source, AMDGPU_USAGE) == 0)
            return "DPC++ DeviceConfigFile.td's RDNA entries (gfx1101...gfx1151); " AMDGPU_USAGE;
        if (strcmp(bare, "amd_gpu_gfx941") == 0 || strcmp(bare, "amd_gpu_gfx942") == 0)
            return "DPC++ DeviceConfigFile.td's gfx940 entry (the registry gives gfx941 and gfx942 its value)";
        return dpcpp_td;
    }
    if (!g->source || aspect == ESIMD || aspect == FP16)
        return dpcpp_td;
    if (aspect == GPU || aspect == ONLINE_COMPILER || aspect == ONLINE_LINKER || aspect == QUEUE_PROFILING ||
        aspect == USM_DEVICE || aspect == USM_HOST || aspect == USM_SHARED)
        return CR_DEVICE;
    return g->source; /* fp64, atomic64, image, legacy image, system USM: the platform's capability table */
}
