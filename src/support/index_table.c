/* SPDX-License-Identifier: MIT */
#include "support/index_table.h"

#include <string.h>

uint64_t
spvcond_hash_u32(const uint32_t *w, size_t n, uint64_t seed)
{
    uint64_t h = 0xcbf29ce484222325u ^ seed;
    for (size_t k = 0; k < n; k++)
        h = (h ^ w[k]) * 0x100000001b3u;
    /* The table masks the low bits, which a multiply leaves depending on the inputs' low bits only:
     * fold the high half down (found by profiling: sets differing in high bits shared probe chains). */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

uint64_t
spvcond_hash_string(const char *text)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 0x100000001b3u;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

spvcond_result
spvcond_table_insert(spvcond_context *ctx, struct spvcond_index_table *t, const uint64_t *hashes, uint32_t index)
{
    if (2 * ((size_t)index + 1) > t->size) {
        size_t size = t->size ? t->size * 2 : 64;
        uint32_t *slots = spvcond_alloc_array(ctx, size, sizeof(uint32_t));
        if (!slots)
            return spvcond_oom(ctx);
        spvcond_dealloc(ctx, t->slots);
        t->slots = slots;
        t->size = size;
        for (uint32_t k = 0; k < index; k++) {
            size_t h = hashes[k] & (size - 1);
            while (slots[h])
                h = (h + 1) & (size - 1);
            slots[h] = k + 1;
        }
    }
    size_t h = hashes[index] & (t->size - 1);
    while (t->slots[h])
        h = (h + 1) & (t->size - 1);
    t->slots[h] = index + 1;
    return SPVCOND_OK;
}

uint32_t
spvcond_table_next(const struct spvcond_index_table *t, uint64_t hash, size_t *cursor)
{
    if (!t->size)
        return 0;
    *cursor = *cursor == SIZE_MAX ? hash & (t->size - 1) : (*cursor + 1) & (t->size - 1);
    return t->slots[*cursor];
}

void
spvcond_table_release(spvcond_context *ctx, struct spvcond_index_table *t)
{
    spvcond_dealloc(ctx, t->slots);
    t->slots = NULL;
    t->size = 0;
}

int
spvcond_compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int
spvcond_compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int
spvcond_compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
