/* SPDX-License-Identifier: MIT */
/* Generated once from dpcpp.md section 1 (intel-sycl-rt 2025.3.2 aspects.def); gaps are removed aspects. */
#include <stdbool.h>
#include <string.h>

#include "registry/aspects.h"
#include "spvcond/spvcond.h"

static const char *const names[] = {
    [0] = "host",
    [1] = "cpu",
    [2] = "gpu",
    [3] = "accelerator",
    [4] = "custom",
    [5] = "fp16",
    [6] = "fp64",
    [7] = "int64_base_atomics",
    [8] = "int64_extended_atomics",
    [9] = "image",
    [10] = "online_compiler",
    [11] = "online_linker",
    [12] = "queue_profiling",
    [13] = "usm_device_allocations",
    [14] = "usm_host_allocations",
    [15] = "usm_shared_allocations",
    [16] = "usm_restricted_shared_allocations",
    [17] = "usm_system_allocations",
    [18] = "ext_intel_pci_address",
    [19] = "ext_intel_gpu_eu_count",
    [20] = "ext_intel_gpu_eu_simd_width",
    [21] = "ext_intel_gpu_slices",
    [22] = "ext_intel_gpu_subslices_per_slice",
    [23] = "ext_intel_gpu_eu_count_per_subslice",
    [24] = "ext_intel_max_mem_bandwidth",
    [25] = "ext_intel_mem_channel",
    [26] = "usm_atomic_host_allocations",
    [27] = "usm_atomic_shared_allocations",
    [28] = "atomic64",
    [29] = "ext_intel_device_info_uuid",
    [30] = "ext_oneapi_srgb",
    [31] = "ext_oneapi_native_assert",
    [32] = "host_debuggable",
    [33] = "ext_intel_gpu_hw_threads_per_eu",
    [34] = "ext_oneapi_cuda_async_barrier",
    [35] = NULL,
    [36] = "ext_intel_free_memory",
    [37] = "ext_intel_device_id",
    [38] = "ext_intel_memory_clock_rate",
    [39] = "ext_intel_memory_bus_width",
    [40] = "emulated",
    [41] = "ext_intel_legacy_image",
    [42] = "ext_oneapi_bindless_images",
    [43] = "ext_oneapi_bindless_images_shared_usm",
    [44] = "ext_oneapi_bindless_images_1d_usm",
    [45] = "ext_oneapi_bindless_images_2d_usm",
    [46] = "ext_oneapi_external_memory_import",
    [47] = NULL,
    [48] = "ext_oneapi_external_semaphore_import",
    [49] = NULL,
    [50] = "ext_oneapi_mipmap",
    [51] = "ext_oneapi_mipmap_anisotropy",
    [52] = "ext_oneapi_mipmap_level_reference",
    [53] = "ext_intel_esimd",
    [54] = "ext_oneapi_ballot_group",
    [55] = "ext_oneapi_fixed_size_group",
    [56] = "ext_oneapi_opportunistic_group",
    [57] = "ext_oneapi_tangle_group",
    [58] = "ext_intel_matrix",
    [59] = "ext_oneapi_is_composite",
    [60] = "ext_oneapi_is_component",
    [61] = "ext_oneapi_graph",
    [62] = "ext_intel_fpga_task_sequence",
    [63] = "ext_oneapi_limited_graph",
    [64] = "ext_oneapi_private_alloca",
    [65] = "ext_oneapi_cubemap",
    [66] = "ext_oneapi_cubemap_seamless_filtering",
    [67] = "ext_oneapi_bindless_sampled_image_fetch_1d_usm",
    [68] = "ext_oneapi_bindless_sampled_image_fetch_1d",
    [69] = "ext_oneapi_bindless_sampled_image_fetch_2d_usm",
    [70] = "ext_oneapi_bindless_sampled_image_fetch_2d",
    [71] = NULL,
    [72] = "ext_oneapi_bindless_sampled_image_fetch_3d",
    [73] = "ext_oneapi_queue_profiling_tag",
    [74] = "ext_oneapi_virtual_mem",
    [75] = "ext_oneapi_cuda_cluster_group",
    [76] = "ext_oneapi_image_array",
    [77] = "ext_oneapi_unique_addressing_per_dim",
    [78] = "ext_oneapi_bindless_images_sample_1d_usm",
    [79] = "ext_oneapi_bindless_images_sample_2d_usm",
    [80] = "ext_oneapi_atomic16",
    [81] = "ext_oneapi_virtual_functions",
    [82] = "ext_intel_spill_memory_size",
    [83] = "ext_oneapi_bindless_images_gather",
    [84] = "ext_intel_current_clock_throttle_reasons",
    [85] = "ext_intel_fan_speed",
    [86] = "ext_intel_power_limits",
    [87] = "ext_oneapi_async_memory_alloc",
    [88] = "ext_intel_device_info_luid",
    [89] = "ext_intel_device_info_node_mask",
    [90] = "ext_oneapi_exportable_device_mem",
};

/* Older spellings DPC++ still accepts. */
static const struct {
    const char *name;
    uint32_t aspect;
} aliases[] = {
    {"usm_system_allocator", 17},
    {"ext_oneapi_interop_memory_import", 46},
    {"ext_oneapi_interop_semaphore_import", 48},
};

const char *
spvcond_aspect_name(uint32_t aspect)
{
    return aspect < sizeof(names) / sizeof(names[0]) ? names[aspect] : NULL;
}

bool
spvcond_aspect_by_name(const char *name, uint32_t *aspect)
{
    for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (names[i] && strcmp(names[i], name) == 0) {
            *aspect = i;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        if (strcmp(aliases[i].name, name) == 0) {
            *aspect = aliases[i].aspect;
            return true;
        }
    }
    return false;
}
