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

/* An entry's header: its first LAYER_CACHE_ENTRY_HEADER bytes. */
#define LAYER_CACHE_ENTRY_HEADER 88

/* The sizes of an entry's parts, as its header gives them. */
struct layer_cache_entry_sizes {
    size_t log, kernels, form;
};

/* The header of `entry` stored under `key` for `route`, its checksum taken over the parts where they are
 * (the file is then the header and the parts as *sizes gives them: log, kernels, form, each written from
 * where it is); false when out of memory or when the entry is empty. */
bool layer_cache_entry_head(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                            const struct layer_cache_entry *entry, unsigned char header[LAYER_CACHE_ENTRY_HEADER],
                            struct layer_cache_entry_sizes *sizes);
/* The entry's bytes in one piece, malloc'd into *bytes (what layer_cache_entry_head's file holds). */
bool layer_cache_entry_encode(const unsigned char key[LAYER_CACHE_KEY_SIZE], unsigned route,
                              const struct layer_cache_entry *entry, unsigned char **bytes, size_t *size);
/* Where an entry's parts are read from, in order: fills `n` bytes of `dst` from `source`; false (errno set)
 * when it cannot. */
typedef bool (*layer_cache_entry_source)(void *source, void *dst, size_t n);
/* An entry is read in two steps, so that the form (megabytes) goes straight from the file to its own memory:
 * the header of a file of `size` bytes, its magic, format version, key and route checked and its parts'
 * sizes added up to the file's (*sizes); then the parts, read from `source` into memory of their own (the
 * log and the kernel list in one block, the form in another), their checksum and shapes checked, and on
 * success given to *out. False with why in `why` when a check fails; with `why` left empty when memory or
 * `read` fails (errno says). */
bool layer_cache_entry_header(const unsigned char *header, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                              unsigned route, struct layer_cache_entry_sizes *sizes, char *why, size_t why_size);
bool layer_cache_entry_parts(const unsigned char *header, const struct layer_cache_entry_sizes *sizes,
                             layer_cache_entry_source read, void *source, struct layer_cache_entry *out, char *why,
                             size_t why_size);
/* The same for an entry's bytes in one piece (the fuzz target's), each part copied into *out. */
bool layer_cache_entry_decode(const unsigned char *bytes, size_t size, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                              unsigned route, struct layer_cache_entry *out, char *why, size_t why_size);
void layer_cache_entry_free(struct layer_cache_entry *entry);

#endif
