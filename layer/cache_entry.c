/* SPDX-License-Identifier: MIT */
/* One entry of the layer's program cache as bytes (docs/opencl-layer.md, "The cache"; cache_entry.h). Written by one
 * build of the layer and read by any other, from a folder anyone may have damaged: decoding checks every
 * length before it is used, and a digest of the contents, so that a truncated, corrupt or foreign file is
 * refused, never half-read.
 *
 *   offset  size  what
 *   0       8     "SPVCLAYR"
 *   8       4     format version (LAYER_CACHE_FORMAT), host order: another machine's file is another version
 *   12      4     the route (layer.h's enum layer_route)
 *   16      32    the key the entry was stored under
 *   48      8     log size (the string's bytes and its NUL)
 *   56      8     kernels size (the list's bytes, its closing empty name included)
 *   64      8     form size (what the driver takes)
 *   72      32    SHA-256 of the 104 bytes before it with this field zero, then of log, kernels, form
 *   104           log, kernels, form */
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_entry.h"

#define LAYER_CACHE_FORMAT 1u
#define HEADER 104
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

/* The digest of an entry's bytes with the digest's own field taken as zero. */
static void
entry_digest(const unsigned char *bytes, size_t size, unsigned char digest[SHA256_DIGEST_SIZE])
{
    static const unsigned char zero[SHA256_DIGEST_SIZE];
    struct sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, 72, bytes);
    sha256_update(&h, sizeof(zero), zero);
    sha256_update(&h, size - HEADER, bytes + HEADER);
    sha256_digest(&h, SHA256_DIGEST_SIZE, digest);
}

bool
layer_cache_entry_encode(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                         const struct layer_cache_entry *entry, unsigned char **bytes, size_t *size)
{
    *bytes = NULL;
    size_t log = strlen(entry->log) + 1;
    size_t kernels = 1;
    for (const char *k = entry->kernels; *k; k += strlen(k) + 1)
        kernels += strlen(k) + 1;
    if ( entry->form_size == 0 || entry->form_size > SIZE_MAX - HEADER - log - kernels)
        return false;
    *size = HEADER + log + kernels + entry->form_size;
    unsigned char *b = calloc(1, *size);
    if (!b)
        return false;
    uint32_t format = LAYER_CACHE_FORMAT, r = route;
    memcpy(b, magic, 8);
    memcpy(b + 8, &format, 4);
    memcpy(b + 12, &r, 4);
    memcpy(b + 16, key, LAYER_CACHE_KEY_SIZE);
    put64(b + 48, log);
    put64(b + 56, kernels);
    put64(b + 64, entry->form_size);
    memcpy(b + HEADER, entry->log, log);
    memcpy(b + HEADER + log, entry->kernels, kernels);
    memcpy(b + HEADER + log + kernels, entry->form, entry->form_size);
    entry_digest(b, *size, b + 72);
    *bytes = b;
    return true;
}

static char *
copy(const unsigned char *p, size_t n)
{
    char *c = malloc(n);
    if (c)
        memcpy(c, p, n);
    return c;
}

bool
layer_cache_entry_decode(const unsigned char *bytes, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                         unsigned route, struct layer_cache_entry *out, char *why, size_t why_size)
{
    *out = (struct layer_cache_entry){0};
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
    unsigned char digest[SHA256_DIGEST_SIZE];
    entry_digest(bytes, size, digest);
    if (memcmp(digest, bytes + 72, sizeof(digest)) != 0) {
        snprintf(why, why_size, "its contents do not match their digest");
        return false;
    }
    const unsigned char *p = bytes + HEADER;
    if (memchr(p, 0, log) != p + log - 1 || kernels_size((const char *)p + log, kernels) != kernels) {
        snprintf(why, why_size, "its log or kernel list is not well formed");
        return false;
    }
    out->log = copy(p, log);
    out->kernels = copy(p + log, kernels);
    out->form = (unsigned char *)copy(p + log + kernels, form);
    out->form_size = form;
    if (!out->log || !out->kernels || !out->form) {
        layer_cache_entry_free(out);
        snprintf(why, why_size, "out of memory");
        return false;
    }
    return true;
}

void
layer_cache_entry_free(struct layer_cache_entry *entry)
{
    free(entry->log);
    free(entry->kernels);
    free(entry->form);
    *entry = (struct layer_cache_entry){0};
}
