/* SPDX-License-Identifier: MIT */
/* DPC++'s sycl::aspect numbers and names (dpcpp.md section 1), the default table. */
#ifndef SPVCOND_ASPECTS_H
#define SPVCOND_ASPECTS_H

#include <stdbool.h>
#include <stdint.h>

#define SPVCOND_ASPECT_FP16 5u
#define SPVCOND_ASPECT_IMAGE 9u
#define SPVCOND_ASPECT_FP64 6u
#define SPVCOND_ASPECT_ATOMIC64 28u

/* NULL for a number with no name (removed or unknown). */
const char *spvcond_aspect_name(uint32_t aspect);
/* Accepts DPC++ names (and a few old aliases); false if unknown. */
bool spvcond_aspect_by_name(const char *name, uint32_t *aspect);

#endif
