/* SPDX-License-Identifier: MIT */
/* One entry of the layer's program cache as bytes (docs/opencl-layer.md, "The cache"; cache_entry.h). Written by one
 * build of the layer and read by any other, from a folder anyone may have damaged: decoding checks every
 * length before it is used, and a checksum of the contents, so that a truncated, corrupt or foreign file is
 * refused, never half-read. The key (cache.c) is a SHA-256; the checksum only has to catch damage, so it is
 * XXH3's 128 bits, a tenth of SHA-256's time (as Mesa's disk cache checks its entries by CRC32).
 *
 *   offset  size  what
 *   0       8     "SPVCLAYR"
 *   8       4     format version (LAYER_CACHE_FORMAT), host order: another machine's file is another version
 *   12      4     the route (layer.h's enum layer_route)
 *   16      32    the key the entry was stored under
 *   48      8     log size (the string's bytes and its NUL)
 *   56      8     kernels size (the list's bytes, its closing empty name included)
 *   64      8     form size (what the driver takes)
 *   72      16    XXH3-128 of the 72 bytes before it, then of log, kernels, form (high half first, big-endian)
 *   88            log, kernels, form */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "cache_entry.h"

#define LAYER_CACHE_FORMAT 2u
#define HEADER LAYER_CACHE_ENTRY_HEADER
#define CHECKSUM_AT 72
static const char magic[8] = {'S', 'P', 'V', 'C', 'L', 'A', 'Y', 'R'};

/* The size of a kernel list read from a file, its closing empty name included; 0 when it has none within
 * `limit`. */
static size_t
kernels_size(const char *kernels, size_t limit)
{
    size_t at = 0;
    while (at < limit) {
        const char *end = memchr(kernels + at, 0, limit - at);
        if (!end)
            return 0;
        size_t n = (size_t)(end - (kernels + at));
        at += n + 1;
        if (n == 0)
            return at;
    }
    return 0;
}

static void
put64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static uint64_t
get64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The checksum of an entry: of its header's first CHECKSUM_AT bytes, then of its parts. False when out of
 * memory (XXH3's state is allocated by the library: its size is not part of libxxhash's ABI). */
static bool
entry_checksum(const unsigned char *header, const char *log, const char *kernels,
               const struct layer_cache_entry_sizes *sizes, const unsigned char *form,
               unsigned char out[sizeof(XXH128_canonical_t)])
{
    XXH3_state_t *state = XXH3_createState();
    if (!state)
        return false;
    XXH3_128bits_reset(state);
    XXH3_128bits_update(state, header, CHECKSUM_AT);
    XXH3_128bits_update(state, log, sizes->log);
    XXH3_128bits_update(state, kernels, sizes->kernels);
    XXH3_128bits_update(state, form, sizes->form);
    XXH128_canonicalFromHash((XXH128_canonical_t *)out, XXH3_128bits_digest(state));
    XXH3_freeState(state);
    return true;
}

bool
layer_cache_entry_head(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                       const struct layer_cache_entry *entry, unsigned char header[LAYER_CACHE_ENTRY_HEADER],
                       struct layer_cache_entry_sizes *sizes)
{
    size_t log = strlen(entry->log) + 1;
    size_t kernels = 1;
    for (const char *k = entry->kernels; *k; k += strlen(k) + 1)
        kernels += strlen(k) + 1;
    if (entry->form_size == 0 || entry->form_size > SIZE_MAX - HEADER - log - kernels)
        return false;
    *sizes = (struct layer_cache_entry_sizes){log, kernels, entry->form_size};
    uint32_t format = LAYER_CACHE_FORMAT, r = route;
    memcpy(header, magic, 8);
    memcpy(header + 8, &format, 4);
    memcpy(header + 12, &r, 4);
    memcpy(header + 16, key, LAYER_CACHE_KEY_SIZE);
    put64(header + 48, log);
    put64(header + 56, kernels);
    put64(header + 64, entry->form_size);
    return entry_checksum(header, entry->log, entry->kernels, sizes, entry->form, header + CHECKSUM_AT);
}

bool
layer_cache_entry_encode(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                         const struct layer_cache_entry *entry, unsigned char **bytes, size_t *size)
{
    *bytes = NULL;
    unsigned char header[HEADER];
    struct layer_cache_entry_sizes sizes;
    if (!layer_cache_entry_head(key, route, entry, header, &sizes))
        return false;
    *size = HEADER + sizes.log + sizes.kernels + sizes.form;
    unsigned char *b = malloc(*size);
    if (!b)
        return false;
    memcpy(b, header, HEADER);
    memcpy(b + HEADER, entry->log, sizes.log);
    memcpy(b + HEADER + sizes.log, entry->kernels, sizes.kernels);
    memcpy(b + HEADER + sizes.log + sizes.kernels, entry->form, sizes.form);
    *bytes = b;
    return true;
}

