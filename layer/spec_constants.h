/* SPDX-License-Identifier: MIT */
/* A module's specialization constants as clSetProgramSpecializationConstant sees them (spec_constants.c). */
#ifndef SPVCOND_LAYER_SPEC_CONSTANTS_H
#define SPVCOND_LAYER_SPEC_CONSTANTS_H

#include <spvcond/spvcond.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct layer_spec_constant {
    uint32_t spec_id;
    uint32_t size;   /* bytes, as clSetProgramSpecializationConstant takes them (a boolean: 1) */
    size_t word;     /* where its instruction begins */
    bool is_bool, is_signed;
    uint32_t width;  /* bits */
};
/* The module's spec constants that carry a SpecId (malloc'd *out); false when out of memory. */
bool layer_spec_constants(const uint32_t *words, size_t count, struct layer_spec_constant **out, size_t *n);
/* A copy of the module (malloc'd) whose spec constants have the values given as defaults; NULL when out of
 * memory. */
uint32_t *layer_spec_defaults(const uint32_t *words, size_t count, const struct layer_spec_constant *table, size_t n,
                              const spvcond_spec_value *values, size_t value_count);

#endif
