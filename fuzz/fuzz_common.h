/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: a context per input, and an abort that names the broken property. */
#ifndef SPVCOND_FUZZ_COMMON_H
#define SPVCOND_FUZZ_COMMON_H

#include <spvcond/spvcond.h>
#include <stdbool.h>
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

/* spvcond_module_emit_to gives, piece by piece, the words spvcond_module_emit gave (w, n). */
struct fuzz_expected_words {
    const uint32_t *w;
    size_t n, at;
    bool same;
};

static inline int
fuzz_compare_piece(void *user, const uint32_t *words, size_t count)
{
    struct fuzz_expected_words *e = user;
    e->same = e->same && count > 0 && count <= e->n - e->at && !memcmp(e->w + e->at, words, count * 4);
    e->at += e->same ? count : 0;
    return !e->same;
}

static inline void
fuzz_check_emit_to(spvcond_module *m, const uint32_t *w, size_t n)
{
    struct fuzz_expected_words e = {w, n, 0, true};
    size_t given;
    FUZZ_ASSERT(spvcond_module_emit_to(m, fuzz_compare_piece, &e, &given) == SPVCOND_OK && e.same && e.at == n &&
                    given == n,
                "emitted as pieces, the module is what emit gives");
}

/* Replaying (replay.c, -DFUZZ_REPLAY) with $SPVCOND_FUZZ_KEEP naming a folder: each input and the modules
 * a target writes from it are kept there as NNNN-input.spv and NNNN-KIND.spv, for tests/fuzz_outputs.py to
 * judge with today's validator. Nothing is kept while fuzzing. */
#ifdef FUZZ_REPLAY
static unsigned fuzz_kept_case;

static inline void
fuzz_keep_file(const char *kind, const void *data, size_t bytes)
{
    const char *dir = getenv("SPVCOND_FUZZ_KEEP");
    if (!dir)
        return;
    char path[4096];
    snprintf(path, sizeof(path), "%s/%04u-%s.spv", dir, fuzz_kept_case, kind);
    FILE *f = fopen(path, "wb");
    FUZZ_ASSERT(f && fwrite(data, 1, bytes, f) == bytes && fclose(f) == 0, "a kept module is written");
}

static inline void
fuzz_keep_input(const uint8_t *data, size_t size)
{
    fuzz_kept_case++;
    fuzz_keep_file("input", data, size);
}

static inline void
fuzz_keep(const char *kind, const uint32_t *words, size_t count)
{
    fuzz_keep_file(kind, words, count * 4);
}
#else
static inline void
fuzz_keep_input(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
}

static inline void
fuzz_keep(const char *kind, const uint32_t *words, size_t count)
{
    (void)kind;
    (void)words;
    (void)count;
}
#endif

#endif