bool
layer_cache_entry_header(const unsigned char *bytes, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                         unsigned route, struct layer_cache_entry_sizes *sizes, char *why, size_t why_size)
{
    uint32_t format, r;
    if (size < HEADER || memcmp(bytes, magic, 8) != 0) {
        snprintf(why, why_size, "not an entry of this cache (%zu bytes)", size);
        return false;
    }
    memcpy(&format, bytes + 8, 4);
    memcpy(&r, bytes + 12, 4);
    if (format != LAYER_CACHE_FORMAT) {
        snprintf(why, why_size, "an entry of format %u, this layer writes %u", format, LAYER_CACHE_FORMAT);
        return false;
    }
    if (r != (uint32_t)route || memcmp(bytes + 16, key, LAYER_CACHE_KEY_SIZE) != 0) {
        snprintf(why, why_size, "the entry was stored under another key or route");
        return false;
    }
    uint64_t log = get64(bytes + 48), kernels = get64(bytes + 56), form = get64(bytes + 64);
    uint64_t rest = size - HEADER;
    if (log > rest || kernels > rest - log || form != rest - log - kernels || log == 0 || kernels == 0 || form == 0) {
        snprintf(why, why_size, "its sizes (%llu, %llu, %llu) do not add up to its %zu bytes",
                 (unsigned long long)log, (unsigned long long)kernels, (unsigned long long)form, size);
        return false;
    }
    *sizes = (struct layer_cache_entry_sizes){(size_t)log, (size_t)kernels, (size_t)form};
    return true;
}

/* The parts' checks once read into `middle` (log, kernels) and `form`; on success both become the entry's. */
static bool
check_parts(const unsigned char *header, const struct layer_cache_entry_sizes *sizes, char *middle,
            unsigned char *form, struct layer_cache_entry *out, char *why, size_t why_size)
{
    unsigned char checksum[sizeof(XXH128_canonical_t)];
    if (!entry_checksum(header, middle, middle + sizes->log, sizes, form, checksum)) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    if (memcmp(checksum, header + CHECKSUM_AT, sizeof(checksum)) != 0) {
        snprintf(why, why_size, "its contents do not match their checksum");
        return false;
    }
    if (memchr(middle, 0, sizes->log) != middle + sizes->log - 1 ||
        kernels_size(middle + sizes->log, sizes->kernels) != sizes->kernels) {
        snprintf(why, why_size, "its log or kernel list is not well formed");
        return false;
    }
    /* The log is the middle's first string; the kernel list, freed apart from it, is copied (a few names). */
    char *kernels = malloc(sizes->kernels);
    if (!kernels) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    memcpy(kernels, middle + sizes->log, sizes->kernels);
    *out = (struct layer_cache_entry){middle, kernels, form, sizes->form};
    return true;
}

bool
layer_cache_entry_parts(const unsigned char *header, const struct layer_cache_entry_sizes *sizes,
                        layer_cache_entry_source read, void *source, struct layer_cache_entry *out, char *why,
                        size_t why_size)
{
    *out = (struct layer_cache_entry){0};
    if (why_size)
        why[0] = '\0'; /* stays empty unless a check fails */
    char *middle = malloc(sizes->log + sizes->kernels);
    unsigned char *form = malloc(sizes->form);
    bool ok = middle && form && read(source, middle, sizes->log + sizes->kernels) &&
              read(source, form, sizes->form) && check_parts(header, sizes, middle, form, out, why, why_size);
    if (!ok) {
        free(middle);
        free(form);
    }
    return ok;
}

/* An entry's bytes in one piece as a source: the parts follow the header. */
struct bytes_source {
    const unsigned char *at;
};

static bool
read_bytes(void *source, void *dst, size_t n)
{
    struct bytes_source *s = source;
    memcpy(dst, s->at, n);
    s->at += n;
    return true;
}

bool
layer_cache_entry_decode(const unsigned char *bytes, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                         unsigned route, struct layer_cache_entry *out, char *why, size_t why_size)
{
    *out = (struct layer_cache_entry){0};
    struct layer_cache_entry_sizes sizes;
    if (!layer_cache_entry_header(bytes, size, key, route, &sizes, why, why_size))
        return false;
    struct bytes_source source = {bytes + HEADER};
    if (layer_cache_entry_parts(bytes, &sizes, read_bytes, &source, out, why, why_size))
        return true;
    if (!why[0]) /* only memory can fail here */
        snprintf(why, why_size, "out of memory");
    return false;
}

void
layer_cache_entry_free(struct layer_cache_entry *entry)
{
    free(entry->log);
    free(entry->kernels);
    free(entry->form);
    *entry = (struct layer_cache_entry){0};
}
