/* SPDX-License-Identifier: MIT */
/* One entry of the layer's program cache as bytes (cache_entry.c: no I/O, plain C, fuzzed by
 * fuzz/fuzz_cache_entry.c). */
#ifndef SPVCOND_LAYER_CACHE_ENTRY_H
#define SPVCOND_LAYER_CACHE_ENTRY_H

#include <stdbool.h>
#include <stddef.h>

#define LAYER_CACHE_KEY_SIZE 32

/* What the layer made for one device: its lines of the build log (a string, "" when none), the kernels it
 * keeps ('\0'-separated, ending with an empty name) and what its driver takes (the driver's form). */
struct layer_cache_entry {
    char *log;
    char *kernels;
    unsigned char *form;
    size_t form_size;
};

/* The entry's bytes, malloc'd into *bytes; false when out of memory or when the entry is empty. */
bool layer_cache_entry_encode(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                              const struct layer_cache_entry *entry, unsigned char **bytes, size_t *size);
/* An entry read back, malloc'd into *out, with every length, the key, the route, the format's version and a
 * digest of the contents checked; false with why in `why` when any fails. */
bool layer_cache_entry_decode(const unsigned char *bytes, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                              unsigned route, struct layer_cache_entry *out, char *why, size_t why_size);
void layer_cache_entry_free(struct layer_cache_entry *entry);

#endif
