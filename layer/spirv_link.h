/* SPDX-License-Identifier: MIT */
/* Linking SPIR-V modules (spirv_link.cpp with SPIRV-Tools' linker; spirv_link_none.c without it). */
#ifndef SPVCOND_LAYER_SPIRV_LINK_H
#define SPVCOND_LAYER_SPIRV_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The n modules linked into one (malloc'd *out of *out_count words): a library keeps its exports, an
 * executable drops them; imports no module exports stay (the driver's built-ins). False with the reason in
 * msg. */
bool layer_link_spirv(const uint32_t *const *modules, const size_t *counts, size_t n, bool library, uint32_t **out,
                      size_t *out_count, char *msg, size_t msg_size);

#endif
