/* SPDX-License-Identifier: MIT */
/* DPC++'s sycl::aspect numbers and names, and what the library reads as each: all from one table
 * (registry/aspect_table.h). */
#ifndef SPVCOND_ASPECTS_H
#define SPVCOND_ASPECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "registry/aspect_table.h"
#include "spvcond/spvcond.h"

/* SPVCOND_ASPECT_FP16, SPVCOND_ASPECT_ATOMIC64...: every aspect's number by its name. */
#define SPVCOND_ASPECT_ENUM(n, NAME, name, type_fact, capability, inferred, more, query, extensions) \
    SPVCOND_ASPECT_##NAME = n,
enum { SPVCOND_ASPECT_TABLE(SPVCOND_ASPECT_ENUM) };
#undef SPVCOND_ASPECT_ENUM

/* What a SPIR-V type can carry that uses an aspect (the table's type_fact; analysis/infer.c finds them). */
enum {
    SPVCOND_TYPE_FP64 = 1,  /* contains a 64-bit float, also behind pointers */
    SPVCOND_TYPE_FP16 = 2,  /* a 16-bit float value (not only behind a pointer: half storage is core) */
    SPVCOND_TYPE_IMAGE = 4, /* an image, sampler or sampled image */
};

/* How an OpenCL device reports an aspect besides its extensions (the table's query). */
enum spvcond_cl_query {
    SPVCOND_CL_NONE,
    SPVCOND_CL_TYPE_CPU,            /* CL_DEVICE_TYPE */
    SPVCOND_CL_TYPE_GPU,
    SPVCOND_CL_TYPE_ACCELERATOR,
    SPVCOND_CL_TYPE_CUSTOM,
    SPVCOND_CL_HALF_FP_CONFIG,      /* CL_DEVICE_HALF_FP_CONFIG not 0 */
    SPVCOND_CL_DOUBLE_FP_CONFIG,    /* CL_DEVICE_DOUBLE_FP_CONFIG not 0 */
    SPVCOND_CL_IMAGE_SUPPORT,       /* CL_DEVICE_IMAGE_SUPPORT */
    SPVCOND_CL_COMPILER_AVAILABLE,  /* CL_DEVICE_COMPILER_AVAILABLE */
    SPVCOND_CL_LINKER_AVAILABLE,    /* CL_DEVICE_LINKER_AVAILABLE */
    SPVCOND_CL_QUEUE_PROFILING,     /* CL_QUEUE_PROFILING_ENABLE in CL_DEVICE_QUEUE_PROPERTIES */
};

/* One row of the table. */
struct spvcond_aspect_row {
    uint32_t number;
    const char *name;
    uint32_t capability;          /* the SPIR-V capability that means it, 0 for none */
    uint32_t more_capabilities[3]; /* a device with it has these too (0: none) */
    enum spvcond_cl_query query;
    const char *extensions;       /* an OpenCL device with every one of these has it (NULL: none) */
};

/* The aspect `capability` means (the table's capability column), SPVCOND_ASPECT_MAX for none; with
 * `needed_alone`, only where an instruction that needs that capability alone uses the aspect (the table's
 * inferred column). */
static inline uint32_t
spvcond_aspect_of_capability(uint32_t capability, bool needed_alone)
{
#define SPVCOND_OF_CAPABILITY(n, NAME, name, type_fact, cap, inferred, more, query, extensions) \
    if ((cap) && (!needed_alone || (inferred)) && capability == (cap))                         \
        return n;
    SPVCOND_ASPECT_TABLE(SPVCOND_OF_CAPABILITY)
#undef SPVCOND_OF_CAPABILITY
    return SPVCOND_ASPECT_MAX;
}

/* The table's rows, indexed by number (a removed aspect's row has no name), and how many. */
const struct spvcond_aspect_row *spvcond_aspect_rows(size_t *count);
/* NULL for a number with no name (removed or unknown). */
const char *spvcond_aspect_name(uint32_t aspect);
/* Accepts DPC++ names (and a few old aliases); false if unknown. */
bool spvcond_aspect_by_name(const char *name, uint32_t *aspect);

#endif
