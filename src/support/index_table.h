/* SPDX-License-Identifier: MIT */
/* A small open-addressing table from a 64-bit hash to an index + 1. The caller keeps the hashes (so the
 * table can be rebuilt as it grows) and compares the candidates itself. */
#ifndef SPVCOND_INDEX_TABLE_H
#define SPVCOND_INDEX_TABLE_H

#include "support/context.h"

struct spvcond_index_table {
    uint32_t *slots;
    size_t size;
};

/* A hash of n words whose low bits are usable as a table index; seed tells kinds of key apart. */
uint64_t spvcond_hash_u32(const uint32_t *w, size_t n, uint64_t seed);
uint64_t spvcond_hash_string(const char *text);
/* Insert `index`, whose hash is hashes[index]; hashes[0..index) are those already in the table. */
spvcond_result spvcond_table_insert(spvcond_context *ctx, struct spvcond_index_table *t, const uint64_t *hashes,
                                    uint32_t index);
/* Candidates for `hash`: call with *cursor = SIZE_MAX first; returns index + 1, or 0 when exhausted. */
uint32_t spvcond_table_next(const struct spvcond_index_table *t, uint64_t hash, size_t *cursor);
void spvcond_table_release(spvcond_context *ctx, struct spvcond_index_table *t);
/* qsort comparators for keys. */
int spvcond_compare_u32(const void *a, const void *b);
int spvcond_compare_u64(const void *a, const void *b);
/* The same for an array of `const char *`, by strcmp. */
int spvcond_compare_strings(const void *a, const void *b);

#endif
