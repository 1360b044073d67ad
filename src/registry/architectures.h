/* SPDX-License-Identifier: MIT */
/* Device architectures of SPV_INTEL_function_variants' device registry (intel/llvm
 * sycl/doc/design/spirv-extensions/targets/, registry version 0): category, family and architecture
 * values, named as DPC++'s sycl::ext::oneapi::experimental::architecture names them. */
#ifndef SPVCOND_ARCHITECTURES_H
#define SPVCOND_ARCHITECTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spvcond_architecture {
    uint32_t category, family, architecture;
};

#define SPVCOND_ARCH_CATEGORY_CPU 1u
#define SPVCOND_ARCH_CATEGORY_GPU 2u
#define SPVCOND_ARCH_CATEGORY_NPU 3u

/* By name ("intel_gpu_pvc", "nvidia_gpu_sm_80", "amd_gpu_gfx90a", "intel_gpu" for any Intel GPU...). */
bool spvcond_architecture_by_name(const char *name, struct spvcond_architecture *out);
/* The first name of a value, or NULL when the registry has none. */
const char *spvcond_architecture_name(struct spvcond_architecture a);
/* Whether the table knows the category and family and, for a GPU, the architecture. */
bool spvcond_architecture_known(struct spvcond_architecture a);
/* The index-th entry of the table (names, aliases included); false past the end. */
bool spvcond_architecture_at(size_t index, const char **name, struct spvcond_architecture *out);

#endif
