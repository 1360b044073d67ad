/* SPDX-License-Identifier: MIT */
/* The layer's cache entries (layer/cache_entry.c), which it reads from a folder anyone may have written:
 * any bytes decode or are refused with a reason, never read outside them; an entry made from pieces of the
 * input decodes to exactly those pieces, and the same entry with any one byte changed is refused. */
#include <stdlib.h>
#include <string.h>

#include "../layer/cache_entry.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
same(const struct layer_cache_entry *a, const struct layer_cache_entry *b, size_t kernels)
{
    return strcmp(a->log, b->log) == 0 && memcmp(a->kernels, b->kernels, kernels) == 0 &&
           a->form_size == b->form_size && memcmp(a->form, b->form, a->form_size) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char key[LAYER_CACHE_KEY_SIZE] = {0};
    if (size >= 48)
        memcpy(key, data + 16, sizeof(key)); /* the key the bytes say, so that decoding goes past it */
    struct layer_cache_entry got;
    char why[256] = "";
    if (layer_cache_entry_decode(data, size, key, size >= 16 ? data[12] : 0, &got, why, sizeof(why)))
        layer_cache_entry_free(&got);
    else
        FUZZ_ASSERT(why[0] != 0, "a refusal says why");

    /* An entry of the input's pieces: a log (up to the first NUL), kernel names (the next bytes split at
     * NULs, then an empty name), a form (the rest, at least one byte). */
    if (size < 4)
        return 0;
    size_t log_end = 0;
    while (log_end < size / 4 && data[log_end])
        log_end++;
    char *log = calloc(log_end + 1, 1), *kernels = calloc(size / 2 + 2, 1);
    memcpy(log, data, log_end);
    size_t k = 0;
    for (size_t at = size / 4; at < size / 2; at++)
        if (data[at] || (k > 0 && kernels[k - 1]))
            kernels[k++] = (char)data[at];
    if (k > 0 && kernels[k - 1])
        kernels[k++] = 0;
    kernels[k++] = 0;
    struct layer_cache_entry entry = {log, kernels, (unsigned char *)data + size / 2, size - size / 2};
    unsigned char *bytes;
    size_t n;
    FUZZ_ASSERT(layer_cache_entry_encode(key, 3, &entry, &bytes, &n), "an entry of pieces encodes");
    FUZZ_ASSERT(layer_cache_entry_decode(bytes, n, key, 3, &got, why, sizeof(why)), "what was encoded decodes");
    FUZZ_ASSERT(same(&entry, &got, k), "and is what was encoded");
    layer_cache_entry_free(&got);
    FUZZ_ASSERT(!layer_cache_entry_decode(bytes, n, key, 2, &got, why, sizeof(why)), "another route is refused");
    size_t at = (data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16) % n;
    FUZZ_ASSERT(!layer_cache_entry_decode(bytes, at, key, 3, &got, why, sizeof(why)), "a truncated entry is refused");
    bytes[at] ^= (unsigned char)(data[3] | 1);
    FUZZ_ASSERT(!layer_cache_entry_decode(bytes, n, key, 3, &got, why, sizeof(why)), "one byte changed is refused");
    free(bytes);
    free(log);
    free(kernels);
    return 0;
}
