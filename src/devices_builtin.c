/* SPDX-License-Identifier: MIT */
/* DPC++'s device configuration table (DeviceConfigFile.td, intel/llvm 89110f9e, mid-2024), as
 * summarized in dpcpp.md section 2. Intel entries list what that snapshot lists (esimd, fp16, fp64
 * where present, atomic64); spec/devices.md says how unlisted aspects are treated. */
#include "devices.h"

#include "architectures.h"

#include <string.h>

/* Aspect numbers (src/aspects.c). */
enum {
    GPU = 2, FP16 = 5, FP64 = 6, ONLINE_COMPILER = 10, ONLINE_LINKER = 11, QUEUE_PROFILING = 12,
    USM_DEVICE = 13, USM_HOST = 14, USM_SHARED = 15, USM_SYSTEM = 17, PCI_ADDRESS = 18, MAX_MEM_BANDWIDTH = 24,
    USM_ATOMIC_HOST = 26, USM_ATOMIC_SHARED = 27, ATOMIC64 = 28, UUID = 29, NATIVE_ASSERT = 31,
    CUDA_ASYNC_BARRIER = 34, FREE_MEMORY = 36, DEVICE_ID = 37, MEMORY_CLOCK_RATE = 38, MEMORY_BUS_WIDTH = 39,
    BINDLESS_IMAGES = 42, BINDLESS_SHARED_USM = 43, BINDLESS_1D_USM = 44, BINDLESS_2D_USM = 45,
    EXTERNAL_MEMORY_IMPORT = 46, EXTERNAL_SEMAPHORE_IMPORT = 48, MIPMAP = 50, MIPMAP_ANISOTROPY = 51,
    MIPMAP_LEVEL_REFERENCE = 52, ESIMD = 53, BALLOT_GROUP = 54, FIXED_SIZE_GROUP = 55, OPPORTUNISTIC_GROUP = 56,
    GRAPH = 61, LIMITED_GRAPH = 63, CUBEMAP = 65, CUBEMAP_SEAMLESS = 66, CUDA_CLUSTER_GROUP = 75,
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

/* Groups of targets that share one entry. Names are separated by blanks. */
static const struct group {
    const char *names;
    const uint32_t *aspects;
    size_t aspect_count;
    const uint32_t *sub_group_sizes;
    size_t sub_group_size_count;
    bool may_support_other_aspects;
} groups[] = {
    {"x86_64 spir64 spir64_gen spir64_x86_64 spir64_fpga", NONE, NONE, true},
    {"intel_gpu_pvc intel_gpu_pvc_vg", N(intel_fp64), N(sg_16_32), false},
    {"intel_gpu_arl_h intel_gpu_mtl_h intel_gpu_mtl_u intel_gpu_cml intel_gpu_aml intel_gpu_whl intel_gpu_glk "
     "intel_gpu_apl intel_gpu_cfl intel_gpu_kbl intel_gpu_skl intel_gpu_bdw", N(intel_fp64), N(sg_8_16_32), false},
    {"intel_gpu_acm_g10 intel_gpu_acm_g11 intel_gpu_acm_g12 intel_gpu_dg1 intel_gpu_adl_n intel_gpu_adl_p "
     "intel_gpu_adl_s intel_gpu_rkl intel_gpu_tgllp intel_gpu_ehl intel_gpu_icllp", N(intel_no_fp64), N(sg_8_16_32),
     false},
    {"nvidia_gpu_sm_50 nvidia_gpu_sm_52", N(cuda_sm50), N(sg_32), true},
    {"nvidia_gpu_sm_53", N(cuda_sm53), N(sg_32), true},
    {"nvidia_gpu_sm_60 nvidia_gpu_sm_61 nvidia_gpu_sm_62 nvidia_gpu_sm_70 nvidia_gpu_sm_72 nvidia_gpu_sm_75",
     N(cuda_sm60), N(sg_32), true},
    {"nvidia_gpu_sm_80 nvidia_gpu_sm_86 nvidia_gpu_sm_87 nvidia_gpu_sm_89", N(cuda_sm80), N(sg_32), true},
    {"nvidia_gpu_sm_90 nvidia_gpu_sm_90a", N(cuda_sm90), N(sg_32), true},
    {"amd_gpu_gfx908 amd_gpu_gfx940", N(hip_graph), N(sg_64), false},
    {"amd_gpu_gfx90a", N(hip_graph_assert), N(sg_64), false},
    {"amd_gpu_gfx1030 amd_gpu_gfx1100", N(hip_graph), N(sg_32_64), false},
    {"amd_gpu_gfx906 amd_gpu_gfx90c", N(hip_usm), N(sg_64), false},
    {"amd_gpu_gfx1010 amd_gpu_gfx1011 amd_gpu_gfx1012 amd_gpu_gfx1013 amd_gpu_gfx1032 amd_gpu_gfx1033 "
     "amd_gpu_gfx1034 amd_gpu_gfx1035 amd_gpu_gfx1036 amd_gpu_gfx1101 amd_gpu_gfx1102 amd_gpu_gfx1103 "
     "amd_gpu_gfx1150 amd_gpu_gfx1151", N(hip_usm), N(sg_32_64), false},
    {"amd_gpu_gfx1031", N(hip_usm_no_free_memory), N(sg_32_64), false},
    {"amd_gpu_gfx700 amd_gpu_gfx701 amd_gpu_gfx702 amd_gpu_gfx801 amd_gpu_gfx802 amd_gpu_gfx803 amd_gpu_gfx805 "
     "amd_gpu_gfx810", N(hip_min), N(sg_16), false},
    {"amd_gpu_gfx900 amd_gpu_gfx902 amd_gpu_gfx904 amd_gpu_gfx909", N(hip_min), N(sg_64), false},
    {"amd_gpu_gfx941 amd_gpu_gfx942 amd_gpu_gfx1200 amd_gpu_gfx1201", NONE, NONE, false},
};

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

size_t
spvcond_builtin_device_count(void)
{
    size_t count = 0;
    char buf[64];
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
        for (size_t n = 0; nth_name(groups[g].names, n, buf, sizeof(buf)); n++)
            count++;
    return count;
}

/* Fills `out` with the i-th built-in device; `name_buf` receives the name. */
static bool
builtin_device(size_t index, spvcond_device_info *out, char *name_buf, size_t size)
{
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        for (size_t n = 0; nth_name(groups[g].names, n, name_buf, size); n++) {
            if (index-- != 0)
                continue;
            memset(out, 0, sizeof(*out));
            out->aspects = groups[g].aspects;
            out->aspect_count = groups[g].aspect_count;
            out->sub_group_sizes = groups[g].sub_group_sizes;
            out->sub_group_size_count = groups[g].sub_group_size_count;
            out->may_support_other_aspects = groups[g].may_support_other_aspects;
            return true;
        }
    }
    return false;
}

/* The name goes into the caller's buffer: the table stores names as shared lists, not one string each. */
const char *
spvcond_builtin_device_name(size_t index, char *buf, size_t size)
{
    spvcond_device_info info;
    return builtin_device(index, &info, buf, size) ? buf : NULL;
}

bool
spvcond_builtin_device_find(const char *name, spvcond_device_info *out)
{
    char buf[64];
    for (size_t i = 0; builtin_device(i, out, buf, sizeof(buf)); i++) {
        if (strcmp(buf, name) == 0) {
            out->name = NULL;
            struct spvcond_architecture a; /* a GPU target's name is its architecture's */
            if (spvcond_architecture_by_name(name, &a)) {
                out->has_architecture = true;
                out->category = a.category;
                out->family = a.family;
                out->architecture = a.architecture;
            }
            return true;
        }
    }
    return false;
}
