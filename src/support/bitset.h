/* SPDX-License-Identifier: MIT */
/* Fixed-width bit sets stored as arrays of 64-bit words. */
#ifndef SPVCOND_BITSET_H
#define SPVCOND_BITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline size_t
bitset_words(size_t bits)
{
    return bits / 64 + 1;
}

static inline void
bitset_set(uint64_t *b, size_t i)
{
    b[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline bool
bitset_test(const uint64_t *b, size_t i)
{
    return (b[i / 64] >> (i % 64)) & 1;
}

/* a |= b; returns whether a changed. */
static inline bool
bitset_or(uint64_t *a, const uint64_t *b, size_t words)
{
    bool changed = false;
    for (size_t k = 0; k < words; k++) {
        uint64_t v = a[k] | b[k];
        changed |= v != a[k];
        a[k] = v;
    }
    return changed;
}

static inline bool
bitset_empty(const uint64_t *b, size_t words)
{
    for (size_t k = 0; k < words; k++)
        if (b[k])
            return false;
    return true;
}

static inline bool
bitset_equal(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t k = 0; k < words; k++)
        if (a[k] != b[k])
            return false;
    return true;
}

/* Is a a subset of b? */
static inline bool
bitset_subset(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t k = 0; k < words; k++)
        if (a[k] & ~b[k])
            return false;
    return true;
}

#endif
