/* SPDX-License-Identifier: MIT */
/* Device descriptions: the built-in table, configuration files, requirement values. */
#ifndef SPVCOND_DEVICES_H
#define SPVCOND_DEVICES_H

#include "ir/module.h"

/* As spvcond_requirement_type numbers them. */
enum spvcond_requirement_kind {
    SPVCOND_REQ_ASPECT, SPVCOND_REQ_WORK_GROUP_SIZE, SPVCOND_REQ_SUB_GROUP_SIZE, SPVCOND_REQ_CAPABILITY
};

struct spvcond_requirement {
    enum spvcond_requirement_kind kind;
    uint32_t v[3];
};

/* Parse a requirement constant's OpName ("spvcond.aspect.fp64", "spvcond.capability.Int64", ...). 0: not ours; 1: parsed; -1: ours
 * but malformed. */
int spvcond_requirement_parse(const char *name, struct spvcond_requirement *out);
/* The requirement spec constant `id` stands for, from its first OpName (same results as above). */
int spvcond_requirement_of(const struct spvcond_module *m, uint32_t id, struct spvcond_requirement *q);
bool spvcond_device_supports(const spvcond_device_info *d, const struct spvcond_requirement *q);
/* DPC++'s wording for an unmet requirement. */
void spvcond_requirement_message(const struct spvcond_requirement *q, char *buf, size_t size);

/* Whether a Vulkan device may lack the capability: a compute shader may declare it only where a feature,
 * an API version, an extension or the subgroup properties allow it (vulkan_device.c's table), not on every
 * device (Shader, Matrix...). A shader module's functions require the ones they use (spec/annotate.md). */
bool spvcond_vulkan_capability_optional(uint32_t capability);

/* A device description of one block (the OpenCL and Vulkan devices'): `block_size` bytes that begin with the
 * spvcond_device_info, zeroed, with a copy of `name` (may be NULL) at `name_offset`, info->size and ->name set.
 * NULL, said in ctx, when out of memory. Released with spvcond_free(). */
spvcond_device_info *spvcond_device_block(spvcond_context *ctx, size_t block_size, size_t name_offset,
                                          const char *name);

#endif
