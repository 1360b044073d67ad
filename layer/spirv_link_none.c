/* SPDX-License-Identifier: MIT */
/* The layer built without SPIRV-Tools: programs from IL link only one by one (program_build.c takes a single
 * module without linkage as it is), and anything else is refused with the reason. */
#include <stdio.h>

#include "spirv_link.h"

bool
layer_link_spirv(const uint32_t *const *modules, const size_t *counts, size_t n, bool library, uint32_t **out,
                 size_t *out_count, char *msg, size_t msg_size)
{
    (void)modules, (void)counts, (void)n, (void)library, (void)out, (void)out_count;
    snprintf(msg, msg_size, "linking SPIR-V modules needs SPIRV-Tools' linker, which this build of the layer lacks");
    return false;
}
