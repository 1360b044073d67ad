/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: a context per input, and an abort that names the broken property. */
#ifndef SPVCOND_FUZZ_COMMON_H
#define SPVCOND_FUZZ_COMMON_H

#include <spvcond/spvcond.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond, what)                                                                                        \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "property broken: %s (%s:%d)\n", what, __FILE__, __LINE__);                                \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Words from fuzz bytes (whole words only). */
static inline uint32_t *
fuzz_words(const uint8_t *data, size_t size, size_t *count)
{
    *count = size / 4;
    uint32_t *w = malloc(*count * 4 + 4);
    memcpy(w, data, *count * 4);
    return w;
}

#endif
